/*
 * gk_ew_more.cu - the ABI 1.4 elementwise ops on every dtype they take
 * (comparisons, logical and bitwise ops, where, clip, rounding, sign,
 * the activations, prelu, mod, isnan, isinf) and the 1.0 arithmetic ops
 * on integers; the 1.4 reductions; argmax and argmin.
 *
 * One kernel reads each element by its runtime dtype: floats compute in
 * f64 from the stored value and round once, integers in int64 with
 * two's-complement wrapping (done in uint64), u64 read unsigned where
 * it orders or divides, as cpu-ref does (kernels_ew_float.c,
 * kernels_ew_int.c, kernels_ew_u64.c), so the results agree. f64 runs
 * every elementwise op and reduction here, the 1.0 ones included, in
 * double math (exp, erf, tanh of double).
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_common.cuh"
#include "gk_value.cuh"
#include "gpu_kernels_more.h"

namespace {

__device__ __forceinline__ long long wmul(long long x, long long y)
{
    return (long long)((unsigned long long)x * (unsigned long long)y);
}
__device__ __forceinline__ long long wneg(long long x)
{
    return (long long)(0ull - (unsigned long long)x);
}

__device__ long long int_op(const rlxg_ew_plan &p, long long x, long long y)
{
    switch (p.op) {
    case RLX_OP_ADD:
        return (long long)((unsigned long long)x + (unsigned long long)y);
    case RLX_OP_SUB:
        return (long long)((unsigned long long)x - (unsigned long long)y);
    case RLX_OP_MUL: return wmul(x, y);
    case RLX_OP_DIV: return y == 0 ? 0 : y == -1 ? wneg(x) : x / y;
    case RLX_OP_MAX: return x > y ? x : y;
    case RLX_OP_MIN: return x < y ? x : y;
    case RLX_OP_POW: {
        if (y < 0)
            return x == 1 ? 1 : x == -1 ? ((y & 1) ? -1 : 1) : 0;
        long long r = 1;
        while (y) {
            if (y & 1)
                r = wmul(r, x);
            x = wmul(x, x);
            y >>= 1;
        }
        return r;
    }
    case RLX_OP_NEG: return wneg(x);
    case RLX_OP_ABS: return x < 0 ? wneg(x) : x;
    case RLX_OP_RELU: return x > 0 ? x : 0;
    case RLX_OP_SIGN: return (x > 0) - (x < 0);
    case RLX_OP_CLIP: /* in turn, as cpu-ref: min above max gives max */
        x = x < p.i0 ? p.i0 : x;
        return x > p.i1 ? p.i1 : x;
    case RLX_OP_PRELU: return x < 0 ? wmul(x, y) : x;
    case RLX_OP_MOD: {
        if (y == 0 || y == -1)
            return 0;
        long long r = x % y;
        if (p.i0 == 0 && r != 0 && ((r < 0) != (y < 0)))
            r += y;
        return r;
    }
    case RLX_OP_LOGICAL_AND: return x && y;
    case RLX_OP_LOGICAL_OR: return x || y;
    case RLX_OP_LOGICAL_XOR: return !x != !y;
    case RLX_OP_LOGICAL_NOT: return !x;
    case RLX_OP_BITWISE_AND:
        return (long long)((unsigned long long)x & (unsigned long long)y);
    case RLX_OP_BITWISE_OR:
        return (long long)((unsigned long long)x | (unsigned long long)y);
    case RLX_OP_BITWISE_XOR:
        return (long long)((unsigned long long)x ^ (unsigned long long)y);
    case RLX_OP_BITWISE_NOT: return (long long)~(unsigned long long)x;
    case RLX_OP_BIT_SHIFT: { /* the bits shifted out: lost at the store */
        unsigned long long n = (unsigned long long)y;
        if (n >= 64)
            return 0;
        return (long long)(p.i0 ? (unsigned long long)x >> n
                                : (unsigned long long)x << n);
    }
    default: return 0;
    }
}

/* Whether u64 operands of OP must be read unsigned (the ops that order
 * or divide); the wrapping ones are the same on the bits. */
