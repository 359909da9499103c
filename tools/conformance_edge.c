/*
 * conformance_edge.c - the edge cases of docs/ops.md ("Edge cases"), each
 * a one-op graph (the ABI 1.4 elementwise ones in conformance_edge14.c)
 * with hand-picked inputs (NaN, -0, infinities, fully
 * masked rows, rank-1 and rank-8 shapes, empty tensors, wide pads,
 * negative steps and indices, ties, duplicates) and the values the
 * doc prescribes, so a backend that differs fails with the doc section to
 * read. The expected values are written here, not taken from cpu-ref:
 * cpu-ref must pass them too.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

#include "conformance_edge.h"

#define SEC_NAN "edge-nan-and-signed-zero"
#define SEC_SOFTMAX "edge-causal-softmax-fully-masked-rows"
#define SEC_GELU "edge-gelu-at-infinity"
#define SEC_MATMUL "edge-rank-1-matmul-transposes"
#define SEC_PERM "edge-negative-permutation-entries"
#define SEC_RANK "edge-maximum-rank"
#define SEC_EMPTY "edge-empty-tensors"
#define SEC_POOL "edge-pool-windows"
#define SEC_PADS "edge-huge-pads"
#define SEC_RESIZE "edge-resize-rounding-and-extrapolation"
#define SEC_CONST "edge-norm-of-a-constant"

enum { N_EDGES = 33 };
#define SEC_WPADS "edge-wide-pads-crops-and-extreme-attributes"
#define SEC_STEPS "edge-negative-slice-steps"
#define SEC_INDEX "edge-negative-and-out-of-range-indices"
#define SEC_ORDER "edge-topk-ties-and-nan"
#define SEC_DUP "edge-duplicate-scatter-targets"
#define SEC_NONZERO "edge-non-zero-output-size"


/* The 1.4 data movement and indexing edges (cases 22 and up). */
static int edge_make_index(int i, edge *e)
{
    static const double row[] = { 1, 2, 3, 4 };
    static const double seq6[] = { 0, 1, 2, 3, 4, 5 };
    int64_t d4[] = { 4 }, d6[] = { 6 }, d22[] = { 2, 2 }, d3[] = { 3 };
    int rc = 0;

    switch (i) {
    case 22:
        begin(e, "pad [1, 2, 3, 4] reflect 5 before (wider than the axis)",
              SEC_WPADS, RLX_OP_PAD);
        rc = input(e, 1, d4, row);
        ints(e, 3, (int64_t[]){ RLX_PAD_REFLECT, 5, 0 });
        result(e, 1, (int64_t[]){ 9 },
               (double[]){ 2, 3, 4, 3, 2, 1, 2, 3, 4 }, 9);
        break;
    case 23:
        begin(e, "pad [1, 2, 3, 4] edge -1 before, 2 after (crop first)",
              SEC_WPADS, RLX_OP_PAD);
        rc = input(e, 1, d4, row);
        ints(e, 3, (int64_t[]){ RLX_PAD_EDGE, -1, 2 });
        result(e, 1, (int64_t[]){ 5 }, (double[]){ 2, 3, 4, 4, 4 }, 5);
        break;
    case 24:
        begin(e, "pad [1, 2] constant -0.0", SEC_WPADS, RLX_OP_PAD);
        rc = input(e, 1, (int64_t[]){ 2 }, row);
        ints(e, 3, (int64_t[]){ RLX_PAD_CONSTANT, 1, 1 });
        e->c.n_floats = 1;
        e->c.floats[0] = -0.0;
        result(e, 1, d4, (double[]){ -0.0, 1, 2, -0.0 }, 4);
        e->check_sign = 1;
        break;
    case 25:
        begin(e, "trilu [2, 2] upper with k = INT64_MIN keeps everything",
              SEC_WPADS, RLX_OP_TRILU);
        rc = input(e, 2, d22, row);
        ints(e, 2, (int64_t[]){ 1, INT64_MIN });
        result(e, 2, d22, row, 4);
        break;
    case 26:
        begin(e, "strided_slice [0..5] start -1, end INT64_MIN, step -1 "
              "(reverse)", SEC_STEPS, RLX_OP_STRIDED_SLICE);
        rc = input(e, 1, d6, seq6);
        ints(e, 4, (int64_t[]){ 0, -1, INT64_MIN, -1 });
        result(e, 1, d6, (double[]){ 5, 4, 3, 2, 1, 0 }, 6);
        break;
    case 27:
        begin(e, "strided_slice [0..5] start 100, end 0, step -2 (clamped "
              "to 5)", SEC_STEPS, RLX_OP_STRIDED_SLICE);
        rc = input(e, 1, d6, seq6);
        ints(e, 4, (int64_t[]){ 0, 100, 0, -2 });
        result(e, 1, d3, (double[]){ 5, 3, 1 }, 3);
        break;
    case 28:
        begin(e, "gather_elements with indices -1 and -2 (from the end)",
              SEC_INDEX, RLX_OP_GATHER_ELEMENTS);
        rc = input(e, 2, d22, row) ||
             input_of(e, RLX_DTYPE_I64, 2, d22, (double[]){ -1, -2, 0, -1 });
        ints(e, 1, (int64_t[]){ 1 });
        result(e, 2, d22, (double[]){ 2, 1, 3, 4 }, 4);
        break;
    case 29:
        begin(e, "one_hot of 3 and -4 with depth 3 (all off) and -1",
              SEC_INDEX, RLX_OP_ONE_HOT);
        rc = input_of(e, RLX_DTYPE_I32, 1, d3, (double[]){ 3, -4, -1 }) ||
             input(e, 1, (int64_t[]){ 2 }, (double[]){ 0, 7 });
        ints(e, 1, (int64_t[]){ 3 });
        result(e, 2, (int64_t[]){ 3, 3 },
               (double[]){ 0, 0, 0, 0, 0, 0, 0, 0, 7 }, 9);
        break;
    case 30:
        begin(e, "topk k=3 of [3, 1, 3, NaN, -inf, 2]: NaN first, ties by "
              "index", SEC_ORDER, RLX_OP_TOPK);
        rc = input(e, 1, d6, (double[]){ 3, 1, 3, NAN, -INFINITY, 2 });
        ints(e, 1, (int64_t[]){ 3 });
        result(e, 1, d3, (double[]){ 3, 0, 2 }, 3);
        e->out = RLX_DTYPE_I64;
        break;
    case 31:
        begin(e, "scatter_elements add with index 1 given twice (as -3)",
              SEC_DUP, RLX_OP_SCATTER_ELEMENTS);
        rc = input(e, 1, d4, row) ||
             input_of(e, RLX_DTYPE_I64, 1, d3, (double[]){ 1, -3, 3 }) ||
             input(e, 1, d3, (double[]){ 10, 20, 30 });
        ints(e, 2, (int64_t[]){ 0, RLX_REDUCTION_ADD });
        result(e, 1, d4, (double[]){ 1, 32, 3, 34 }, 4);
        break;
    case 32:
        begin(e, "non_zero of [[1, 0], [-0.0, NaN]]: NaN counts, -0 does "
              "not, -1 pads", SEC_NONZERO, RLX_OP_NON_ZERO);
        rc = input(e, 2, d22, (double[]){ 1, 0, -0.0, NAN });
        result(e, 2, (int64_t[]){ 2, 4 },
               (double[]){ 0, 1, -1, -1, 0, 1, -1, -1 }, 8);
        e->out = RLX_DTYPE_I64;
        break;
    default:
        return 1;
    }
    return rc ? -1 : 0;
}

