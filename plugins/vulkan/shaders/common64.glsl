// common64.glsl - double-precision helpers for the f64 shaders (devices
// with shaderFloat64): GLSL has no double exp, log, sin, cos, atan or
// erf, so these reduce the argument and sum a series, to a few ulp.

const double RLX_LN2_HI = 6.93147180369123816490e-01lf;
const double RLX_LN2_LO = 1.90821492927058770002e-10lf;

double rlx_inf64()
{
    return packDouble2x32(uvec2(0u, 0x7ff00000u));
}

double rlx_nan64()
{
    return packDouble2x32(uvec2(0u, 0x7ff80000u));
}

// e^x: x = n ln2 + r, |r| <= ln2 / 2, e^r by its Taylor series.
double rlx_exp64(double x)
{
    if (isnan(x))
        return x;
    if (x > 709.782712893384lf)
        return rlx_inf64();
    if (x < -745.2lf)
        return 0.0lf;
    double n = floor(x * 1.4426950408889634lf + 0.5lf);
    double r = (x - n * RLX_LN2_HI) - n * RLX_LN2_LO;
    double t = 1.0lf / 6227020800.0lf;              // 1/13!
    t = t * r + 1.0lf / 479001600.0lf;
    t = t * r + 1.0lf / 39916800.0lf;
    t = t * r + 1.0lf / 3628800.0lf;
    t = t * r + 1.0lf / 362880.0lf;
    t = t * r + 1.0lf / 40320.0lf;
    t = t * r + 1.0lf / 5040.0lf;
    t = t * r + 1.0lf / 720.0lf;
    t = t * r + 1.0lf / 120.0lf;
    t = t * r + 1.0lf / 24.0lf;
    t = t * r + 1.0lf / 6.0lf;
    t = t * r + 0.5lf;
    t = t * r * r + r + 1.0lf;
    // two steps so 2^n never overflows before the product underflows
    int k = int(n);
    int h = k / 2;
    return ldexp(ldexp(t, h), k - h);
}

// log x: x = m 2^e with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s),
// s = (m - 1) / (m + 1), by its odd series.
double rlx_log64(double x)
{
    if (isnan(x) || x < 0.0lf)
        return rlx_nan64();
    if (x == 0.0lf)
        return -rlx_inf64();
    if (isinf(x))
        return x;
    int e;
    double m = frexp(x, e);
    if (m < 0.70710678118654752lf) {
        m *= 2.0lf;
        e -= 1;
    }
    double s = (m - 1.0lf) / (m + 1.0lf), z = s * s;
    double t = 1.0lf / 25.0lf;
    t = t * z + 1.0lf / 23.0lf;
    t = t * z + 1.0lf / 21.0lf;
    t = t * z + 1.0lf / 19.0lf;
    t = t * z + 1.0lf / 17.0lf;
    t = t * z + 1.0lf / 15.0lf;
    t = t * z + 1.0lf / 13.0lf;
    t = t * z + 1.0lf / 11.0lf;
    t = t * z + 1.0lf / 9.0lf;
    t = t * z + 1.0lf / 7.0lf;
    t = t * z + 1.0lf / 5.0lf;
    t = t * z + 1.0lf / 3.0lf;
    double lm = 2.0lf * s + 2.0lf * s * z * t;
    double de = double(e);
    return de * RLX_LN2_HI + (lm + de * RLX_LN2_LO);
}

// e^x - 1, accurate near 0 (Taylor series there).
double rlx_expm1_64(double x)
{
    if (abs(x) < 0.5lf) {
        double t = 1.0lf / 355687428096000.0lf;     // 1/17!
        t = t * x + 1.0lf / 20922789888000.0lf;
        t = t * x + 1.0lf / 1307674368000.0lf;
        t = t * x + 1.0lf / 87178291200.0lf;
        t = t * x + 1.0lf / 6227020800.0lf;
        t = t * x + 1.0lf / 479001600.0lf;
        t = t * x + 1.0lf / 39916800.0lf;
        t = t * x + 1.0lf / 3628800.0lf;
        t = t * x + 1.0lf / 362880.0lf;
        t = t * x + 1.0lf / 40320.0lf;
        t = t * x + 1.0lf / 5040.0lf;
        t = t * x + 1.0lf / 720.0lf;
        t = t * x + 1.0lf / 120.0lf;
        t = t * x + 1.0lf / 24.0lf;
        t = t * x + 1.0lf / 6.0lf;
        t = t * x + 0.5lf;
        return x + x * x * t;
    }
    return rlx_exp64(x) - 1.0lf;
}

