/*
 * conformance_report.c - the results of `rlx conformance`, one line per
 * op x dtype (and per model output), then a summary; or the same as JSON
 * for CI systems of backend authors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"
#include "json.h"

const char *cli_conf_verdict_name(conf_verdict v)
{
    switch (v) {
    case CONF_PASS: return "PASS";
    case CONF_FAIL: return "FAIL";
    case CONF_UNSUPPORTED: return "UNSUPPORTED";
    default: return "SKIPPED";
    }
}

conf_result *cli_conf_report_add(conf_report *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        conf_result *grown = realloc(r->results, cap * sizeof *grown);
        if (!grown)
            return NULL;
        r->results = grown;
        r->cap = cap;
    }
    conf_result *res = &r->results[r->n++];
    memset(res, 0, sizeof *res);
    return res;
}

void cli_conf_report_free(conf_report *r)
{
    free(r->results);
    r->results = NULL;
    r->n = r->cap = 0;
}

static void counts(const conf_report *r, int c[4])
{
    memset(c, 0, 4 * sizeof *c);
    for (size_t i = 0; i < r->n; i++)
        c[r->results[i].verdict]++;
}

int cli_conf_report_conformant(const conf_report *r)
{
    int c[4];
    counts(r, c);
    return !r->error[0] && c[CONF_FAIL] == 0 && c[CONF_PASS] > 0;
}

/* The verdict's words for the summary line. */
static const char *verdict_words(const conf_report *r, const int c[4])
{
    if (r->error[0])
        return "not conformant: nothing could be tested";
    if (c[CONF_FAIL])
        return "not conformant";
    if (c[CONF_PASS] == 0)
        return "not conformant: the backend passed nothing; see "
               "docs/conformance.md";
    return "conformant";
}

void cli_conf_report_print_text(const conf_report *r, FILE *out)
{
    int c[4];
    if (r->error[0]) {
        fprintf(out, "Conformance of %s: cannot test it: %s\n",
                r->backend ? r->backend : "(none)", r->error);
        counts(r, c);
        fprintf(out, "\nSummary: 0 PASS, 0 FAIL, 0 UNSUPPORTED, 0 SKIPPED "
                "(%s)\n", verdict_words(r, c));
        return;
    }
    fprintf(out, "Conformance of %s (device %s, plugin %s)\n", r->backend,
            r->device, r->plugin);
    fprintf(out, "Reference: cpu-ref; seed %llu; tolerances: f32 1e-5 "
            "relative + 1e-6 absolute, f16 1e-3 + 1e-3, bf16 1e-2 + 1e-2, "
            "data movement and ints exact\n\n", (unsigned long long)r->seed);
    for (size_t i = 0; i < r->n; i++) {
        const conf_result *res = &r->results[i];
        if (res->is_edge && (i == 0 || !r->results[i - 1].is_edge))
            fprintf(out, "\nEdge cases (values from ops.md, \"Edge "
                    "cases\"):\n");
        if (res->is_model && (i == 0 || !r->results[i - 1].is_model))
            fprintf(out, "\nModels (same seeded inputs on both; "
                    "tolerances x10):\n");
        if (res->is_edge)
            fprintf(out, "%s: %s %s\n", res->what,
                    cli_conf_verdict_name(res->verdict), res->detail);
        else if (res->is_model)
            fprintf(out, "%s output %s: %s %s\n", res->what, res->dtype,
                    cli_conf_verdict_name(res->verdict), res->detail);
        else
            fprintf(out, "%-12s %-5s %-11s %s\n", res->what, res->dtype,
                    cli_conf_verdict_name(res->verdict), res->detail);
    }
    counts(r, c);
    fprintf(out, "\nSummary: %d PASS, %d FAIL, %d UNSUPPORTED, %d SKIPPED "
            "(%s)\n", c[CONF_PASS], c[CONF_FAIL], c[CONF_UNSUPPORTED],
            c[CONF_SKIPPED], verdict_words(r, c));
}

void cli_conf_report_print_json(const conf_report *r, FILE *out)
{
    cli_json j;
    int c[4];

    cli_json_init(&j, out);
    cli_json_object_begin(&j);
    cli_json_member_string(&j, "backend", r->backend ? r->backend : "");
    cli_json_member_string(&j, "device", r->device ? r->device : "");
    cli_json_member_string(&j, "plugin", r->plugin ? r->plugin : "");
    if (r->error[0])
        cli_json_member_string(&j, "error", r->error);
    cli_json_member_string(&j, "reference", "cpu-ref");
    cli_json_member_int(&j, "seed", (int64_t)r->seed);
    cli_json_key(&j, "results");
    cli_json_array_begin(&j);
    for (size_t i = 0; i < r->n; i++) {
        const conf_result *res = &r->results[i];
        cli_json_object_begin(&j);
        cli_json_member_string(&j, "kind", res->is_model  ? "model"
                                           : res->is_edge ? "edge"
                                                          : "op");
        cli_json_member_string(&j, res->is_model  ? "model"
                                   : res->is_edge ? "case"
                                                  : "op",
                               res->what);
        cli_json_member_string(&j, res->is_model ? "output" : "dtype",
                               res->dtype);
        if (res->is_edge)
            cli_json_member_string(&j, "section", res->section);
        cli_json_member_string(&j, "verdict",
                               cli_conf_verdict_name(res->verdict));
        cli_json_member_int(&j, "cases", res->n_cases);
        cli_json_member_int(&j, "passed", res->n_pass);
        /* JSON has no infinity: a failed run reports null. */
        cli_json_key(&j, "max_error");
        cli_json_double(&j, res->max_err);
        cli_json_member_string(&j, "detail", res->detail);
        cli_json_object_end(&j);
    }
    cli_json_array_end(&j);
    counts(r, c);
    cli_json_key(&j, "summary");
    cli_json_object_begin(&j);
    cli_json_member_int(&j, "pass", c[CONF_PASS]);
    cli_json_member_int(&j, "fail", c[CONF_FAIL]);
    cli_json_member_int(&j, "unsupported", c[CONF_UNSUPPORTED]);
    cli_json_member_int(&j, "skipped", c[CONF_SKIPPED]);
    cli_json_member_bool(&j, "conformant", cli_conf_report_conformant(r));
    cli_json_member_string(&j, "verdict", verdict_words(r, c));
    cli_json_object_end(&j);
    cli_json_object_end(&j);
    cli_json_finish(&j);
}
