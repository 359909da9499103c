/*
 * conformance_check.c - the op-by-op part of `rlx conformance`: every op
 * of the op set on every dtype it takes, a few random cases each, run on
 * the backend under test and on cpu-ref, one result per op and dtype.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

static const rlx_dtype float_dtypes[] = { RLX_DTYPE_F32, RLX_DTYPE_F16,
                                          RLX_DTYPE_BF16 };
static const rlx_dtype movement_dtypes[] = { RLX_DTYPE_F32, RLX_DTYPE_F16,
                                             RLX_DTYPE_BF16, RLX_DTYPE_I32,
                                             RLX_DTYPE_I64 };

/* Counts of one op x dtype, and the worst failure seen. */
typedef struct conf_tally {
    int pass, fail, unsupported, skipped;
    double worst;
    char fail_note[600], other_note[400];
} conf_tally;

static void note(char *dst, size_t n, const char *fmt, const char *a,
                 const char *b)
{
    if (!dst[0])
        cli_format(dst, n, fmt, a, b);
}

/* Runs case C on both sessions and records the outcome in T. */
static int case_check(const conf_case *c, rlx_session *ts, rlx_session *rs,
                      rlx_dtype dtype, conf_tally *t)
{
    char err[400];
    rlx_graph *g = NULL;
    cli_tensor want, got;
    int at_compile;

    if (cli_conf_graph(c, &g, err, sizeof err) != RLX_OK) {
        t->skipped++;
        note(t->other_note, sizeof t->other_note, "case %s: %s", c->desc,
             err);
        return 0;
    }
    if (cli_conf_run(rs, g, c, &want, &at_compile, err, sizeof err) !=
        RLX_OK) {
        t->skipped++;
        note(t->other_note, sizeof t->other_note,
             "cpu-ref cannot run case %s: %s", c->desc, err);
        rlx_graph_destroy(g);
        return 0;
    }
    rlx_status st = cli_conf_run(ts, g, c, &got, &at_compile, err,
                                 sizeof err);
    rlx_graph_destroy(g);
    if (st != RLX_OK) {
        cli_tensor_free(&want);
        if (at_compile && st == RLX_ERR_UNSUPPORTED) {
            t->unsupported++;
            note(t->other_note, sizeof t->other_note,
                 "case %s unsupported: %s", c->desc, err);
        } else {
            t->fail++;
            if (!isinf(t->worst) || !t->fail_note[0]) {
                t->worst = INFINITY;
                cli_format(t->fail_note, sizeof t->fail_note,
                         "case %s failed (%s): %s", c->desc,
                         rlx_status_name(st), err);
            }
        }
        return 0;
    }
    conf_diff d;
    cli_conf_compare(&got, &want, cli_conf_tolerance(dtype, c->exact,
                                                     c->reduce_len, 1), &d);
    if (d.n_bad == 0) {
        t->pass++;
        if (d.max_err > t->worst && t->fail == 0)
            t->worst = d.max_err;
    } else {
        char where[160], shape[160];
        t->fail++;
        cli_index_format(where, sizeof where, got.rank, got.dims, d.where);
        cli_shape_format(shape, sizeof shape, got.rank, got.dims);
        if (t->fail == 1 || d.max_err > t->worst) {
            t->worst = d.max_err;
            if (d.shape_differs)
                cli_format(t->fail_note, sizeof t->fail_note,
                         "case %s: output shape or dtype differs",
                         c->desc);
            else
                cli_format(t->fail_note, sizeof t->fail_note,
                         "max error %.3g at %s of %s (got %.9g, want "
                         "%.9g), %zu of %zu elements off, case %s",
                         d.max_err, where, shape, d.got, d.want, d.n_bad,
                         got.count, c->desc);
        }
    }
    cli_tensor_free(&got);
    cli_tensor_free(&want);
    return 0;
}

static void verdict_set(conf_result *res, const conf_tally *t)
{
    res->n_pass = t->pass;
    res->max_err = t->worst;
    if (t->fail) {
        res->verdict = CONF_FAIL;
        cli_format(res->detail, sizeof res->detail, "%s", t->fail_note);
    } else if (t->pass) {
        res->verdict = CONF_PASS;
        int n = snprintf(res->detail, sizeof res->detail,
                         "%d of %d cases, max error %.3g", t->pass,
                         res->n_cases, t->worst);
        if (t->unsupported + t->skipped && n > 0 &&
            (size_t)n < sizeof res->detail)
            cli_format(res->detail + n, sizeof res->detail - (size_t)n,
                     "; %s", t->other_note);
    } else if (t->unsupported) {
        res->verdict = CONF_UNSUPPORTED;
        cli_format(res->detail, sizeof res->detail, "%s", t->other_note);
    } else {
        res->verdict = CONF_SKIPPED;
        cli_format(res->detail, sizeof res->detail, "%s", t->other_note);
    }
}

