/*
 * cmd_bench.c - `rlx bench MODEL.yaml [--repeat N] [--backend ID ...]`:
 * compile and run one model on every executing backend that can take it
 * (or the ones named), with the same seeded inputs, and report compile
 * and run times (median, min, max of N) and how far each backend's
 * outputs are from cpu-ref's. So a user sees in one command what a
 * tuned backend buys on this machine, and that it still computes the
 * same thing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "model_run.h"

#define BENCH_MAX_BACKENDS 32
#define BENCH_REPEAT_MAX 100000

typedef struct bench_result {
    const char *id;
    int fallback;              /* rlx_fallback, or -1: the default */
    char label[80];            /* id, or id/MODE */
    char placement[256];
    int ok;
    double compile[3], run[3]; /* median, min, max in ms */
    double max_diff;           /* vs cpu-ref; NAN when not comparable */
    cli_tensor *outputs;
    uint32_t n_outputs;
} bench_result;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* median, min, max of N samples (sorted in place) */
static void stats(double *v, size_t n, double out[3])
{
    qsort(v, n, sizeof *v, cmp_double);
    out[0] = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    out[1] = v[0];
    out[2] = v[n - 1];
}

static void outputs_free(bench_result *r)
{
    for (uint32_t i = 0; r->outputs && i < r->n_outputs; i++)
        cli_tensor_free(&r->outputs[i]);
    free(r->outputs);
    r->outputs = NULL;
}

/* Compile REPEAT times (timing each), run REPEAT times after one warm-up
 * run, keep the last outputs. Prints why when the backend cannot. */
static int bench_one(rlx_runtime *rt, const rlx_model *m, uint64_t seed,
                     uint64_t repeat, double *samples, bench_result *r)
{
    cli_model_exec x;
    memset(&x, 0, sizeof x);
    for (uint64_t i = 0; i < repeat; i++) {
        if (i)
            cli_model_exec_destroy(&x);
        if (cli_model_exec_create_ex(rt, m, r->id, r->fallback, &x) !=
            CLI_EXIT_OK)
            return CLI_EXIT_FAILURE;
        samples[i] = x.compile_ms;
    }
    stats(samples, repeat, r->compile);
    cli_format(r->placement, sizeof r->placement, "%s",
               rlx_program_placement_summary(x.program));

    int rc = CLI_EXIT_OK;
    uint32_t n_in = rlx_program_input_count(x.program);
    cli_tensor *in = calloc(n_in ? n_in : 1, sizeof *in);
    const char **names = calloc(n_in ? n_in : 1, sizeof *names);
    if (!in || !names)
        rc = cli_usage_error("bench: out of memory");
    for (uint32_t i = 0; rc == CLI_EXIT_OK && i < n_in; i++) {
        rc = cli_input_seeded(x.program, i, seed, &in[i]);
        if (rc == CLI_EXIT_OK &&
            rlx_program_slot(x.program, RLX_SLOT_INPUT, i, &names[i], NULL,
                             NULL, NULL) != RLX_OK)
            rc = cli_runtime_error("cannot describe an input");
    }
    /* one warm-up run, then the timed ones: inputs set, run */
    for (uint64_t k = 0; rc == CLI_EXIT_OK && k <= repeat; k++) {
        double t0 = cli_now_ms();
        for (uint32_t i = 0; rc == CLI_EXIT_OK && i < n_in; i++)
            rc = cli_input_set(x.program, names[i], &in[i]);
        if (rc == CLI_EXIT_OK && rlx_program_run(x.program) != RLX_OK)
            rc = cli_runtime_error("run failed");
        if (k > 0)
            samples[k - 1] = cli_now_ms() - t0;
    }
    if (rc == CLI_EXIT_OK) {
        stats(samples, repeat, r->run);
        r->n_outputs = rlx_program_output_count(x.program);
        r->outputs = calloc(r->n_outputs ? r->n_outputs : 1,
                            sizeof *r->outputs);
        if (!r->outputs)
            rc = cli_usage_error("bench: out of memory");
        for (uint32_t i = 0; rc == CLI_EXIT_OK && i < r->n_outputs; i++)
            rc = cli_output_copy(x.program, i, &r->outputs[i]);
    }
    for (uint32_t i = 0; in && i < n_in; i++)
        cli_tensor_free(&in[i]);
    free(in);
    free(names);
    cli_model_exec_destroy(&x);
    if (rc != CLI_EXIT_OK)
        outputs_free(r);
    r->ok = rc == CLI_EXIT_OK;
    return rc;
}