/* Case I into E; -1 out of memory. */
static int edge_make(int i, edge *e)
{
    static const double nan_in[] = { NAN, -0.0, -1, 2.5 };
    static const double a_in[] = { NAN, 1, -0.0, 3 };
    static const double b_in[] = { 1, NAN, 0.0, -3 };
    static const double inf_in[] = { INFINITY, -INFINITY, NAN, 0 };
    static const double seq[] = { 1, 2, 3, 4, 5, 6 };
    int64_t d4[] = { 4 }, d32[] = { 3, 2 }, d3[] = { 3 }, d23[] = { 2, 3 };
    int64_t d2[] = { 2 };
    int rc = 0;

    switch (i) {
    case 0:
        begin(e, "relu of NaN, -0, -1, 2.5", SEC_NAN, RLX_OP_RELU);
        rc = input(e, 1, d4, nan_in);
        result(e, 1, d4, (double[]){ NAN, 0.0, 0.0, 2.5 }, 4);
        e->check_sign = 1;
        break;
    case 1:
    case 2:
        begin(e, i == 1 ? "max with NaN on either side"
                        : "min with NaN on either side",
              SEC_NAN, i == 1 ? RLX_OP_MAX : RLX_OP_MIN);
        rc = input(e, 1, d4, a_in) || input(e, 1, d4, b_in);
        result(e, 1, d4, (double[]){ NAN, NAN, 0, i == 1 ? 3 : -3 }, 4);
        break;
    case 3:
        begin(e, "causal softmax of [3, 2] (row 0 fully masked)",
              SEC_SOFTMAX, RLX_OP_SOFTMAX);
        rc = input(e, 2, d32, seq);
        ints(e, 2, (int64_t[]){ -1, 1 });
        result(e, 2, d32, (double[]){ 0, 0, 1, 0, 0.2689414213699951,
                                      0.7310585786300049 }, 6);
        break;
    case 4:
    case 5:
        begin(e, i == 4 ? "gelu (erf) of +inf, -inf, NaN, 0"
                        : "gelu (tanh) of +inf, -inf, NaN, 0",
              SEC_GELU, RLX_OP_GELU);
        rc = input(e, 1, d4, inf_in);
        ints(e, 1, (int64_t[]){ i == 4 ? RLX_GELU_ERF : RLX_GELU_TANH });
        result(e, 1, d4, (double[]){ INFINITY, 0, NAN, 0 }, 4);
        break;
    case 6:
        begin(e, "matmul [3] x [3, 2] with transpose a", SEC_MATMUL,
              RLX_OP_MATMUL);
        rc = input(e, 1, d3, seq) || input(e, 2, d32, seq);
        ints(e, 2, (int64_t[]){ 1, 0 });
        result(e, 1, d2, (double[]){ 22, 28 }, 2);
        break;
    case 7:
        begin(e, "matmul [2, 3] x [3] with transpose b", SEC_MATMUL,
              RLX_OP_MATMUL);
        rc = input(e, 2, d23, seq) || input(e, 1, d3, (double[]){ 1, 1, 2 });
        ints(e, 2, (int64_t[]){ 0, 1 });
        result(e, 1, d2, (double[]){ 9, 21 }, 2);
        break;
    case 8: {
        begin(e, "transpose [2, 3, 4] by (-1, 0, -2)", SEC_PERM,
              RLX_OP_TRANSPOSE);
        rc = input(e, 3, (int64_t[]){ 2, 3, 4 }, NULL);
        ints(e, 3, (int64_t[]){ -1, 0, -2 });
        e->rank = 3;
        memcpy(e->dims, (int64_t[]){ 4, 2, 3 }, 3 * sizeof(int64_t));
        for (int k = 0; k < 4; k++) /* out[k][a][b] = in[a][b][k] */
            for (int a = 0; a < 2; a++)
                for (int b = 0; b < 3; b++)
                    e->want[(k * 2 + a) * 3 + b] = a * 12 + b * 4 + k;
        break;
    }
    case 9: {
        begin(e, "add [1,2,1,2,1,2,1,2] + [2,1,2,1,2,1,2,1] (rank 8)",
              SEC_RANK, RLX_OP_ADD);
        int64_t da[8], db[8];
        for (int k = 0; k < 8; k++) {
            da[k] = k % 2 ? 2 : 1;
            db[k] = k % 2 ? 1 : 2;
            e->dims[k] = 2;
        }
        rc = input(e, 8, da, NULL);
        if (!rc)
            rc = input(e, 8, db, NULL);
        if (!rc)
            for (size_t k = 0; k < 16; k++) /* 100 + index: distinct */
                cli_tensor_set(&e->c.inputs[1], k, 100.0 * (double)(k + 1));
        e->rank = 8;
        for (int o = 0; o < 256; o++) {
            /* bit 7 - k of O is the index along dim k */
            int ia = 0, ib = 0;
            for (int k = 0; k < 8; k++) {
                int idx = (o >> (7 - k)) & 1;
                if (k % 2)
                    ia = ia * 2 + idx;
                else
                    ib = ib * 2 + idx;
            }
            e->want[o] = ia + 100.0 * (ib + 1);
        }
        break;
    }
    case 10:
        begin(e, "add [0, 3] + [3]", SEC_EMPTY, RLX_OP_ADD);
        rc = input(e, 2, (int64_t[]){ 0, 3 }, NULL) ||
             input(e, 1, d3, seq);
        result(e, 2, (int64_t[]){ 0, 3 }, NULL, 0);
        break;
    case 11:
        begin(e, "matmul [2, 0] x [0, 3] (k = 0)", SEC_EMPTY,
              RLX_OP_MATMUL);
        rc = input(e, 2, (int64_t[]){ 2, 0 }, NULL) ||
             input(e, 2, (int64_t[]){ 0, 3 }, NULL);
        result(e, 2, d23, (double[]){ 0, 0, 0, 0, 0, 0 }, 6);
        break;
    case 12:
    case 13:
    case 14: {
        static const char *const names[] = {
            "reduce_sum over an empty axis", "reduce_max over an empty axis",
            "reduce_mean over an empty axis" };
        static const rlx_op ops[] = { RLX_OP_REDUCE_SUM, RLX_OP_REDUCE_MAX,
                                      RLX_OP_REDUCE_MEAN };
        static const double want[] = { 0, -INFINITY, NAN };
        begin(e, names[i - 12], SEC_EMPTY, ops[i - 12]);
        rc = input(e, 2, (int64_t[]){ 2, 0 }, NULL);
        ints(e, 2, (int64_t[]){ 0, 1 });
        result(e, 1, d2, (double[]){ want[i - 12], want[i - 12] }, 2);
        break;
    }
    /* since 1.4: the vision ops */
    case 15:
        begin(e, "max_pool [NaN, -1, -3, -2], kernel 2, stride 2, pads 1",
              SEC_POOL, RLX_OP_MAX_POOL);
        rc = input(e, 3, (int64_t[]){ 1, 1, 4 },
                   (double[]){ NAN, -1, -3, -2 });
        ints(e, 8, (int64_t[]){ 0, 0, 2, 2, 2, 1, 1, 1 });
        result(e, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ NAN, -1, -2 }, 3);
        break;
    case 16:
        begin(e, "avg_pool [3, 6, 9], ceil mode, count_include_pad",
              SEC_POOL, RLX_OP_AVG_POOL);
        rc = input(e, 3, (int64_t[]){ 1, 1, 3 }, (double[]){ 3, 6, 9 });
        ints(e, 5, (int64_t[]){ 1, 1, 2, 2, 2 });
        result(e, 3, (int64_t[]){ 1, 1, 2 }, (double[]){ 4.5, 9 }, 2);
        break;
    case 17: {
        begin(e, "conv [1, 2] with pads 100 on each side", SEC_PADS,
              RLX_OP_CONV);
        rc = input(e, 3, (int64_t[]){ 1, 1, 2 }, (double[]){ 1, 2 }) ||
             input(e, 3, (int64_t[]){ 1, 1, 1 }, (double[]){ 3 });
        ints(e, 5, (int64_t[]){ 1, 1, 1, 100, 100 });
        e->rank = 3;
        memcpy(e->dims, (int64_t[]){ 1, 1, 202 }, 3 * sizeof(int64_t));
        e->want[100] = 3;
        e->want[101] = 6;
        break;
    }
    case 18:
    case 19:
        begin(e, i == 18 ? "resize nearest ties, round_prefer_floor"
                         : "resize nearest ties, round_prefer_ceil",
              SEC_RESIZE, RLX_OP_RESIZE);
        rc = input(e, 1, d3, (double[]){ 10, 20, 30 });
        ints(e, 5, (int64_t[]){ RLX_RESIZE_NEAREST, RLX_RESIZE_ASYMMETRIC,
                                i == 18 ? RLX_RESIZE_ROUND_PREFER_FLOOR
                                        : RLX_RESIZE_ROUND_PREFER_CEIL,
                                0, 6 });
        result(e, 1, (int64_t[]){ 6 },
               i == 18 ? (double[]){ 10, 10, 20, 20, 30, 30 }
                       : (double[]){ 10, 20, 20, 30, 30, 30 }, 6);
        break;
    case 20:
        begin(e, "resize tf_crop_and_resize past the input", SEC_RESIZE,
              RLX_OP_RESIZE);
        rc = input(e, 1, d3, (double[]){ 1, 2, 3 });
        ints(e, 5, (int64_t[]){ RLX_RESIZE_LINEAR,
                                RLX_RESIZE_TF_CROP_AND_RESIZE, 0, 0, 3 });
        e->c.n_floats = 5;
        memcpy(e->c.floats, (double[]){ -0.75, -7, 1, 0.5, 1.5 },
               5 * sizeof(double));
        result(e, 1, d3, (double[]){ 2, 3, -7 }, 3);
        break;
    case 21:
        begin(e, "group_norm of constant groups", SEC_CONST,
              RLX_OP_GROUP_NORM);
        rc = input(e, 3, (int64_t[]){ 1, 2, 2 }, (double[]){ 5, 5, 7, 7 }) ||
             input(e, 1, d2, (double[]){ 2, 3 }) ||
             input(e, 1, d2, (double[]){ 0.5, -1 });
        ints(e, 1, (int64_t[]){ 2 });
        result(e, 3, (int64_t[]){ 1, 2, 2 },
               (double[]){ 0.5, 0.5, -1, -1 }, 4);
        break;
    default:
        return edge_make_index(i, e);
    }
    return rc ? -1 : 0;
}