// log(1 + t), accurate for small t (the rounding of 1 + t is undone).
double rlx_log1p_64(double t)
{
    double u = 1.0lf + t;
    if (u == 1.0lf)
        return t;
    if (isinf(u))
        return u;
    return rlx_log64(u) * (t / (u - 1.0lf));
}

double rlx_tanh64(double x)
{
    if (isnan(x) || x == 0.0lf)
        return x; // keeps -0
    double a = abs(x);
    if (a > 20.0lf)
        return x < 0.0lf ? -1.0lf : 1.0lf;
    double t = rlx_expm1_64(2.0lf * a);
    double r = t / (t + 2.0lf);
    return x < 0.0lf ? -r : r;
}

const double RLX_PI_2 = 1.57079632679489661923lf;

// atan: |x| > 1 as pi/2 - atan(1/|x|), past tan(pi/8) as
// pi/4 + atan((a - 1) / (a + 1)), then the odd series (|t| <= 0.4143).
double rlx_atan64(double x)
{
    if (isnan(x) || x == 0.0lf)
        return x; // keeps -0
    double a = abs(x), base = 0.0lf, sgn = 1.0lf;
    if (a > 1.0lf) {
        base = RLX_PI_2;
        sgn = -1.0lf;
        a = 1.0lf / a;
    }
    double off = 0.0lf;
    if (a > 0.41421356237309504880lf) {
        off = 0.78539816339744830962lf;
        a = (a - 1.0lf) / (a + 1.0lf);
    }
    double z = a * a, t = 0.0lf;
    for (int k = 25; k >= 1; k--)
        t = 1.0lf / double(2 * k + 1) - z * t;
    double r = off + (a - a * z * t);
    r = base + sgn * r;
    return x < 0.0lf ? -r : r;
}

// sin and cos: x = n pi/2 + r (pi/2 in three parts of 33 bits, each
// product exact while |n| < 2^20, so accurate for |x| below about 1e6),
// then the Taylor series of r in [-pi/4, pi/4]. Returns (sin, cos).
dvec2 rlx_sincos64(double x)
{
    if (isnan(x) || isinf(x))
        return dvec2(rlx_nan64());
    if (x == 0.0lf)
        return dvec2(x, 1.0lf); // keeps -0
    double n = roundEven(x * 0.63661977236758134308lf);
    double r = ((x - n * 1.57079632673412561417e+00lf) -
                n * 6.07710050630396597660e-11lf) -
               n * 2.02226624871116645580e-21lf;
    double z = r * r, s = 0.0lf, c = 0.0lf;
    // sin r = r (1 - z/(2*3) (1 - z/(4*5) (...))), cos likewise
    for (int k = 12; k >= 1; k--) {
        s = 1.0lf - z / double((2 * k) * (2 * k + 1)) * s;
        c = 1.0lf - z / double((2 * k - 1) * (2 * k)) * c;
    }
    s *= r;
    int q = int(mod(n, 4.0lf));
    if (q == 0)
        return dvec2(s, c);
    if (q == 1)
        return dvec2(c, -s);
    if (q == 2)
        return dvec2(-s, -c);
    return dvec2(-c, s);
}

// erf x = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (1 3 5 ... (2n+1)):
// every term positive, so nothing cancels; 1 in double past 5.9.
double rlx_erf64(double x)
{
    if (isnan(x) || x == 0.0lf)
        return x;
    double a = abs(x);
    if (a > 5.9lf)
        return x < 0.0lf ? -1.0lf : 1.0lf;
    double z = a * a, term = a, sum = a;
    for (int n = 1; n < 200; n++) {
        term *= 2.0lf * z / double(2 * n + 1);
        sum += term;
        if (term < sum * 1e-17lf)
            break;
    }
    double r = 1.12837916709551257390lf * rlx_exp64(-z) * sum;
    return x < 0.0lf ? -r : r;
}
