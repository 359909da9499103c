/*
 * gk_index.cu - the ABI 1.4 indexing and movement ops that a strided
 * copy cannot express: pad (and tile, a wrap-around pad), trilu,
 * gather_elements, gather_nd, one_hot, scatter_elements, scatter_nd,
 * cumsum, topk, range and non_zero. Each walks the result and works out which
 * input element lands there, as cpu-ref does (kernels_layout.c,
 * kernels_index.c, kernels_scan.c); the scatters run their updates in
 * order, so duplicates resolve as cpu-ref's do.
 * Kernels and their launchers together; written against gpu_vendor.h,
 * so nvcc (CUDA) and hipcc (ROCm) compile this same file.
 */
#include "gk_value.cuh"
#include "gpu_kernels_more.h"

namespace {

__device__ __forceinline__ int64_t pos_mod(int64_t p, int64_t m)
{
    int64_t r = p % m;
    return r < 0 ? r + m : r;
}

/* The input coordinate pad reads for result coordinate C on an axis of
 * DIM with pads B and E (negative: crop); -1 for the constant. */
__device__ int64_t pad_source(int mode, int64_t c, int64_t dim, int64_t b,
                              int64_t e)
{
    int64_t lo = b < 0 ? -b : 0;
    int64_t mid = dim - lo - (e < 0 ? -e : 0);
    int64_t q = c - (b > 0 ? b : 0);
    if (q >= 0 && q < mid)
        return lo + q;
    switch (mode) {
    case RLX_PAD_EDGE: return lo + (q < 0 ? 0 : mid - 1);
    case RLX_PAD_WRAP: return lo + pos_mod(q, mid);
    case RLX_PAD_REFLECT: {
        if (mid == 1)
            return lo;
        int64_t m = pos_mod(q, 2 * (mid - 1));
        return lo + (m < mid ? m : 2 * (mid - 1) - m);
    }
    default: return -1;
    }
}

__device__ __forceinline__ void copy_elem(void *y, int64_t k, const void *x,
                                          int64_t j, int elem)
{
    switch (elem) {
    case 8: ((uint64_t *)y)[k] = ((const uint64_t *)x)[j]; break;
    case 4: ((uint32_t *)y)[k] = ((const uint32_t *)x)[j]; break;
    case 2: ((uint16_t *)y)[k] = ((const uint16_t *)x)[j]; break;
    default: ((uint8_t *)y)[k] = ((const uint8_t *)x)[j]; break;
    }
}

__global__ void layout_kernel(const void *x, void *y, rlxg_index_plan p)
{
    GRID_LOOP(k, p.count)
    {
        if (p.op == RLX_OP_TRILU) {
            int64_t cols = p.dims[p.rank - 1], rows = p.dims[p.rank - 2];
            int64_t j = k % cols, i = (k / cols) % rows;
            /* j - i against k: i + k may overflow (k is any int64) */
            bool keep = p.n0 ? j - i >= p.n1 : j - i <= p.n1;
            if (keep)
                copy_elem(y, k, x, k, p.elem);
            else
                copy_elem(y, k, &p.value, 0, p.elem); /* value is 0 */
            continue;
        }
        int64_t rest = k, src = 0, mul = 1;
        bool inside = true;
        for (int d = (int)p.rank - 1; d >= 0; d--) {
            int64_t q = rest / p.dims[d], c = rest - q * p.dims[d];
            rest = q;
            int64_t at = pad_source(p.mode, c, p.in_dims[d], p.a[d], p.b[d]);
            inside = inside && at >= 0;
            src += at * mul;
            mul *= p.in_dims[d];
        }
        if (inside)
            copy_elem(y, k, x, src, p.elem);
        else
            copy_elem(y, k, &p.value, 0, p.elem);
    }
}

__device__ __forceinline__ long long load_index(const void *idx, int idx64,
                                                int64_t k)
{
    return idx64 ? ((const long long *)idx)[k]
                 : (long long)((const int32_t *)idx)[k];
}

/* gather_elements, gather_nd, one_hot */
__global__ void gather_more_kernel(const void *x, const void *idx, int idx64,
                                   void *y, rlxg_index_plan p, int *err)
{
    GRID_LOOP(k, p.count)
    {
        if (p.op == RLX_OP_GATHER_ELEMENTS) {
            int64_t rest = k, src = 0, mul = 1;
            bool ok = true;
            for (int d = (int)p.rank - 1; d >= 0; d--) {
                int64_t q = rest / p.dims[d], c = rest - q * p.dims[d];
                rest = q;
                if (d == p.axis) {
                    long long v = load_index(idx, idx64, k);
                    int64_t dim = p.in_dims[d];
                    if (v < 0)
                        v += dim;
                    ok = v >= 0 && v < dim;
                    c = ok ? v : 0;
                }
                src += c * mul;
                mul *= p.in_dims[d];
            }
            if (!ok) {
                *err = 1;
                src = 0;
                if (p.in_dims[p.axis] == 0) {
                    copy_elem(y, k, &p.value, 0, p.elem);
                    continue;
                }
            }
            copy_elem(y, k, x, src, p.elem);
        } else if (p.op == RLX_OP_GATHER_ND) {
            /* data [B, D_b .. D_(b+last-1), S]; indices [B', last] */
            int64_t s = p.n2, j = k / s, inner = k - j * s;
            int64_t per_batch = 1;
            for (uint32_t d = (uint32_t)p.n0; d + 1 < p.idx_rank; d++)
                per_batch *= p.idx_dims[d];
            int64_t off = per_batch ? j / per_batch : 0;
            bool ok = true;
            for (int64_t t = 0; t < p.n1; t++) {
                long long v = load_index(idx, idx64, j * p.n1 + t);
                int64_t dim = p.in_dims[p.n0 + t];
                if (v < 0)
                    v += dim;
                if (v < 0 || v >= dim) {
                    ok = false;
                    v = 0;
                }
                off = off * dim + v;
            }
            if (!ok) {
                *err = 1;
                off = 0;
            }
            copy_elem(y, k, x, off * s + inner, p.elem);
        } else { /* one_hot: x is (off, on) */
            int64_t rest = k, pos = 0, mul = 1, at = 0;
            for (int d = (int)p.rank - 1; d >= 0; d--) {
                int64_t q = rest / p.dims[d], c = rest - q * p.dims[d];
                rest = q;
                if (d == p.axis) {
                    at = c;
                } else {
                    pos += c * mul;
                    mul *= p.dims[d];
                }
            }
            long long v = load_index(idx, idx64, pos);
            if (v < 0)
                v += p.n0;
            copy_elem(y, k, x, v == at ? 1 : 0, p.elem);
        }
    }
}

/* one update U into y[K] by reduction RED, in the data's dtype */
__device__ void scatter_one(int dtype, int red, void *y, int64_t k,
                            const void *upd, int64_t u, int elem)
{
    if (red == RLX_REDUCTION_NONE) {
        copy_elem(y, k, upd, u, elem);
        return;
    }
    if (is_int_dtype(dtype)) {
        long long a = load_i(dtype, y, k), b = load_i(dtype, upd, u), r;
        switch (red) {
        case RLX_REDUCTION_ADD:
            r = (long long)((unsigned long long)a + (unsigned long long)b);
            break;
        case RLX_REDUCTION_MUL:
            r = (long long)((unsigned long long)a * (unsigned long long)b);
            break;
        case RLX_REDUCTION_MAX: r = int_order(dtype, b, a) > 0 ? b : a; break;
        default: r = int_order(dtype, b, a) < 0 ? b : a; break;
        }
        store_i(dtype, y, k, r);
        return;
    }
    double a = load_f(dtype, y, k), b = load_f(dtype, upd, u), r;
    switch (red) {
    case RLX_REDUCTION_ADD: r = a + b; break;
    case RLX_REDUCTION_MUL: r = a * b; break;
    case RLX_REDUCTION_MAX: r = isnan(a) || isnan(b) ? a + b : a > b ? a : b; break;
    default: r = isnan(a) || isnan(b) ? a + b : a < b ? a : b; break;
    }
    store_f1(dtype, y, k, r);
}

/* One block: scatter_elements's updates one by one (thread 0);
 * scatter_nd's index tuples one by one, each slice's elements spread
 * over the block (they land on distinct elements). */
__global__ void scatter_kernel(int dtype, const void *idx, int idx64,
                               const void *upd, void *y, rlxg_index_plan p,
                               int *err)
{
    int red = (int)p.n0;
    if (p.op == RLX_OP_SCATTER_ELEMENTS) {
        if (threadIdx.x != 0)
            return;
        for (int64_t u = 0; u < p.count; u++) {
            int64_t rest = u, dst = 0, mul = 1;
            bool ok = true;
            for (int d = (int)p.idx_rank - 1; d >= 0; d--) {
                int64_t q = rest / p.idx_dims[d], c = rest - q * p.idx_dims[d];
                rest = q;
                if (d == p.axis) {
                    long long v = load_index(idx, idx64, u);
                    if (v < 0)
                        v += p.in_dims[d];
                    ok = v >= 0 && v < p.in_dims[d];
                    c = v;
                }
                dst += c * mul;
                mul *= p.in_dims[d];
            }
            if (!ok) {
                *err = 1;
                continue;
            }
            scatter_one(dtype, red, y, dst, upd, u, p.elem);
        }
        return;
    }
    int64_t s = p.n2, last = p.n1; /* p.count: index tuples */
    for (int64_t j = 0; j < p.count; j++) {
        int64_t off = 0;
        bool ok = true;
        for (int64_t t = 0; t < last; t++) {
            long long v = load_index(idx, idx64, j * last + t);
            int64_t dim = p.in_dims[t];
            if (v < 0)
                v += dim;
            if (v < 0 || v >= dim)
                ok = false;
            off = off * dim + v;
        }
        if (!ok) {
            if (threadIdx.x == 0)
                *err = 1;
            continue;
        }
        for (int64_t i = threadIdx.x; i < s; i += blockDim.x)
            scatter_one(dtype, red, y, off * s + i, upd, j * s + i, p.elem);
        __syncthreads();
    }
}

__global__ void cumsum_kernel(int dtype, const void *x, void *y,
                              rlxg_index_plan p)
{
    const bool fl = dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
                    dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
    int64_t len = p.a[1], inner = p.a[2];
    GRID_LOOP(i, p.a[0] * inner)
    {
        int64_t o = i / inner, in = i - o * inner;
        double accf = 0.0;
        long long acci = 0;
        for (int64_t t = 0; t < len; t++) {
            int64_t j = p.n1 ? len - 1 - t : t;
            int64_t at = (o * len + j) * inner + in;
            if (p.n0) {
                if (fl)
                    store_f1(dtype, y, at, accf);
                else
                    store_i(dtype, y, at, acci);
            }
            if (fl)
                accf += load_f(dtype, x, at);
            else
                acci = (long long)((unsigned long long)acci +
                                   (unsigned long long)load_i(dtype, x, at));
            if (!p.n0) {
                if (fl)
                    store_f1(dtype, y, at, accf);
                else
                    store_i(dtype, y, at, acci);
            }
        }
    }
}

/* Whether element t comes before element j in topk's order. */
__device__ __forceinline__ bool topk_before(int dtype, bool fl,
                                            const void *x, int64_t at_t,
                                            int64_t at_j, int64_t t,
                                            int64_t j, bool largest)
{
    int ord; /* t against j: -1 less, 0 tie, 1 greater (NaN greatest) */
    if (fl) {
        double a = load_f(dtype, x, at_t), b = load_f(dtype, x, at_j);
        bool na = isnan(a), nb = isnan(b);
        ord = na || nb ? (int)na - (int)nb : (a > b) - (a < b);
    } else {
        ord = int_order(dtype, load_i(dtype, x, at_t),
                        load_i(dtype, x, at_j));
    }
    if (ord == 0)
        return t < j;
    return largest ? ord > 0 : ord < 0;
}

/* Each element's rank in its line; the first k land in y. */
__global__ void topk_kernel(int dtype, const void *x, int64_t *y,
                            rlxg_index_plan p)
{
    const bool fl = dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
                    dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
    int64_t len = p.a[1], inner = p.a[2], k = p.n0;
    GRID_LOOP(i, p.a[0] * len * inner)
    {
        int64_t in = i % inner, t = i / inner, j = t % len, o = t / len;
        int64_t base = o * len * inner + in, rank = 0;
        for (int64_t u = 0; u < len && rank < k; u++)
            rank += u != j && topk_before(dtype, fl, x, base + u * inner,
                                          base + j * inner, u, j,
                                          p.n1 != 0);
        if (rank < k)
            y[(o * k + rank) * inner + in] = j;
    }
}

/* non_zero in one block, 256 elements at a time: each thread flags its
 * element, thread 0 numbers the flagged ones in order, then each writes
 * its coordinates into its column; columns past the last stay -1. */
__global__ void non_zero_kernel(int dtype, const void *x, int64_t *y,
                                rlxg_index_plan p, int *err)
{
    __shared__ int64_t col[256];
    const bool fl = dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
                    dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
    int64_t cols = p.n0;
    for (int64_t k = threadIdx.x; k < p.in_rank * cols; k += blockDim.x)
        y[k] = -1;
    int64_t base = 0;
    for (int64_t c0 = 0; c0 < p.count; c0 += blockDim.x) {
        int64_t i = c0 + threadIdx.x;
        bool nz = false;
        if (i < p.count)
            nz = fl ? load_f(dtype, x, i) != 0.0 /* NaN counts, -0 not */
                    : load_i(dtype, x, i) != 0;
        col[threadIdx.x] = nz;
        __syncthreads();
        if (threadIdx.x == 0) {
            int64_t at = base;
            for (unsigned t = 0; t < blockDim.x; t++) {
                int64_t f = col[t];
                col[t] = f ? at : -1;
                at += f;
            }
            base = at;
        }
        __syncthreads();
        int64_t c = col[threadIdx.x];
        if (c >= cols) {
            *err = 1;
        } else if (c >= 0) {
            int64_t rest = i;
            for (int d = (int)p.in_rank - 1; d >= 0; d--) {
                int64_t q = rest / p.in_dims[d];
                y[d * cols + c] = rest - q * p.in_dims[d];
                rest = q;
            }
        }
        __syncthreads();
        if (threadIdx.x == 0)
            col[0] = base; /* thread 0's count, for every thread */
        __syncthreads();
        base = col[0];
        __syncthreads();
    }
}

__global__ void range_kernel(int dtype, void *y, int64_t n, double fs,
                             double fd, long long is, long long id)
{
    const bool fl = dtype == RLX_DTYPE_F32 || dtype == RLX_DTYPE_F16 ||
                    dtype == RLX_DTYPE_BF16 || dtype == RLX_DTYPE_F64;
    GRID_LOOP(i, n)
    {
        if (fl)
            store_f1(dtype, y, i, fs + (double)i * fd);
        else
            store_i(dtype, y, i,
                    (long long)((unsigned long long)is +
                                (unsigned long long)i * (unsigned long long)id));
    }
}

} /* namespace */