static int same(double got, double want, double tol, int sign)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    if (sign && want == 0 && signbit(got) != signbit(want))
        return 0;
    return fabs(got - want) <= tol * (1 + fabs(want));
}

/* Runs E on TS; fills RES. */
static void edge_check(edge *e, const rlx_backend *test, rlx_session *ts,
                       conf_result *res)
{
    char err[512], where[160];
    cli_tensor got;
    rlx_graph *g = NULL;
    int at_compile;

    res->what = e->name;
    res->dtype = rlx_dtype_name(e->out);
    res->is_edge = 1;
    res->section = e->section;
    res->n_cases = 1;
    if (!rlx_backend_supports_op(test, e->c.op, e->out)) {
        res->verdict = CONF_UNSUPPORTED;
        cli_format(res->detail, sizeof res->detail,
                   "the backend's supports_op says no to %s",
                   rlx_op_name(e->c.op));
        return;
    }
    if (cli_conf_graph(&e->c, &g, err, sizeof err) != RLX_OK) {
        res->verdict = CONF_SKIPPED;
        cli_format(res->detail, sizeof res->detail, "%s", err);
        return;
    }
    rlx_status st = cli_conf_run(ts, g, &e->c, &got, &at_compile, err,
                                 sizeof err);
    rlx_graph_destroy(g);
    if (st != RLX_OK) {
        res->verdict = at_compile && st == RLX_ERR_UNSUPPORTED
                           ? CONF_UNSUPPORTED
                           : CONF_FAIL;
        cli_format(res->detail, sizeof res->detail, "%s: %s%s%s",
                   rlx_status_name(st), err,
                   res->verdict == CONF_FAIL ? "; see ops.md#" : "",
                   res->verdict == CONF_FAIL ? e->section : "");
        return;
    }
    int shape_ok = got.rank == e->rank && got.dtype == e->out;
    for (uint32_t k = 0; shape_ok && k < e->rank; k++)
        shape_ok = got.dims[k] == e->dims[k];
    if (!shape_ok) {
        char gs[160], ws[160];
        cli_shape_format(gs, sizeof gs, got.rank, got.dims);
        cli_shape_format(ws, sizeof ws, e->rank, e->dims);
        res->verdict = CONF_FAIL;
        cli_format(res->detail, sizeof res->detail,
                   "result shape %s, want %s; see ops.md#%s", gs, ws,
                   e->section);
        cli_tensor_free(&got);
        return;
    }
    res->verdict = CONF_PASS;
    res->n_pass = 1;
    cli_format(res->detail, sizeof res->detail, "as ops.md#%s says",
               e->section);
    for (size_t k = 0; k < got.count && k < EDGE_MAX_OUT; k++) {
        double v = cli_tensor_get(&got, k);
        if (same(v, e->want[k], e->tol, e->check_sign))
            continue;
        cli_index_format(where, sizeof where, got.rank, got.dims, k);
        res->verdict = CONF_FAIL;
        res->n_pass = 0;
        res->max_err = INFINITY;
        cli_format(res->detail, sizeof res->detail,
                   "got %g at %s, want %s%g; see ops.md#%s", v, where,
                   e->check_sign && e->want[k] == 0 &&
                           !signbit(e->want[k])
                       ? "+"
                       : "",
                   e->want[k], e->section);
        break;
    }
    cli_tensor_free(&got);
}

int cli_conf_edge_check(const rlx_backend *test, rlx_session *ts,
                        conf_report *r)
{
    enum { QUANT = N_EDGES + CONF_EDGE14_COUNT };
    for (int i = 0; i < QUANT + CONF_EDGE_QUANT_COUNT; i++) {
        edge e;
        /* then the cases of the ABI 1.4 ops (conformance_edge14.c) and
         * of quantization (conformance_edge_quant.c) */
        int rc = i < N_EDGES ? edge_make(i, &e)
                 : i < QUANT ? cli_conf_edge14_make(i - N_EDGES, &e)
                             : cli_conf_edge_quant_make(i - QUANT, &e);
        if (rc < 0) {
            cli_conf_case_free(&e.c);
            return -1;
        }
        if (rc > 0)
            continue;
        conf_result *res = cli_conf_report_add(r);
        if (!res) {
            cli_conf_case_free(&e.c);
            return -1;
        }
        edge_check(&e, test, ts, res);
        cli_conf_case_free(&e.c);
    }
    return 0;
}