/* Placement is worth a line when part of the model ran elsewhere: the
 * summary then names a second target ("..., 2 on cpu-ref (gelu x2)"). */
static int placement_is_split(const bench_result *r)
{
    const char *on = strstr(r->placement, " on ");
    return on && strstr(on + 1, " on ");
}

static double max_diff(const bench_result *a, const bench_result *ref)
{
    double d = 0.0;
    if (!a->ok || !ref->ok || a->n_outputs != ref->n_outputs)
        return NAN;
    for (uint32_t i = 0; i < a->n_outputs; i++) {
        const cli_tensor *x = &a->outputs[i], *y = &ref->outputs[i];
        if (x->count != y->count)
            return NAN;
        for (size_t k = 0; k < x->count; k++) {
            double u = cli_tensor_get(x, k), v = cli_tensor_get(y, k);
            if (isnan(u) != isnan(v))
                return INFINITY;
            if (!isnan(u) && u != v && fabs(u - v) > d)
                d = fabs(u - v); /* inf vs the same inf: equal */
        }
    }
    return d;
}

typedef struct bench_options {
    const char *model;
    uint64_t repeat, seed;
    const char *backends[BENCH_MAX_BACKENDS];
    int n_backends;
    int fallbacks[3];          /* --fallback, in order */
    int n_fallbacks;
    cli_allow allow;           /* --allow-custom-ops */
    const char *shapes[BENCH_MAX_BACKENDS]; /* --shape NAME=d0,d1,... */
    int n_shapes;
} bench_options;

static int parse(int argc, char **argv, bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->repeat = 20;
    for (int i = 1; i < argc; i++) {
        int missing = 0, rc;
        const char *v;
        if ((rc = cli_allow_option(argc, argv, &i, "bench", &o->allow)) !=
            0) {
            if (rc < 0)
                return -rc;
        } else if ((v = cli_option_value(argc, argv, &i, "--repeat",
                                         &missing))) {
            if (cli_parse_u64(v, 1, BENCH_REPEAT_MAX, &o->repeat) != 0)
                return cli_usage_error("bench: --repeat wants 1..%d, not "
                                       "'%s'", BENCH_REPEAT_MAX, v);
        } else if ((v = cli_option_value(argc, argv, &i, "--seed",
                                         &missing))) {
            if (cli_parse_u64(v, 0, UINT64_MAX, &o->seed) != 0)
                return cli_usage_error("bench: bad --seed '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--shape",
                                         &missing))) {
            if (o->n_shapes >= BENCH_MAX_BACKENDS)
                return cli_usage_error("bench: at most %d --shape",
                                       BENCH_MAX_BACKENDS);
            o->shapes[o->n_shapes++] = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--backend",
                                         &missing))) {
            if (o->n_backends >= BENCH_MAX_BACKENDS)
                return cli_usage_error("bench: at most %d --backend",
                                       BENCH_MAX_BACKENDS);
            o->backends[o->n_backends++] = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--fallback",
                                         &missing))) {
            int f = cli_fallback_parse(v);
            if (f < 0 || o->n_fallbacks >= 3)
                return cli_usage_error("bench: --fallback wants split, whole "
                                       "or none (each once), not '%s'", v);
            o->fallbacks[o->n_fallbacks++] = f;
        } else if (missing) {
            return cli_usage_error("bench: %s needs a value", argv[i]);
        } else if (argv[i][0] == '-') {
            return cli_usage_error("bench: unknown option '%s'", argv[i]);
        } else if (o->model) {
            return cli_usage_error("bench: one model at a time ('%s' and "
                                   "'%s')", o->model, argv[i]);
        } else {
            o->model = argv[i];
        }
    }
    if (!o->model)
        return cli_usage_error("bench: which model? rlx bench MODEL.yaml");
    return CLI_EXIT_OK;
}