extern "C" gpuError_t rlxg_layout(gpuStream_t s, const void *x, void *y,
                                  const rlxg_index_plan *p)
{
    if (p->count == 0)
        return gpuSuccess;
    layout_kernel<<<grid_for(p->count), kThreads, 0, s>>>(x, y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_gather_more(gpuStream_t s, const void *x,
                                       const void *idx, int idx64, void *y,
                                       const rlxg_index_plan *p, int *err)
{
    if (p->count == 0)
        return gpuSuccess;
    gather_more_kernel<<<grid_for(p->count), kThreads, 0, s>>>(
        x, idx, idx64, y, *p, err);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_scatter(gpuStream_t s, int dtype, const void *idx,
                                   int idx64, const void *upd, void *y,
                                   const rlxg_index_plan *p, int *err)
{
    if (p->count == 0)
        return gpuSuccess;
    scatter_kernel<<<1, 256, 0, s>>>(dtype, idx, idx64, upd, y, *p, err);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_cumsum(gpuStream_t s, int dtype, const void *x,
                                  void *y, const rlxg_index_plan *p)
{
    if (p->a[0] * p->a[1] * p->a[2] == 0)
        return gpuSuccess;
    cumsum_kernel<<<grid_for(p->a[0] * p->a[2]), kThreads, 0, s>>>(dtype, x,
                                                                   y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_topk(gpuStream_t s, int dtype, const void *x,
                                int64_t *y, const rlxg_index_plan *p)
{
    int64_t n = p->a[0] * p->a[1] * p->a[2];
    if (n == 0 || p->n0 == 0)
        return gpuSuccess;
    topk_kernel<<<grid_for(n), kThreads, 0, s>>>(dtype, x, y, *p);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_non_zero(gpuStream_t s, int dtype, const void *x,
                                    int64_t *y, const rlxg_index_plan *p,
                                    int *err)
{
    if (p->count == 0 && p->in_rank * p->n0 == 0)
        return gpuSuccess;
    non_zero_kernel<<<1, 256, 0, s>>>(dtype, x, y, *p, err);
    return gpuGetLastError();
}

extern "C" gpuError_t rlxg_range(gpuStream_t s, int dtype, void *y, int64_t n,
                                 double f_start, double f_delta,
                                 int64_t i_start, int64_t i_delta)
{
    if (n == 0)
        return gpuSuccess;
    range_kernel<<<grid_for(n), kThreads, 0, s>>>(dtype, y, n, f_start,
                                                  f_delta, (long long)i_start,
                                                  (long long)i_delta);
    return gpuGetLastError();
}