static int op_dtype_check(const conf_op *o, rlx_dtype dtype,
                          const rlx_backend *test, rlx_session *ts,
                          rlx_session *rs, uint64_t seed, conf_report *r)
{
    conf_result *res = cli_conf_report_add(r);
    conf_tally t;
    /* supports_op and the tolerance go by the result's dtype (bool for
     * comparisons); the report names the inputs' */
    rlx_dtype result = o->result ? o->result : dtype;

    if (!res)
        return -1;
    memset(&t, 0, sizeof t);
    res->what = rlx_op_name(o->op);
    res->dtype = rlx_dtype_name(dtype);
    if (!rlx_backend_supports_op(test, o->op, result)) {
        res->verdict = CONF_UNSUPPORTED;
        cli_format(res->detail, sizeof res->detail,
                 "the backend's supports_op says no");
        return 0;
    }
    for (int which = 0; which < CONF_MAX_CASES; which++) {
        char label[64];
        conf_case c;
        cli_format(label, sizeof label, "%s/%s/%d", res->what, res->dtype,
                 which);
        uint64_t rng = cli_rng_seed(seed, label);
        int rc = cli_conf_case_make(o, dtype, which, &rng, &c);
        if (rc < 0)
            return -1;
        if (rc > 0)
            continue;
        res->n_cases++;
        case_check(&c, ts, rs, result, &t);
        cli_conf_case_free(&c);
    }
    verdict_set(res, &t);
    return 0;
}

/* The input dtypes O is checked on; returns how many. */
static size_t op_dtypes(const conf_op *o, rlx_dtype *out)
{
    static const rlx_dtype ints[] = { RLX_DTYPE_I8, RLX_DTYPE_U8,
                                      RLX_DTYPE_I32, RLX_DTYPE_I64,
                                      RLX_DTYPE_I16, RLX_DTYPE_U16,
                                      RLX_DTYPE_U32, RLX_DTYPE_U64 };
    size_t n = 0;
    if (!o->dtypes) {
        const rlx_dtype *dts = o->movement ? movement_dtypes : float_dtypes;
        n = o->movement ? 5 : 3;
        memcpy(out, dts, n * sizeof *dts);
        return n;
    }
    if (o->dtypes & CONF_DT_FLOAT)
        for (size_t k = 0; k < 3; k++)
            out[n++] = float_dtypes[k];
    if (o->dtypes & CONF_DT_F64)
        out[n++] = RLX_DTYPE_F64;
    for (size_t k = 0; k < 8; k++) {
        int uns = ints[k] == RLX_DTYPE_U8 || ints[k] == RLX_DTYPE_U16 ||
                  ints[k] == RLX_DTYPE_U32 || ints[k] == RLX_DTYPE_U64;
        if ((o->dtypes & CONF_DT_INT) ||
            ((o->dtypes & CONF_DT_SIGNED) && !uns) ||
            ((o->dtypes & CONF_DT_UNSIGNED) && uns) ||
            ((o->dtypes & CONF_DT_BYTE) && k < 2) ||
            ((o->dtypes & CONF_DT_I32) && ints[k] == RLX_DTYPE_I32))
            out[n++] = ints[k];
    }
    if (o->dtypes & CONF_DT_BOOL)
        out[n++] = RLX_DTYPE_BOOL;
    return n;
}

int cli_conf_ops_check(rlx_runtime *rt, const rlx_backend *test,
                       rlx_session *ts, rlx_session *rs, uint64_t seed,
                       conf_report *r)
{
    (void)rt;
    for (int table = 0; table < 2; table++) {
        size_t n_ops;
        const conf_op *ops = table ? cli_conf_ops14(&n_ops)
                                   : cli_conf_ops(&n_ops);
        for (size_t i = 0; i < n_ops; i++) {
            rlx_dtype dts[16];
            size_t n = op_dtypes(&ops[i], dts);
            for (size_t k = 0; k < n; k++)
                if (op_dtype_check(&ops[i], dts[k], test, ts, rs, seed,
                                   r) != 0)
                    return -1;
            for (size_t k = 0; cli_conf_takes_bytes(ops[i].op) && k < 2; k++)
                if (op_dtype_check(&ops[i], k ? RLX_DTYPE_U8 : RLX_DTYPE_I8,
                                   test, ts, rs, seed, r) != 0)
                    return -1;
        }
    }
    return 0;
}
