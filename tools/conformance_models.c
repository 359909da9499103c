/*
 * conformance_models.c - the end-to-end part of `rlx conformance`: a
 * whole model on the backend under test and on cpu-ref, fed the same
 * seeded inputs, every output compared. Ops that pass one by one can
 * still fail together (fusion, layouts, memory reuse); this catches that.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"
#include "model_run.h"

#define CONF_MODEL_TOL_SCALE 10.0

static conf_result *model_result(conf_report *r, const char *path,
                                 const char *output, conf_verdict v,
                                 const char *detail)
{
    conf_result *res = cli_conf_report_add(r);
    if (!res)
        return NULL;
    res->is_model = 1;
    res->what = path;
    cli_format(res->name, sizeof res->name, "%s", output);
    res->dtype = res->name;
    res->verdict = v;
    cli_format(res->detail, sizeof res->detail, "%s", detail);
    return res;
}

/* Seeded inputs, the same on both programs. */
static int inputs_feed(cli_model_exec *t, cli_model_exec *ref,
                       uint64_t seed)
{
    uint32_t n = rlx_program_input_count(t->program);
    for (uint32_t i = 0; i < n; i++) {
        const char *name = NULL;
        cli_tensor in;
        rlx_program_slot(t->program, RLX_SLOT_INPUT, i, &name, NULL, NULL,
                         NULL);
        if (cli_input_seeded(t->program, i, seed, &in) != 0)
            return -1;
        int rc = cli_input_set(t->program, name, &in) ||
                 cli_input_set(ref->program, name, &in);
        cli_tensor_free(&in);
        if (rc)
            return -1;
    }
    return 0;
}

static int outputs_compare(const char *path, cli_model_exec *t,
                           cli_model_exec *ref, conf_report *r)
{
    uint32_t n = rlx_program_output_count(t->program);
    for (uint32_t i = 0; i < n; i++) {
        const char *name = NULL;
        cli_tensor got, want;
        conf_diff d;
        char detail[400], where[160];

        rlx_program_slot(t->program, RLX_SLOT_OUTPUT, i, &name, NULL, NULL,
                         NULL);
        if (cli_output_copy(t->program, i, &got) != 0)
            return -1;
        if (cli_output_copy(ref->program, i, &want) != 0) {
            cli_tensor_free(&got);
            return -1;
        }
        cli_conf_compare(&got, &want,
                         cli_conf_tolerance(want.dtype, 0, 1,
                                            CONF_MODEL_TOL_SCALE), &d);
        cli_index_format(where, sizeof where, got.rank, got.dims, d.where);
        if (d.shape_differs)
            cli_format(detail, sizeof detail, "output shape or dtype differs");
        else if (d.n_bad)
            cli_format(detail, sizeof detail, "max error %.3g at %s (got "
                     "%.9g, want %.9g), %zu of %zu elements off", d.max_err,
                     where, d.got, d.want, d.n_bad, got.count);
        else
            cli_format(detail, sizeof detail, "%zu elements, max error %.3g",
                     got.count, d.max_err);
        conf_result *res = model_result(r, path, name ? name : "?",
                                        d.n_bad ? CONF_FAIL : CONF_PASS,
                                        detail);
        if (res)
            res->max_err = d.max_err;
        cli_tensor_free(&got);
        cli_tensor_free(&want);
        if (!res)
            return -1;
    }
    return 0;
}

int cli_conf_model_check(rlx_runtime *rt, const char *path,
                         const char *test_id, uint64_t seed,
                         conf_report *r)
{
    rlx_model *m = NULL;
    cli_model_exec t, ref;
    int rc = 0;

    memset(&t, 0, sizeof t);
    memset(&ref, 0, sizeof ref);
    if (cli_model_open(path, &m) != 0)
        return model_result(r, path, "-", CONF_FAIL,
                            "cannot load the model (see the error above)")
                   ? 0 : -1;
    if (cli_model_exec_create(rt, m, "cpu-ref", &ref) != 0) {
        rc = model_result(r, path, "-", CONF_SKIPPED,
                          "cpu-ref cannot run it (see the error above)")
                 ? 0 : -1;
    } else if (cli_model_exec_create_ex(rt, m, test_id, RLX_FALLBACK_NONE,
                                        &t) != 0) {
        /* the whole graph on the backend under test: no placement, or
         * the CPU would answer for the nodes it lacks */
        /* the reason goes into the report (and the JSON), not only to
         * stderr */
        int unsupported = t.status == RLX_ERR_UNSUPPORTED;
        char detail[600];
        cli_format(detail, sizeof detail, "%s: %s",
                   unsupported ? "the backend cannot take the graph"
                               : "compile failed",
                   t.error[0] ? t.error : rlx_status_name(t.status));
        rc = model_result(r, path, "-",
                          unsupported ? CONF_UNSUPPORTED : CONF_FAIL, detail)
                 ? 0 : -1;
    } else if (inputs_feed(&t, &ref, seed) != 0) {
        rc = model_result(r, path, "-", CONF_FAIL, "cannot set the inputs")
                 ? 0 : -1;
    } else if (rlx_program_run(ref.program) != RLX_OK) {
        fprintf(stderr, "rlx: cpu-ref: %s\n", cli_message(rlx_last_error()));
        rc = model_result(r, path, "-", CONF_SKIPPED,
                          "cpu-ref failed to run it") ? 0 : -1;
    } else if (rlx_program_run(t.program) != RLX_OK) {
        fprintf(stderr, "rlx: %s: %s\n", test_id,
                cli_message(rlx_last_error()));
        rc = model_result(r, path, "-", CONF_FAIL, "run failed") ? 0 : -1;
    } else {
        rc = outputs_compare(path, &t, &ref, r);
    }
    cli_model_exec_destroy(&t);
    cli_model_exec_destroy(&ref);
    cli_model_close(m);
    return rc;
}
