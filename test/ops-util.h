/*
 * ops-util.h - what the test-ops-*.c programs share (ops-util.c): a graph
 * of one op built, compiled and run on cpu-ref through the public API
 * (run_any, run_op), the value checks, deterministic inputs, and the
 * test's own index and 16-bit float arithmetic.
 *
 * Nothing here knows an op's semantics: each test file computes its
 * expected values itself, in double precision, so a kernel bug cannot
 * hide behind a shared helper.
 */
#ifndef RLX_TEST_OPS_UTIL_H
#define RLX_TEST_OPS_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/rlx.h>

#include "harness.h"

#define MAX_RANK 6
#define REL_TOL 1e-5
#define MAX_SOURCES 8

#define N_OF(a) (sizeof(a) / sizeof *(a))
#define DIMS(...) (int64_t[]){ __VA_ARGS__ }

/* A tensor given to or returned by run_op. */
typedef struct tensor {
    uint32_t rank;
    int64_t dims[MAX_RANK];
    const float *data;
} tensor;

/* A source of run_any's node. KIND says how it enters the graph: 'i'
 * input, 'p' param, 'c' constant. */
typedef struct source {
    char kind;
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[MAX_RANK];
    const void *data;
} source;

typedef struct result {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[MAX_RANK];
    void *data; /* malloc'd */
    size_t nbytes;
} result;

/* Elements in a tensor of shape (RANK, DIMS). */
size_t count_of(uint32_t rank, const int64_t *dims);

/* Something valid to point at for an empty tensor. */
extern const float empty_data[1];

/* Small f32 tensors more than one file uses: a [2,3] matrix, a [3] vector. */
extern const float m23[6];
extern const float v3[3];

/* What the last failed run_any_try failed at, and why. */
extern char run_error[1024];

/*
 * Build a graph with one node OP over N sources of any dtype, compile it
 * on cpu-ref, run it and return a malloc'd copy of the output with its
 * dtype and shape. Everything is freed before any failure is reported,
 * so a failing case does not leak either. On failure run_error says why.
 */
rlx_status run_any_try(rlx_op op, uint32_t n, const source *in,
                       const rlx_attrs *attrs, result *out);

/* run_any_try, failing the test on an error. The result and its data
 * stay valid until the next call (freed then and at exit). */
const result *run_any(rlx_op op, uint32_t n, const source *in,
                      const rlx_attrs *attrs);

/* An f32 run: KINDS[i] is how tensor i enters the graph. */
const float *run_op_kinds(rlx_op op, const char *kinds, uint32_t n,
                          const tensor *in, const rlx_attrs *attrs,
                          tensor *out_shape);

/* An f32 run with every tensor an input. */
const float *run_op(rlx_op op, uint32_t n, const tensor *in,
                    const rlx_attrs *attrs, tensor *out_shape);

/* GOT is EXPECT rounded to float, within REL relative error. */
int close_enough(float got, double expect, double rel);

/* Compare N outputs with tolerance REL (plus ABS for sums that cancel). */
void check_values(const char *what, const float *got, const double *expect,
                  size_t n, double rel, double abs_tol);

/* An f32 tensor; NULL data points at empty_data. */
tensor make(uint32_t rank, const int64_t *dims, const float *data);

/* Deterministic values in [-scale, scale], not all integers; malloc'd. */
float *pattern(size_t n, float scale, unsigned seed);

/* A source of any dtype; NULL data points at empty_data. */
source src(char kind, rlx_dtype dtype, uint32_t rank, const int64_t *dims,
           const void *data);

/* An f32 input. */
source f32in(uint32_t rank, const int64_t *dims, const float *data);

/* Row-major index of flat position E in (R, DIMS), and back. */
void unravel(size_t e, uint32_t r, const int64_t *dims, int64_t *idx);
size_t ravel(uint32_t r, const int64_t *dims, const int64_t *idx);

/*
 * The 16-bit floats, written independently of the backend: X rounded to
 * f16 or bf16 (ties to even), and a pattern's value. ref_half and
 * ref_half_value take the dtype (RLX_DTYPE_F16 or RLX_DTYPE_BF16).
 */
uint16_t ref_f16(double x);
uint16_t ref_bf16(double x);
double ref_f16_value(uint16_t h);
double ref_bf16_value(uint16_t h);
uint16_t ref_half(rlx_dtype t, double x);
double ref_half_value(rlx_dtype t, uint16_t h);

/* Cast N values of dtype FROM at X to TO; returns the result bytes. */
const void *cast_run(rlx_dtype from, rlx_dtype to, size_t n, const void *x);

/* A tensor's shape is rank R with the dims given. */
#define ASSERT_SHAPE(t, r, ...)                                             \
    do {                                                                    \
        const int64_t rlx__want[] = { __VA_ARGS__ };                        \
        ASSERT_EQ((t).rank, (r));                                           \
        for (uint32_t rlx__i = 0; rlx__i < (r); rlx__i++)                   \
            ASSERT_EQ((t).dims[rlx__i], rlx__want[rlx__i]);                 \
    } while (0)

/* The same for a result (a pointer). */
#define ASSERT_RSHAPE(r, n, ...)                                            \
    do {                                                                    \
        const int64_t rlx__want[] = { __VA_ARGS__ };                        \
        ASSERT_EQ((r)->rank, (n));                                          \
        for (uint32_t rlx__i = 0; rlx__i < (n); rlx__i++)                   \
            ASSERT_EQ((r)->dims[rlx__i], rlx__want[rlx__i]);                \
    } while (0)

#endif /* RLX_TEST_OPS_UTIL_H */
