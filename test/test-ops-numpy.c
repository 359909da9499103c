/*
 * test-ops-numpy.c - the 1.4 data movement and indexing ops on cpu-ref
 * against NumPy: gen-index-numpy.py draws a few hundred random cases at
 * build time (every pad mode, strided slices, cumsum, gathers, scatters
 * with duplicate targets, topk with ties, expand, tile, trilu, one_hot,
 * non_zero) and computes each result with NumPy's own functions; this
 * program runs each case through the public API and wants the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

typedef struct np_tensor {
    int dtype; /* rlx_dtype: f32 or i64 */
    uint32_t rank;
    int64_t dims[8];
    const void *data;
} np_tensor;

typedef struct np_case {
    const char *name;
    int op;
    uint32_t n_in;
    np_tensor in[3];
    uint32_t n_ints;
    int64_t ints[16];
    uint32_t n_floats;
    double floats[2];
    np_tensor want;
} np_case;

#include "index_numpy_cases.h"

TEST(every_case_matches_numpy)
{
    size_t n = sizeof np_cases / sizeof *np_cases, per_op[256] = { 0 };
    ASSERT(n >= 200);
    for (size_t i = 0; i < n; i++) {
        const np_case *c = &np_cases[i];
        source in[3];
        for (uint32_t k = 0; k < c->n_in; k++)
            in[k] = src('i', (rlx_dtype)c->in[k].dtype, c->in[k].rank,
                        c->in[k].dims, c->in[k].data);
        rlx_attrs a = { c->n_ints, c->ints, c->n_floats, c->floats };
        result r;
        rlx_status st = run_any_try((rlx_op)c->op, c->n_in, in, &a, &r);
        if (st != RLX_OK)
            FAIL("case %s: %s", c->name, run_error);
        int same = r.dtype == (rlx_dtype)c->want.dtype &&
                   r.rank == c->want.rank;
        for (uint32_t d = 0; same && d < r.rank; d++)
            same = r.dims[d] == c->want.dims[d];
        size_t bytes = count_of(c->want.rank, c->want.dims) *
                       rlx_dtype_size((rlx_dtype)c->want.dtype);
        same = same && r.nbytes == bytes &&
               (bytes == 0 || memcmp(r.data, c->want.data, bytes) == 0);
        free(r.data);
        if (!same)
            FAIL("case %s differs from NumPy (shape or values)", c->name);
        per_op[c->op & 255]++;
    }
    /* every op got cases */
    static const rlx_op ops[] = { RLX_OP_PAD, RLX_OP_EXPAND, RLX_OP_TILE,
                                  RLX_OP_STRIDED_SLICE, RLX_OP_CUMSUM,
                                  RLX_OP_GATHER_ELEMENTS, RLX_OP_GATHER_ND,
                                  RLX_OP_SCATTER_ELEMENTS, RLX_OP_SCATTER_ND,
                                  RLX_OP_TOPK, RLX_OP_ONE_HOT, RLX_OP_TRILU,
                                  RLX_OP_NON_ZERO };
    for (size_t k = 0; k < N_OF(ops); k++)
        ASSERT(per_op[ops[k]] >= 10);
}

RLX_TEST_LIST(TEST_ENTRY(every_case_matches_numpy))
