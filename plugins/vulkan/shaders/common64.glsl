// common64.glsl - double-precision helpers for the f64 shaders (devices
// with shaderFloat64): GLSL has no double exp or log, so these reduce
// the argument and sum a series, to about 1 ulp.

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