int cli_cmd_bench(int argc, char **argv)
{
    bench_options o;
    int rc = parse(argc, argv, &o);
    if (rc != CLI_EXIT_OK)
        return rc;
    rlx_runtime *rt = NULL;
    rlx_model *m = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        return cli_runtime_error("cannot create the runtime");
    if ((rc = cli_allow_apply(rt, &o.allow)) != CLI_EXIT_OK ||
        (rc = cli_model_open(o.model, &m)) != CLI_EXIT_OK) {
        rlx_runtime_destroy(rt);
        return rc;
    }
    for (int i = 0; i < o.n_shapes; i++)
        if ((rc = cli_model_shape(m, o.shapes[i])) != CLI_EXIT_OK) {
            cli_model_close(m);
            rlx_runtime_destroy(rt);
            return rc;
        }

    /* cpu-ref first (the reference), then the others */
    bench_result res[BENCH_MAX_BACKENDS + 1];
    int n = 0;
    memset(res, 0, sizeof res);
    res[n++].id = "cpu-ref";
    if (o.n_backends) {
        for (int i = 0; i < o.n_backends; i++) {
            if (!rlx_runtime_find_backend(rt, o.backends[i])) {
                fprintf(stderr, "rlx: bench: no backend '%s'. Fix: see "
                                "'rlx devices'\n", cli_text(o.backends[i]));
                rc = CLI_EXIT_FAILURE;
                goto done;
            }
            if (strcmp(o.backends[i], "cpu-ref"))
                res[n++].id = o.backends[i];
        }
    } else {
        uint32_t nb = rlx_runtime_backend_count(rt);
        for (uint32_t i = 0; i < nb && n <= BENCH_MAX_BACKENDS; i++) {
            const rlx_backend *b = rlx_runtime_backend(rt, i);
            if (rlx_backend_executes(b) && strcmp(rlx_backend_id(b),
                                                  "cpu-ref") &&
                rlx_backend_probe(b, NULL) == RLX_OK)
                res[n++].id = rlx_backend_id(b);
        }
    }

    /* one row per backend and placement policy (cpu-ref, the
     * reference, runs once with the default) */
    static const char *const modes[] = { "split", "whole", "none" };
    for (int i = 0; i < n; i++) {
        res[i].fallback = -1;
        cli_format(res[i].label, sizeof res[i].label, "%s", res[i].id);
    }
    if (o.n_fallbacks) {
        bench_result base[BENCH_MAX_BACKENDS + 1];
        int nb = n;
        memcpy(base, res, sizeof base);
        n = 1;
        for (int i = 1; i < nb; i++)
            for (int f = 0; f < o.n_fallbacks; f++) {
                if (n > BENCH_MAX_BACKENDS)
                    break;
                res[n] = base[i];
                res[n].fallback = o.fallbacks[f];
                cli_format(res[n].label, sizeof res[n].label, "%s/%s",
                           base[i].id, modes[o.fallbacks[f]]);
                n++;
            }
    }
    double *samples = malloc(o.repeat * sizeof *samples);
    if (!samples) {
        rc = cli_usage_error("bench: out of memory");
        goto done;
    }
    printf("Model %s (%s): seed %llu, %llu repeats; times in ms\n\n",
           cli_message(o.model), cli_model_name(m),
           (unsigned long long)o.seed,
           (unsigned long long)o.repeat);
    printf("%-14s %27s  %27s  %9s  %12s\n", "", "compile (median min max)",
           "run (median min max)", "vs ref", "max |diff|");
    for (int i = 0; i < n; i++) {
        fflush(stdout);
        if (bench_one(rt, m, o.seed, o.repeat, samples, &res[i]) !=
            CLI_EXIT_OK) {
            printf("%-14s cannot run this model (see above)\n",
                   res[i].label);
            if (i == 0)
                rc = CLI_EXIT_FAILURE; /* no reference */
            continue;
        }
        res[i].max_diff = max_diff(&res[i], &res[0]);
        char ratio[32] = "-";
        if (res[0].ok && res[i].run[0] > 0)
            cli_format(ratio, sizeof ratio, "%.2fx",
                       res[0].run[0] / res[i].run[0]);
        printf("%-14s %9.3f %8.3f %8.3f  %9.3f %8.3f %8.3f  %9s  %12.3g\n",
               res[i].label, res[i].compile[0], res[i].compile[1],
               res[i].compile[2], res[i].run[0], res[i].run[1],
               res[i].run[2], ratio, res[i].max_diff);
        if (placement_is_split(&res[i]))
            printf("%-14s   placement: %s\n", "",
                   cli_message(res[i].placement));
    }
    printf("\n'vs ref': cpu-ref's median run time / this backend's; "
           "'max |diff|': largest\nabsolute output difference from "
           "cpu-ref (same inputs).\n");
    free(samples);
done:
    for (int i = 0; i < n; i++)
        outputs_free(&res[i]);
    cli_model_close(m);
    rlx_runtime_destroy(rt);
    return rc;
}