__device__ __forceinline__ bool u64_orders(int op)
{
    switch (op) {
    case RLX_OP_MAX: case RLX_OP_MIN: case RLX_OP_DIV: case RLX_OP_MOD:
    case RLX_OP_CLIP: case RLX_OP_RELU: case RLX_OP_SIGN: case RLX_OP_ABS:
    case RLX_OP_PRELU: case RLX_OP_POW:
        return true;
    default:
        return false;
    }
}

__device__ unsigned long long u64_op(const rlxg_ew_plan &p,
                                     unsigned long long x,
                                     unsigned long long y)
{
    switch (p.op) {
    case RLX_OP_MAX: return x > y ? x : y;
    case RLX_OP_MIN: return x < y ? x : y;
    case RLX_OP_DIV: return y ? x / y : 0;
    case RLX_OP_MOD: return y ? x % y : 0; /* signs agree: fmod too */
    case RLX_OP_CLIP: { /* bounds as bit patterns (plan_ew) */
        unsigned long long lo = (unsigned long long)p.i0;
        unsigned long long hi = (unsigned long long)p.i1;
        x = x < lo ? lo : x;
        return x > hi ? hi : x;
    }
    case RLX_OP_SIGN: return x != 0;
    case RLX_OP_POW: {
        unsigned long long r = 1;
        while (y) {
            if (y & 1)
                r *= x;
            x *= x;
            y >>= 1;
        }
        return r;
    }
    default: return x; /* relu, abs, prelu: never negative */
    }
}

