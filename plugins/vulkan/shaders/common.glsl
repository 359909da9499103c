// common.glsl - helpers every rlx compute shader includes: the flat
// invocation index of a 2D grid, f16/bf16 rounding (round to nearest
// even, done on the bits so it never depends on the driver), and float
// functions accurate to a few ulp (the GLSL built-ins may be much
// coarser on some drivers).

uint rlx_group()
{
    return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

uint rlx_gid()
{
    return rlx_group() * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
}

float rlx_round_f16(float x)
{
    uint u = floatBitsToUint(x);
    uint sign = u & 0x80000000u;
    uint a = u & 0x7fffffffu;
    if (a >= 0x7f800000u)
        return x;                                  // inf, NaN
    if (a >= 0x477ff000u)
        return uintBitsToFloat(sign | 0x7f800000u); // 65520 and up: inf
    if (a < 0x38800000u) {                         // subnormal f16
        float q = roundEven(uintBitsToFloat(a) * 16777216.0);
        return uintBitsToFloat(sign | floatBitsToUint(q * (1.0 / 16777216.0)));
    }
    a += 0xfffu + ((a >> 13) & 1u);
    return uintBitsToFloat(sign | (a & 0xffffe000u));
}

float rlx_round_bf16(float x)
{
    uint u = floatBitsToUint(x);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return x;
    u += 0x7fffu + ((u >> 16) & 1u);
    return uintBitsToFloat(u & 0xffff0000u);
}

float rlx_round(float x, uint mode)
{
    if (mode == 1u)
        return rlx_round_f16(x);
    if (mode == 2u)
        return rlx_round_bf16(x);
    return x;
}

#define RLX_NAN uintBitsToFloat(0x7fc00000u)
#define RLX_INF uintBitsToFloat(0x7f800000u)

// 2^n * p without overflow in the intermediate for n in [-300, 300].
float rlx_scale(float p, int n)
{
    int h = n / 2;
    return ldexp(ldexp(p, h), n - h);
}

float rlx_exp(float x)
{
    if (isnan(x))
        return x;
    if (x > 88.72284)
        return RLX_INF;
    if (x < -104.0)
        return 0.0;
    float n = floor(x * 1.44269504088896341 + 0.5);
    float r = x - n * 0.693359375;
    r = r - n * -2.12194440e-4;
    float p = 1.9875691500e-4;
    p = p * r + 1.3981999507e-3;
    p = p * r + 8.3334519073e-3;
    p = p * r + 4.1665795894e-2;
    p = p * r + 1.6666665459e-1;
    p = p * r + 5.0000001201e-1;
    p = p * r * r + r + 1.0;
    return rlx_scale(p, int(n));
}

float rlx_log(float x)
{
    if (isnan(x) || x < 0.0)
        return RLX_NAN;
    if (x == 0.0)
        return -RLX_INF;
    if (isinf(x))
        return x;
    float adj = 0.0;
    if (x < 1.17549435e-38) {
        x *= 16777216.0;
        adj = -24.0;
    }
    int ei;
    float m = frexp(x, ei);
    float e = float(ei) + adj;
    if (m < 0.707106781186547524) {
        e -= 1.0;
        m = m + m - 1.0;
    } else {
        m = m - 1.0;
    }
    float z = m * m;
    float y = 7.0376836292e-2;
    y = y * m - 1.1514610310e-1;
    y = y * m + 1.1676998740e-1;
    y = y * m - 1.2420140846e-1;
    y = y * m + 1.4249322787e-1;
    y = y * m - 1.6668057665e-1;
    y = y * m + 2.0000714765e-1;
    y = y * m - 2.4999993993e-1;
    y = y * m + 3.3333331174e-1;
    y = y * m * z;
    y += -2.12194440e-4 * e;
    y += -0.5 * z;
    return m + y + 0.693359375 * e;
}

// sin and cos of x, reduced by multiples of pi/2 (accurate for |x| up
// to about 1e5).
vec2 rlx_sincos(float x)
{
    if (isnan(x) || isinf(x))
        return vec2(RLX_NAN);
    float q = roundEven(x * 0.636619772367581343);
    float r = x - q * 1.5703125;
    r = r - q * 4.837512969970703125e-4;
    r = r - q * 7.54978995489188216e-8;
    float z = r * r;
    float s = r + r * z * (-1.6666654611e-1 +
                           z * (8.3321608736e-3 + z * -1.9515295891e-4));
    float c = 1.0 - 0.5 * z + z * z * (4.166664568298827e-2 +
              z * (-1.388731625493765e-3 + z * 2.443315711809948e-5));
    int k = int(q) & 3;
    if (k == 0) return vec2(s, c);
    if (k == 1) return vec2(c, -s);
    if (k == 2) return vec2(-s, -c);
    return vec2(-c, s);
}

float rlx_atan(float x)
{
    if (isnan(x))
        return x;
    float sgn = x < 0.0 ? -1.0 : 1.0;
    float a = abs(x), y0 = 0.0;
    if (a > 2.414213562373095) {
        y0 = 1.5707963267948966;
        a = -1.0 / a;
    } else if (a > 0.4142135623730950) {
        y0 = 0.7853981633974483;
        a = (a - 1.0) / (a + 1.0);
    }
    float z = a * a;
    float y = (((8.05374449538e-2 * z - 1.38776856032e-1) * z +
                1.99777106478e-1) * z - 3.33329491539e-1) * z * a + a;
    return sgn * (y0 + y);
}

float rlx_tanh(float x)
{
    if (isnan(x))
        return x;
    float z = abs(x);
    if (z >= 0.625) {
        if (z > 44.0)
            return sign(x);
        float t = 1.0 - 2.0 / (rlx_exp(2.0 * z) + 1.0);
        return x < 0.0 ? -t : t;
    }
    float s = x * x;
    return ((((-5.70498872745e-3 * s + 2.06390887954e-2) * s -
              5.37397155531e-2) * s + 1.33314422036e-1) * s -
            3.33332819422e-1) * s * x + x;
}

float rlx_sigmoid(float x)
{
    if (x >= 0.0)
        return 1.0 / (1.0 + rlx_exp(-x));
    float e = rlx_exp(x);
    return e / (1.0 + e);
}

// erfc with fractional error below 1.2e-7 (Numerical Recipes' erfcc).
float rlx_erfc(float x)
{
    float z = abs(x);
    float t = 1.0 / (1.0 + 0.5 * z);
    float p = 0.17087277;
    p = p * t - 0.82215223;
    p = p * t + 1.48851587;
    p = p * t - 1.13520398;
    p = p * t + 0.27886807;
    p = p * t - 0.18628806;
    p = p * t + 0.09678418;
    p = p * t + 0.37409196;
    p = p * t + 1.00002368;
    p = p * t - 1.26551223;
    float ans = t * rlx_exp(-z * z + p);
    return x >= 0.0 ? ans : 2.0 - ans;
}

// sqrt corrected by one Newton step, so it does not depend on the
// driver's approximation.
float rlx_sqrt(float x)
{
    if (!(x > 0.0) || isinf(x))
        return x < 0.0 ? RLX_NAN : x;
    float y = sqrt(x);
    float r = fma(-y, y, x);
    return fma(r, 0.5 / y, y);
}

float rlx_pow(float x, float y)
{
    if (y == 0.0)
        return 1.0;
    if (isnan(x) || isnan(y))
        return RLX_NAN;
    float ay = abs(y);
    bool yint = floor(y) == y;
    bool yodd = yint && ay < 16777216.0 && mod(ay, 2.0) == 1.0;
    if (x == 0.0) {
        if (y < 0.0)
            return yodd ? (1.0 / x) : RLX_INF;
        return yodd ? x : 0.0;
    }
    if (x < 0.0 && !yint)
        return RLX_NAN;
    float ax = abs(x);
    if (isinf(ay))
        return ax == 1.0 ? 1.0 : ((ax > 1.0) == (y > 0.0) ? RLX_INF : 0.0);
    if (isinf(ax))
        return y < 0.0 ? (x < 0.0 && yodd ? -0.0 : 0.0)
                       : (x < 0.0 && yodd ? -RLX_INF : RLX_INF);
    float r;
    if (yint && ay <= 64.0) { // exact-ish: repeated squaring
        uint n = uint(ay);
        float b = ax;
        r = 1.0;
        while (n != 0u) {
            if ((n & 1u) != 0u)
                r *= b;
            b *= b;
            n >>= 1u;
        }
        if (y < 0.0)
            r = 1.0 / r;
    } else {
        r = rlx_exp(y * rlx_log(ax));
    }
    return x < 0.0 && yodd ? -r : r;
}

// log(1 + t), accurate for small t (the rounding of 1 + t is undone).
float rlx_log1p(float t)
{
    float u = 1.0 + t;
    if (u == 1.0)
        return t;
    if (isinf(u))
        return u;
    return rlx_log(u) * (t / (u - 1.0));
}

// e^x - 1, accurate near 0.
float rlx_expm1(float x)
{
    if (abs(x) < 0.5) {
        float p = 1.0 / 5040.0;
        p = p * x + 1.0 / 720.0;
        p = p * x + 1.0 / 120.0;
        p = p * x + 1.0 / 24.0;
        p = p * x + 1.0 / 6.0;
        p = p * x + 0.5;
        return x + x * x * p;
    }
    return rlx_exp(x) - 1.0;
}

float rlx_erf(float x)
{
    if (isnan(x))
        return x;
    if (abs(x) < 0.5) { // Maclaurin series, relative error below 1e-7
        float z = x * x;
        float p = -1.0 / 75600.0;
        p = p * z + 1.0 / 9360.0;
        p = p * z - 1.0 / 1320.0;
        p = p * z + 1.0 / 216.0;
        p = p * z - 1.0 / 42.0;
        p = p * z + 0.1;
        p = p * z - 1.0 / 3.0;
        p = p * z + 1.0;
        return 1.12837916709551257 * x * p;
    }
    return 1.0 - rlx_erfc(x);
}

float rlx_softplus(float x)
{
    return x > 0.0 ? x + rlx_log1p(rlx_exp(-x)) : rlx_log1p(rlx_exp(x));
}

// C fmod: the sign of x; exact while x / y stays below 2^24.
float rlx_fmod(float x, float y)
{
    if (isnan(x) || isnan(y) || isinf(x) || y == 0.0)
        return RLX_NAN;
    if (isinf(y))
        return x;
    float ay = abs(y), ax = abs(x);
    float q = trunc(ax / ay);
    float r = fma(-q, ay, ax);
    if (r < 0.0)
        r += ay;
    if (r >= ay)
        r -= ay;
    return x < 0.0 ? -r : r;
}

// An index of 1 (i32) or 2 (i64) words into an axis of DIM elements,
// negative counting from the end: its position, or -1 outside
// [-dim, dim).
int rlx_index(uint lo, uint hi, uint words, uint dim)
{
    int v = int(lo);
    if (words == 2u && !(hi == 0u && v >= 0) && !(hi == 0xffffffffu && v < 0))
        return -1;
    if (v < 0)
        v += int(dim);
    return v >= 0 && uint(v) < dim ? v : -1;
}

// a / b rounded to nearest: the quotient corrected by its remainder
float rlx_div_rn(float a, float b)
{
    precise float q = a / b;
    if (isnan(q) || isinf(q) || q == 0.0)
        return q;
    precise float r = fma(-q, b, a);
    precise float q1 = fma(r, 1.0 / b, q);
    // keep the corrected quotient only if its remainder is smaller
    precise float r1 = fma(-q1, b, a);
    return abs(r1) < abs(r) ? q1 : q;
}