__device__ __forceinline__ double softplus(double x)
{
    return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

__device__ __forceinline__ double hard_sigmoid(double x, double a, double b)
{
    double v = a * x + b;
    return v < 0 ? 0.0 : v > 1 ? 1.0 : v; /* NaN passes */
}

__device__ __forceinline__ double sigmoid(double x)
{
    if (x >= 0)
        return 1.0 / (1.0 + exp(-x));
    double e = exp(x);
    return e / (1.0 + e);
}

/* The 1.0 unary ops in double (f64 comes here; f32, f16 and bf16 run
 * gk_elementwise.cu's kernels). */
__device__ double unary_d(int op, long long approx, double x)
{
    switch (op) {
    case RLX_OP_RELU: return x > 0 || isnan(x) ? x : 0.0;
    case RLX_OP_GELU:
        if (isinf(x))
            return x > 0 ? x : 0.0;
        if (approx == RLX_GELU_TANH) {
            const double c = 0.79788456080286535588;
            return 0.5 * x * (1.0 + tanh(c * (x + 0.044715 * x * x * x)));
        }
        return 0.5 * x * erfc(-x * 0.70710678118654752440);
    case RLX_OP_SIGMOID: return sigmoid(x);
    case RLX_OP_TANH: return tanh(x);
    case RLX_OP_EXP: return exp(x);
    case RLX_OP_SIN: return sin(x);
    case RLX_OP_COS: return cos(x);
    case RLX_OP_NEG: return -x;
    case RLX_OP_ABS: return fabs(x);
    case RLX_OP_LOG: return log(x);
    case RLX_OP_SQRT: return sqrt(x);
    case RLX_OP_RSQRT: return 1.0 / sqrt(x);
    case RLX_OP_SILU: return x * sigmoid(x);
    case RLX_OP_TAN: return tan(x);
    case RLX_OP_ATAN: return atan(x);
    default: return __longlong_as_double(0x7ff8000000000000LL);
    }
}

__device__ double float_op(const rlxg_ew_plan &p, double x, double y)
{
    const double a = p.f0, b = p.f1;
    switch (p.op) {
    case RLX_OP_ADD: return x + y;
    case RLX_OP_SUB: return x - y;
    case RLX_OP_MUL: return x * y;
    case RLX_OP_DIV: return x / y;
    case RLX_OP_POW: return pow(x, y);
    case RLX_OP_MAX: /* a NaN on either side wins */
        return isnan(x) || isnan(y) ? x + y : (x > y ? x : y);
    case RLX_OP_MIN: return isnan(x) || isnan(y) ? x + y : (x < y ? x : y);
    case RLX_OP_ASIN: return asin(x);
    case RLX_OP_ACOS: return acos(x);
    case RLX_OP_SINH: return sinh(x);
    case RLX_OP_COSH: return cosh(x);
    case RLX_OP_ASINH: return asinh(x);
    case RLX_OP_ACOSH: return acosh(x);
    case RLX_OP_ATANH: return atanh(x);
    case RLX_OP_FLOOR: return floor(x);
    case RLX_OP_CEIL: return ceil(x);
    case RLX_OP_ROUND: return rint(x); /* half to even */
    case RLX_OP_SIGN: return x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? 0.0 : x;
    case RLX_OP_RECIPROCAL: return 1.0 / x;
    case RLX_OP_ERF: return erf(x);
    case RLX_OP_CLIP:
        if (x < a)
            x = a;
        if (x > b)
            x = b;
        return x;
    case RLX_OP_LEAKY_RELU: return x < 0 ? a * x : x;
    case RLX_OP_ELU: return x < 0 ? a * expm1(x) : x;
    case RLX_OP_SELU: return x > 0 ? b * x : b * a * expm1(x);
    case RLX_OP_SOFTPLUS: return softplus(x);
    case RLX_OP_HARD_SIGMOID: return hard_sigmoid(x, a, b);
    case RLX_OP_HARD_SWISH: {
        double h = hard_sigmoid(x, 1.0 / 6.0, 0.5);
        return h == 0 ? 0.0 : x * h;
    }
    case RLX_OP_MISH:
        return isinf(x) && x < 0 ? 0.0 : x * tanh(softplus(x));
    case RLX_OP_PRELU: return x < 0 ? y * x : x;
    case RLX_OP_MOD: return fmod(x, y);
    default: return unary_d(p.op, p.i0, x);
    }
}

__device__ __forceinline__ bool holds(int op, int ord)
{
    if (ord == 2)
        return false; /* unordered: a NaN */
    switch (op) {
    case RLX_OP_EQUAL: return ord == 0;
    case RLX_OP_LESS: return ord < 0;
    case RLX_OP_LESS_EQUAL: return ord <= 0;
    case RLX_OP_GREATER: return ord > 0;
    default: return ord >= 0;
    }
}

__global__ void ew_kernel(const void *a, const void *b, const void *c,
                          void *y, rlxg_ew_plan p)
{
    const bool ints = is_int_dtype(p.in_dtype);
    GRID_LOOP(k, p.count)
    {
        int64_t at[3] = { 0, 0, 0 }, rest = k;
        for (int d = (int)p.rank - 1; d >= 0; d--) {
            int64_t q = rest / p.dims[d], r = rest - q * p.dims[d];
            at[0] += r * p.stride[0][d];
            at[1] += r * p.stride[1][d];
            at[2] += r * p.stride[2][d];
            rest = q;
        }
        switch (p.op) {
        case RLX_OP_WHERE: {
            bool t = ((const uint8_t *)a)[at[0]] != 0;
            const void *from = t ? b : c;
            int64_t j = t ? at[1] : at[2];
            switch (elem_bytes(p.out_dtype)) { /* the bytes, any dtype */
            case 4:
                ((uint32_t *)y)[k] = ((const uint32_t *)from)[j];
                break;
            case 2:
                ((uint16_t *)y)[k] = ((const uint16_t *)from)[j];
                break;
            case 8:
                ((unsigned long long *)y)[k] =
                    ((const unsigned long long *)from)[j];
                break;
            default:
                ((uint8_t *)y)[k] = ((const uint8_t *)from)[j];
                break;
            }
            continue;
        }
        case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
        case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL: {
            int ord;
            if (ints) {
                ord = int_order(p.in_dtype, load_i(p.in_dtype, a, at[0]),
                                load_i(p.in_dtype, b, at[1]));
            } else {
                double x = load_f(p.in_dtype, a, at[0]);
                double w = load_f(p.in_dtype, b, at[1]);
                ord = isnan(x) || isnan(w) ? 2 : (x > w) - (x < w);
            }
            ((uint8_t *)y)[k] = holds(p.op, ord);
            continue;
        }
        case RLX_OP_ISNAN:
            ((uint8_t *)y)[k] = isnan(load_f(p.in_dtype, a, at[0]));
            continue;
        case RLX_OP_ISINF: {
            double v = load_f(p.in_dtype, a, at[0]);
            ((uint8_t *)y)[k] = isinf(v) && (v > 0 ? p.i0 : p.i1);
            continue;
        }
        default:
            break;
        }
        if (ints && is_u64(p.in_dtype) && u64_orders(p.op))
            store_i(p.out_dtype, y, k,
                    (long long)u64_op(
                        p, (unsigned long long)load_i(p.in_dtype, a, at[0]),
                        p.n_in > 1 ? (unsigned long long)load_i(p.in_dtype,
                                                                b, at[1])
                                   : 0ull));
        else if (ints)
            store_i(p.out_dtype, y, k,
                    int_op(p, load_i(p.in_dtype, a, at[0]),
                           p.n_in > 1 ? load_i(p.in_dtype, b, at[1]) : 0));
        else
            store_f(p.out_dtype, y, k,
                    float_op(p, load_f(p.in_dtype, a, at[0]),
                             p.n_in > 1 ? load_f(p.in_dtype, b, at[1])
                                        : 0.0));
    }
}

/* ---- reductions ---------------------------------------------------------- */

__device__ __forceinline__ int64_t plan_off(int rank, const int64_t *dims,
                                            const int64_t *stride, int64_t i)
{
    int64_t off = 0;
    for (int d = rank - 1; d >= 0; d--) {
        int64_t q = i / dims[d];
        off += (i - q * dims[d]) * stride[d];
        i = q;
    }
    return off;
}

/* One thread per output element; floats in f64 (log_sum_exp two-pass
 * about the maximum), integers in wrapping int64. */
__global__ void reduce_more_kernel(int dtype, int op, const void *x, void *y,
                                   rlxg_reduce_plan p)
{
    const bool ints = is_int_dtype(dtype);
    GRID_LOOP(o, p.n_out)
    {
        int64_t base = plan_off((int)p.out_rank, p.out_dims, p.out_stride, o);
        if (ints) {
            long long acc = 0;
            switch (op) {
            case RLX_OP_REDUCE_MIN: acc = int_greatest(dtype); break;
            case RLX_OP_REDUCE_MAX: acc = int_least(dtype); break;
            case RLX_OP_REDUCE_PROD: acc = 1; break;
            default: break;
            }
            double dacc = 0.0; /* mean and L2 go through double */
            for (int64_t r = 0; r < p.n_red; r++) {
                long long v = load_i(dtype, x, base + plan_off((int)p.red_rank,
                                                               p.red_dims,
                                                               p.red_stride, r));
                switch (op) {
                case RLX_OP_REDUCE_MIN:
                    acc = int_order(dtype, v, acc) < 0 ? v : acc;
                    break;
                case RLX_OP_REDUCE_MAX:
                    acc = int_order(dtype, v, acc) > 0 ? v : acc;
                    break;
                case RLX_OP_REDUCE_PROD: acc = wmul(acc, v); break;
                case RLX_OP_REDUCE_L1:
                    v = v < 0 && !is_u64(dtype) ? wneg(v) : v;
                    acc = (long long)((unsigned long long)acc +
                                      (unsigned long long)v);
                    break;
                case RLX_OP_REDUCE_SUM_SQUARE:
                    acc = (long long)((unsigned long long)acc +
                                      (unsigned long long)wmul(v, v));
                    break;
                case RLX_OP_REDUCE_L2: {
                    double d = int_to_f(dtype, v);
                    dacc += d * d;
                    break;
                }
                case RLX_OP_REDUCE_MEAN: dacc += int_to_f(dtype, v); break;
                default: /* sum, mean */
                    acc = (long long)((unsigned long long)acc +
                                      (unsigned long long)v);
                    break;
                }
            }
            if (op == RLX_OP_REDUCE_MEAN || op == RLX_OP_REDUCE_L2) {
                double d = op == RLX_OP_REDUCE_L2 ? sqrt(dacc)
                           : p.n_red ? dacc / (double)p.n_red : 0.0;
                if (is_u64(dtype)) /* the unsigned value's bits */
                    acc = d >= 18446744073709551615.0
                              ? -1
                              : (long long)(unsigned long long)d;
                else
                    acc = d >= 9223372036854775807.0 ? INT64_MAX
                                                     : (long long)d;
            }
            store_i(dtype, y, o, acc);
            continue;
        }
        double acc = op == RLX_OP_REDUCE_MIN ? INFINITY
                     : op == RLX_OP_REDUCE_PROD ? 1.0
                     : op == RLX_OP_REDUCE_LOG_SUM_EXP ||
                             op == RLX_OP_REDUCE_MAX
                         ? -INFINITY
                         : 0.0;
        for (int64_t r = 0; r < p.n_red; r++) {
            double v = load_f(dtype, x, base + plan_off((int)p.red_rank,
                                                        p.red_dims,
                                                        p.red_stride, r));
            switch (op) {
            case RLX_OP_REDUCE_MIN:
                acc = (v < acc || isnan(v)) && !isnan(acc) ? v : acc;
                break;
            case RLX_OP_REDUCE_PROD: acc *= v; break;
            case RLX_OP_REDUCE_L1: acc += fabs(v); break;
            case RLX_OP_REDUCE_L2: case RLX_OP_REDUCE_SUM_SQUARE:
                acc += v * v;
                break;
            case RLX_OP_REDUCE_MAX:
            case RLX_OP_REDUCE_LOG_SUM_EXP: /* the maximum first */
                acc = (v > acc || isnan(v)) && !isnan(acc) ? v : acc;
                break;
            default: acc += v; break; /* sum, mean (f64) */
            }
        }
        if (op == RLX_OP_REDUCE_L2) {
            acc = sqrt(acc);
        } else if (op == RLX_OP_REDUCE_MEAN) {
            acc /= (double)p.n_red; /* an empty axis: 0 / 0, NaN */
        } else if (op == RLX_OP_REDUCE_LOG_SUM_EXP && !isinf(acc) &&
                   !isnan(acc)) {
            double m = acc, s = 0.0;
            for (int64_t r = 0; r < p.n_red; r++)
                s += exp(load_f(dtype, x, base + plan_off((int)p.red_rank,
                                                          p.red_dims,
                                                          p.red_stride, r)) -
                         m);
            acc = m + log(s);
        }
        store_f(dtype, y, o, acc);
    }
}

/* ---- argmax, argmin ------------------------------------------------------ */

__global__ void arg_kernel(int dtype, int is_max, int last, const void *x,
                           int64_t *y, int64_t outer, int64_t len,
                           int64_t inner)
{
    const bool ints = is_int_dtype(dtype);
    GRID_LOOP(i, outer * inner)
    {
        int64_t o = i / inner, in = i - o * inner;
        int64_t base = o * len * inner + in, best_at = 0;
        if (ints) {
            long long best = load_i(dtype, x, base);
            for (int64_t j = 1; j < len; j++) {
                long long v = load_i(dtype, x, base + j * inner);
                int ord = int_order(dtype, v, best);
                bool take = is_max ? (ord > 0 || (last && ord == 0))
                                   : (ord < 0 || (last && ord == 0));
                if (take) {
                    best = v;
                    best_at = j;
                }
            }
        } else {
            double best = load_f(dtype, x, base);
            for (int64_t j = 1; j < len; j++) {
                double v = load_f(dtype, x, base + j * inner);
                bool take;
                if (isnan(best))
                    take = last && isnan(v);
                else if (isnan(v))
                    take = true;
                else
                    take = is_max ? (v > best || (last && v == best))
                                  : (v < best || (last && v == best));
                if (take) {
                    best = v;
                    best_at = j;
                }
            }
        }
        y[i] = best_at;
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_ew(gpuStream_t s, const void *a, const void *b,
                              const void *c, void *y, const rlxg_ew_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    ew_kernel<<<grid_for(p->count), kThreads, 0, s>>>(a, b, c, y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_reduce_more(gpuStream_t s, int dtype, int op,
                                       const void *x, void *y,
                                       const rlxg_reduce_plan *plan)
{
    if (plan->n_out == 0)
        return gpuSuccess;
    reduce_more_kernel<<<grid_for(plan->n_out), kThreads, 0, s>>>(
        dtype, op, x, y, *plan);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_arg(gpuStream_t s, int dtype, int is_max,
                               int last, const void *x, int64_t *y,
                               int64_t outer, int64_t len, int64_t inner)
{
    if (outer * inner == 0)
        return gpuSuccess;
    arg_kernel<<<grid_for(outer * inner), kThreads, 0, s>>>(
        dtype, is_max, last, x, y, outer, len, inner);
    return gpuGetLastError();
}
