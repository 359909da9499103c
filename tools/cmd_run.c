/*
 * cmd_run.c - `rlx run MODEL.onnx|MODEL.yaml`: load a model, compile it on a device,
 * feed it inputs from .npy files (or seeded random data), run it, and
 * report which backend ran it, how long it took and what came out, so a
 * user can try a model on a machine's best device with one command.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "cli.h"
#include "model_run.h"
#include "npy.h"

#define RUN_INPUTS_MAX 64
#define RUN_REPEAT_MAX 100000
#define RUN_SHOW_VALUES 8

typedef struct run_input_arg {
    char *name; /* "x" of "--input x=file.npy", malloc'd */
    const char *file;
    int used;
} run_input_arg;

typedef struct run_options {
    const char *model;
    const char *device;
    const char *output_dir;
    const char *chain;    /* --device-chain */
    int fallback;         /* --fallback, or -1 */
    int pick_fastest;     /* --pick fastest */
    int why;              /* --why, -v: every candidate, not one line */
    uint64_t seed;
    uint64_t repeat;
    cli_allow allow;      /* --allow-custom-ops */
    run_input_arg inputs[RUN_INPUTS_MAX];
    int n_inputs;
    const char *shapes[RUN_INPUTS_MAX]; /* --shape NAME=d0,d1,... */
    int n_shapes;
} run_options;

static void run_options_free(run_options *o)
{
    for (int i = 0; i < o->n_inputs; i++)
        free(o->inputs[i].name);
}

static int run_input_parse(run_options *o, const char *v)
{
    const char *eq = strchr(v, '=');
    if (!eq || eq == v || !eq[1])
        return cli_usage_error("run: --input wants NAME=FILE.npy, not '%s'",
                               v);
    if (o->n_inputs >= RUN_INPUTS_MAX)
        return cli_usage_error("run: at most %d --input options",
                               RUN_INPUTS_MAX);
    for (int i = 0; i < o->n_inputs; i++)
        if (strlen(o->inputs[i].name) == (size_t)(eq - v) &&
            !strncmp(o->inputs[i].name, v, (size_t)(eq - v)))
            return cli_usage_error("run: input '%.*s' given twice",
                                   (int)(eq - v), v);
    run_input_arg *a = &o->inputs[o->n_inputs];
    a->name = malloc((size_t)(eq - v) + 1);
    if (!a->name)
        return cli_usage_error("run: out of memory");
    memcpy(a->name, v, (size_t)(eq - v));
    a->name[eq - v] = '\0';
    a->file = eq + 1;
    a->used = 0;
    o->n_inputs++;
    return 0;
}

static int run_options_parse(int argc, char **argv, run_options *o)
{
    memset(o, 0, sizeof *o);
    o->repeat = 1;
    o->fallback = -1;
    for (int i = 1; i < argc; i++) {
        int missing = 0, rc;
        const char *v;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_usage_print(stdout);
            return -1;
        } else if ((rc = cli_allow_option(argc, argv, &i, "run",
                                          &o->allow)) != 0) {
            if (rc < 0)
                return -rc;
        } else if ((v = cli_option_value(argc, argv, &i, "--device",
                                         &missing))) {
            if (cli_device_check("run", v) != 0)
                return CLI_EXIT_USAGE;
            o->device = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--input",
                                         &missing))) {
            if ((rc = run_input_parse(o, v)) != 0)
                return rc;
        } else if ((v = cli_option_value(argc, argv, &i, "--shape",
                                         &missing))) {
            if (o->n_shapes >= RUN_INPUTS_MAX)
                return cli_usage_error("run: at most %d --shape options",
                                       RUN_INPUTS_MAX);
            o->shapes[o->n_shapes++] = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--seed",
                                         &missing))) {
            if (cli_parse_u64(v, 0, UINT64_MAX, &o->seed) != 0)
                return cli_usage_error("run: --seed wants a non-negative "
                                       "integer, not '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--repeat",
                                         &missing))) {
            if (cli_parse_u64(v, 1, RUN_REPEAT_MAX, &o->repeat) != 0)
                return cli_usage_error("run: --repeat wants a number from 1 "
                                       "to %d, not '%s'", RUN_REPEAT_MAX, v);
        } else if ((v = cli_option_value(argc, argv, &i, "--output",
                                         &missing))) {
            if (!*v)
                return cli_usage_error("run: --output wants a directory "
                                       "for the outputs' .npy files, not "
                                       "an empty string");
            o->output_dir = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--device-chain",
                                         &missing))) {
            o->chain = v;
        } else if ((v = cli_option_value(argc, argv, &i, "--fallback",
                                         &missing))) {
            if ((o->fallback = cli_fallback_parse(v)) < 0)
                return cli_usage_error("run: --fallback wants split, whole "
                                       "or none, not '%s'", v);
        } else if ((v = cli_option_value(argc, argv, &i, "--pick",
                                         &missing))) {
            if (strcmp(v, "fastest") != 0)
                return cli_usage_error("run: --pick knows only 'fastest', "
                                       "not '%s'", v);
            o->pick_fastest = 1;
        } else if (!strcmp(argv[i], "--why") || !strcmp(argv[i], "-v") ||
                   !strcmp(argv[i], "--verbose")) {
            o->why = 1;
        } else if (missing) {
            return cli_usage_error("run: option '%s' needs a value", argv[i]);
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage_error("run: unknown option '%s'", argv[i]);
        } else if (o->model) {
            return cli_usage_error("run: unexpected argument '%s' (one model "
                                   "only)", argv[i]);
        } else {
            o->model = argv[i];
        }
    }
    if (!o->model)
        return cli_usage_error("run: no model given; usage: rlx run "
                               "MODEL.yaml [options]");
    if (o->device && (o->chain || o->pick_fastest))
        return cli_usage_error("run: --device names one device; it does "
                               "not go with --device-chain or --pick");
    return 0;
}

/* ---- inputs ---------------------------------------------------------- */

static run_input_arg *run_input_find(run_options *o, const char *name)
{
    for (int i = 0; i < o->n_inputs; i++)
        if (!strcmp(o->inputs[i].name, name))
            return &o->inputs[i];
    return NULL;
}

/* Reads ARG's file and checks it against input I of P. */
static int run_input_read(const rlx_program *p, uint32_t i,
                          const run_input_arg *arg, cli_tensor *t)
{
    char err[1024], have[160], want[160];
    rlx_dtype dtype;
    uint32_t rank;
    const int64_t *dims;

    if (cli_npy_read(arg->file, t, err, sizeof err) != 0) {
        fprintf(stderr, "rlx: input '%s': %s\n", cli_text(arg->name),
                cli_message(err));
        return CLI_EXIT_FAILURE;
    }
    rlx_program_slot(p, RLX_SLOT_INPUT, i, NULL, &dtype, &rank, &dims);
    if (t->dtype == CLI_NPY_U16 && dtype == RLX_DTYPE_BF16)
        t->dtype = RLX_DTYPE_BF16; /* '<u2' carries bf16 bits */
    int same = t->dtype == dtype && t->rank == rank &&
               (rank == 0 || !memcmp(t->dims, dims, rank * sizeof *dims));
    if (same)
        return CLI_EXIT_OK;
    cli_shape_format(have, sizeof have, t->rank, t->dims);
    cli_shape_format(want, sizeof want, rank, dims);
    fprintf(stderr, "rlx: input '%s': %s holds %s %s, but the model wants "
            "%s %s.\nFix: save an array of that shape and dtype (numpy: "
            "%s%s%s)\n", cli_text(arg->name), cli_message(arg->file),
            t->dtype == CLI_NPY_U16 ? "u16" : rlx_dtype_name(t->dtype), have,
            rlx_dtype_name(dtype), want,
            dtype == RLX_DTYPE_BF16 ? "bf16 travels as its raw bits, "
                                      "(a.astype('<f4').view('<u4') >> 16)"
                                      ".astype('<u2')"
                                    : "a.astype('",
            dtype == RLX_DTYPE_BF16 ? ""
            : cli_npy_descr(dtype)  ? cli_npy_descr(dtype) : "?",
            dtype == RLX_DTYPE_BF16 ? "" : "')");
    cli_tensor_free(t);
    return CLI_EXIT_FAILURE;
}

static int run_inputs_set(rlx_program *p, run_options *o, int quiet)
{
    uint32_t n = rlx_program_input_count(p);
    for (uint32_t i = 0; i < n; i++) {
        const char *name = NULL;
        cli_tensor t;
        char shape[160];
        int rc;

        rlx_program_slot(p, RLX_SLOT_INPUT, i, &name, NULL, NULL, NULL);
        run_input_arg *arg = run_input_find(o, name);
        if (arg) {
            arg->used = 1;
            rc = run_input_read(p, i, arg, &t);
        } else {
            rc = cli_input_seeded(p, i, o->seed, &t);
        }
        if (rc != CLI_EXIT_OK)
            return rc;
        cli_shape_format(shape, sizeof shape, t.rank, t.dims);
        if (quiet)
            ;
        else if (arg)
            printf("Input:   %s %s %s from %s\n", cli_text(name), shape,
                   rlx_dtype_name(t.dtype), cli_message(arg->file));
        else
            printf("Input:   %s %s %s, random in [-1, 1) from seed %llu\n",
                   cli_text(name), shape, rlx_dtype_name(t.dtype),
                   (unsigned long long)o->seed);
        rc = cli_input_set(p, name, &t);
        cli_tensor_free(&t);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    for (int i = 0; i < o->n_inputs; i++) {
        if (o->inputs[i].used)
            continue;
        fprintf(stderr, "rlx: run: the model has no input '%s'.\nFix: name "
                "one of its inputs:", cli_text(o->inputs[i].name));
        for (uint32_t k = 0; k < n; k++) {
            const char *name = NULL;
            rlx_program_slot(p, RLX_SLOT_INPUT, k, &name, NULL, NULL, NULL);
            fprintf(stderr, " %s", cli_text(name ? name : "?"));
        }
        fputc('\n', stderr);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

/* ---- running and reporting ------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The session's reasons, indented under a heading, one line each
 * (--why; `rlx demo` too). */
void cli_explain_print(const char *why)
{
    why = why ? cli_message(why) : NULL;
    printf("Why:\n");
    while (why && *why) {
        const char *end = strchr(why, '\n');
        int n = end ? (int)(end - why) : (int)strlen(why);
        printf("  %.*s\n", n, why);
        why = end ? end + 1 : NULL;
    }
}

/* One line of the session's reasons: its decisions (what was asked, what
 * was chosen, what declined or fell back), not every candidate it
 * weighed (indented lines) nor the placement, which has its own line.
 * --why prints them all; `rlx devices` lists every backend. */
void cli_explain_brief_print(const char *why)
{
    int skipped = 0, first = 1;
    why = why ? cli_message(why) : NULL;
    printf("Why:     ");
    while (why && *why) {
        const char *end = strchr(why, '\n');
        int n = end ? (int)(end - why) : (int)strlen(why);
        const char *line = why;
        why = end ? end + 1 : NULL;
        if (n == 0)
            continue;
        if (line[0] == ' ') {
            skipped++;
            continue;
        }
        if (!strncmp(line, "placed over ", 12))
            continue;
        /* a compile error is long: its first clause says enough here */
        const char *colon = memchr(line, ':', (size_t)n);
        if (!strncmp(line, "backend '", 9) && colon &&
            strstr(line, "could not compile") &&
            strstr(line, "could not compile") < colon)
            n = (int)(colon - line);
        if (line[n - 1] == ':')
            n--;
        static const char order[] = "; trying in order";
        if (n > (int)sizeof order - 1 &&
            !strncmp(line + n - (sizeof order - 1), order, sizeof order - 1))
            n -= (int)sizeof order - 1;
        printf("%s%.*s", first ? "" : "; ", n, line);
        first = 0;
    }
    if (skipped)
        printf(" (--why lists the %d candidate%s weighed)", skipped,
               skipped == 1 ? "" : "s");
    printf("\n");
}

/* Runs REPEAT times; *MEDIAN_MS is the median run time. */
static int run_repeat(rlx_program *p, uint64_t repeat, double *median_ms)
{
    double *t = malloc(repeat * sizeof *t);
    if (!t) {
        fputs("rlx: out of memory\n", stderr);
        return CLI_EXIT_FAILURE;
    }
    for (uint64_t i = 0; i < repeat; i++) {
        double t0 = cli_now_ms();
        if (rlx_program_run(p) != RLX_OK) {
            free(t);
            return cli_runtime_error("run failed");
        }
        t[i] = cli_now_ms() - t0;
    }
    qsort(t, repeat, sizeof *t, cmp_double);
    *median_ms = repeat % 2 ? t[repeat / 2]
                            : (t[repeat / 2 - 1] + t[repeat / 2]) / 2;
    free(t);
    return CLI_EXIT_OK;
}

/* DIR/NAME.npy, with '/' in NAME replaced so it stays inside DIR. */
static int run_output_write(const char *dir, const char *name,
                            const cli_tensor *t)
{
    char path[4096], err[1024];
    int n = snprintf(path, sizeof path, "%s/%s.npy", dir, name);
    if (n < 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "rlx: output path too long\n");
        return CLI_EXIT_FAILURE;
    }
    /* the name as a file name: only [A-Za-z0-9._-] kept */
    char *stem = path + strlen(dir) + 1, *ext = path + n - 4;
    for (char *c = stem; c < ext; c++)
        if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
              (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' ||
              *c == '-'))
            *c = '_';
    if (cli_npy_write(path, t, err, sizeof err) != 0) {
        fprintf(stderr, "rlx: %s\n", cli_message(err));
        return CLI_EXIT_FAILURE;
    }
    printf("  written: %s\n", cli_message(path));
    return CLI_EXIT_OK;
}

/* DIR and its missing parents, like mkdir -p: --output names a folder
 * that need not exist yet. */
static int run_output_dir_make(const char *dir)
{
    char path[4096];
    int n = snprintf(path, sizeof path, "%s", dir);
    if (n <= 0 || (size_t)n >= sizeof path) {
        fprintf(stderr, "rlx: run: the --output path is %zu bytes, longer "
                "than %zu\nFix: pick a shorter --output directory\n",
                strlen(dir), sizeof path - 1);
        return CLI_EXIT_FAILURE;
    }
    for (char *c = path + 1;; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char was = *c;
        *c = '\0';
        struct stat st;
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "rlx: run: cannot create output directory "
                    "'%s': %s\nFix: pick a directory you can write to\n",
                    cli_message(path), strerror(errno));
            return CLI_EXIT_FAILURE;
        }
        if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
            fprintf(stderr, "rlx: run: '%s' is not a directory\nFix: pick "
                    "another --output directory\n", cli_message(path));
            return CLI_EXIT_FAILURE;
        }
        *c = was;
        if (!was)
            return CLI_EXIT_OK;
    }
}

/* --output's directory, made and checked before the model runs: a run
 * can take long, and its results must not be lost to a bad path. */
static int run_output_dir_check(const char *dir)
{
    if (run_output_dir_make(dir) != CLI_EXIT_OK)
        return CLI_EXIT_FAILURE;
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "rlx: run: cannot write to the output directory "
                "'%s': %s\nFix: pick a directory you can write to\n",
                cli_message(dir), strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/* Every output's file name fits (NAME_MAX, PATH_MAX), checked once the
 * program is known and before it runs. */
static int run_output_paths_check(const rlx_program *p, const char *dir)
{
    uint32_t n = rlx_program_output_count(p);
    for (uint32_t i = 0; dir && i < n; i++) {
        const char *name = NULL;
        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &name, NULL, NULL, NULL);
        size_t len = name ? strlen(name) : 0;
        if (len + 4 > NAME_MAX) {
            fprintf(stderr, "rlx: run: output '%s' is %zu bytes long, too "
                    "long for a file name (%s.npy)\nFix: give the output "
                    "a shorter name in the model, or leave out --output\n",
                    cli_text(name), len, cli_text(name));
            return CLI_EXIT_FAILURE;
        }
        if (strlen(dir) + 1 + len + 4 >= PATH_MAX) {
            fprintf(stderr, "rlx: run: the path of output '%s' under "
                    "--output '%s' is longer than %d bytes\nFix: pick a "
                    "shorter --output directory\n", cli_text(name),
                    cli_text(dir), PATH_MAX - 1);
            return CLI_EXIT_FAILURE;
        }
    }
    return CLI_EXIT_OK;
}

static int run_outputs_print(const rlx_program *p, const run_options *o)
{
    uint32_t n = rlx_program_output_count(p);
    for (uint32_t i = 0; i < n; i++) {
        const char *name = NULL;
        cli_tensor t;
        char shape[160];
        double sum = 0, sum_sq = 0;
        int rc;

        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &name, NULL, NULL, NULL);
        if ((rc = cli_output_copy(p, i, &t)) != CLI_EXIT_OK)
            return rc;
        cli_shape_format(shape, sizeof shape, t.rank, t.dims);
        printf("Output:  %s %s %s\n  values:", cli_text(name), shape,
               rlx_dtype_name(t.dtype));
        for (size_t k = 0; k < t.count; k++) {
            double v = cli_tensor_get(&t, k);
            if (k < RUN_SHOW_VALUES)
                printf(" %.6g", v);
            sum += v;
            sum_sq += v * v;
        }
        printf("%s\n", t.count > RUN_SHOW_VALUES ? " ..." : "");
        printf("  checksum: sum %.9g, sum of squares %.9g\n", sum, sum_sq);
        if (o->output_dir)
            rc = run_output_write(o->output_dir, name, &t);
        cli_tensor_free(&t);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    return CLI_EXIT_OK;
}

/* The one-line placement, and a warning when work fell back to the
 * CPU: a user who asked for an accelerator should not find out later. */
static void placement_print(const rlx_program *p)
{
    printf("Placement: %s\n",
           cli_message(rlx_program_placement_summary(p)));
    uint32_t n = rlx_program_fallback_count(p);
    if (n)
        fprintf(stderr, "rlx: warning: %u node%s of the model run%s on the "
                "CPU, not on %s (%s).\nFix: nothing, if that is fine; "
                "`rlx check MODEL` shows why each node moved; "
                "--fallback none refuses instead\n", n, n == 1 ? "" : "s",
                n == 1 ? "s" : "", rlx_backend_device_name(
                    rlx_program_backend(p)),
                cli_message(rlx_program_placement_summary(p)));
}

/* ---- --device-chain and --pick fastest: the multi-device runner ------ */

typedef struct runner_ctx {
    const rlx_model *m;
    run_options *o;
    int rc;
    int printed;
} runner_ctx;

/* Every program the runner compiles gets the model's weights and the
 * same inputs (seeded ones are the same for every device). */
static rlx_status runner_hook(void *ctx, rlx_program *p)
{
    runner_ctx *c = ctx;
    rlx_status st = rlx_model_set_params(c->m, p);
    if (st != RLX_OK)
        return st;
    if (run_output_paths_check(p, c->o->output_dir) != CLI_EXIT_OK) {
        c->rc = CLI_EXIT_FAILURE;
        return RLX_ERR_INVALID_ARGUMENT;
    }
    c->rc = run_inputs_set(p, c->o, c->printed++);
    return c->rc == CLI_EXIT_OK ? RLX_OK : RLX_ERR_INVALID_ARGUMENT;
}

static int run_with_runner(rlx_runtime *rt, const rlx_model *m,
                           run_options *o)
{
    rlx_runner *r;
    runner_ctx ctx = { m, o, CLI_EXIT_OK, 0 };
    rlx_program *p = NULL;
    const char *device = NULL;
    if (rlx_runner_create(rt, rlx_model_graph(m), NULL, &r) != RLX_OK)
        return cli_runtime_error("cannot create the multi-device runner");
    if (o->fallback >= 0 &&
        rlx_runner_set_fallback(r, (rlx_fallback)o->fallback) != RLX_OK) {
        rlx_runner_destroy(r);
        return cli_runtime_error("cannot set the fallback policy");
    }
    rlx_runner_set_compile_hook(r, runner_hook, &ctx);
    printf("Model:   %s (%s)\n", cli_model_name(m), cli_message(o->model));
    if (!o->chain && rlx_runner_default_chain())
        printf("Devices: RLX_DEVICE_CHAIN=%s\n",
               cli_text(rlx_runner_default_chain()));
    int rc = CLI_EXIT_OK;
    if (o->pick_fastest) {
        const char *winner = NULL;
        rlx_status st = rlx_runner_benchmark(r, o->chain, 5, &winner);
        printf("Timing (median of 5 runs after one warm-up):\n");
        for (uint32_t i = 0; i < rlx_runner_bench_count(r); i++) {
            double ms;
            rlx_status rs;
            const char *why;
            rlx_runner_bench_result(r, i, &device, &ms, &rs, &why);
            if (rs == RLX_OK)
                printf("  %-16s %10.3f ms%s\n", cli_text(device), ms,
                       winner && !strcmp(device, winner) ? "  <- fastest"
                                                         : "");
            else
                printf("  %-16s %10s    %s\n", cli_text(device), "failed",
                       cli_message(why));
        }
        if (st != RLX_OK)
            rc = ctx.rc ? ctx.rc : cli_runtime_error("no device ran it");
        else if (rlx_runner_run(r, winner, &p) != RLX_OK)
            rc = cli_runtime_error("run failed");
    } else {
        rlx_status st = rlx_runner_run_chain(r, o->chain, &p);
        printf("Chain:\n");
        for (uint32_t i = 0; i < rlx_runner_attempt_count(r); i++) {
            const char *why;
            rlx_status as;
            rlx_runner_attempt(r, i, &device, &as, &why);
            if (as == RLX_OK)
                printf("  %-16s ran\n", cli_text(device));
            else
                printf("  %-16s failed: %s\n", cli_text(device),
                       cli_message(why));
        }
        if (st != RLX_OK)
            rc = ctx.rc ? ctx.rc : cli_runtime_error("run failed");
    }
    if (rc == CLI_EXIT_OK && p) {
        const rlx_backend *b = rlx_program_backend(p);
        printf("Backend: %s on %s:%u\n", rlx_backend_id(b),
               rlx_backend_device_name(b),
               (unsigned)rlx_program_device_index(p));
        placement_print(p);
        double run_ms = 0;
        rc = run_repeat(p, o->repeat, &run_ms);
        if (rc == CLI_EXIT_OK) {
            printf("Time:    run %.3f ms", run_ms);
            if (o->repeat > 1)
                printf(" (median of %llu)", (unsigned long long)o->repeat);
            printf("\n");
            rc = run_outputs_print(p, o);
        }
    }
    rlx_runner_destroy(r);
    return rc;
}

static int run_model(rlx_runtime *rt, const rlx_model *m, run_options *o)
{
    cli_model_exec x;
    double run_ms = 0;
    /* RLX_DEVICE_CHAIN is the runner's: plain `rlx run` follows it rather
     * than run on the session's device without a word, and --device,
     * which names one device, says that it left the chain out */
    const char *env_chain = rlx_runner_default_chain();
    if (o->chain || o->pick_fastest || (env_chain && !o->device))
        return run_with_runner(rt, m, o);
    if (env_chain)
        fprintf(stderr, "rlx: note: RLX_DEVICE_CHAIN='%s' is not used: "
                "--device %s names the device\n", cli_text(env_chain),
                cli_text(o->device));
    int rc = cli_model_exec_create_ex(rt, m, o->device, o->fallback, &x);
    if (rc != CLI_EXIT_OK)
        return rc;
    /* After compile: the backend that runs the graph, which is not the
     * session's when the fallback policy moved the whole graph. */
    const rlx_backend *b = rlx_program_backend(x.program);
    const rlx_backend *sb = rlx_session_backend(x.session);
    printf("Model:   %s (%s)\n", cli_model_name(m), cli_message(o->model));
    printf("Backend: %s on %s:%u", rlx_backend_id(b),
           rlx_backend_device_name(b),
           (unsigned)rlx_program_device_index(x.program));
    if (b != sb)
        printf(" (the whole graph; %s on %s:%u declined it)",
               rlx_backend_id(sb), rlx_backend_device_name(sb),
               (unsigned)rlx_session_device_index(x.session));
    printf("\nPlugin:  %s\n", rlx_backend_plugin_path(b));
    if (o->why)
        cli_explain_print(rlx_session_explain(x.session));
    else
        cli_explain_brief_print(rlx_session_explain(x.session));
    placement_print(x.program);
    rc = run_output_paths_check(x.program, o->output_dir);
    if (rc == CLI_EXIT_OK)
        rc = run_inputs_set(x.program, o, 0);
    if (rc == CLI_EXIT_OK)
        rc = run_repeat(x.program, o->repeat, &run_ms);
    if (rc == CLI_EXIT_OK) {
        printf("Time:    compile %.3f ms, run %.3f ms", x.compile_ms, run_ms);
        if (o->repeat > 1)
            printf(" (median of %llu)", (unsigned long long)o->repeat);
        printf("\n");
        rc = run_outputs_print(x.program, o);
    }
    cli_model_exec_destroy(&x);
    return rc;
}

/* ONNX models compile for the shapes of their inputs: those of --shape,
 * then those of the --input files. */
static int run_shapes_apply(rlx_model *m, run_options *o)
{
    for (int i = 0; i < o->n_shapes; i++) {
        int rc = cli_model_shape(m, o->shapes[i]);
        if (rc != CLI_EXIT_OK)
            return rc;
    }
    if (strcmp(rlx_model_format(m), "onnx") != 0)
        return CLI_EXIT_OK;
    for (int i = 0; i < o->n_inputs; i++) {
        uint32_t n = rlx_model_input_count(m), k;
        for (k = 0; k < n; k++) {
            const char *name;
            rlx_model_input(m, k, &name, NULL, NULL, NULL, NULL);
            if (!strcmp(name, o->inputs[i].name))
                break;
        }
        if (k == n)
            continue; /* reported with the other inputs */
        cli_tensor t;
        char err[1024];
        if (cli_npy_read(o->inputs[i].file, &t, err, sizeof err) != 0) {
            fprintf(stderr, "rlx: input '%s': %s\n", o->inputs[i].name, err);
            return CLI_EXIT_FAILURE;
        }
        /* small 0-d and 1-d integer inputs are shape arguments (a
         * Reshape's shape, Slice's starts), like a Resize's float scales
         * and a bool flag: fixed, so that they fold (the result is the
         * same for this run) */
        int fix = t.rank <= 1 &&
                  (((t.dtype == RLX_DTYPE_I64 || t.dtype == RLX_DTYPE_I32) &&
                    t.count <= 64) ||
                   (t.dtype == RLX_DTYPE_F32 &&
                    t.count <= 8) ||
                   (t.dtype == RLX_DTYPE_BOOL && t.rank == 0));
        rlx_status st = fix ? rlx_model_set_input_value(
                                  m, o->inputs[i].name, t.dtype, t.rank,
                                  t.dims, t.data)
                            : rlx_model_set_input_shape(
                                  m, o->inputs[i].name, t.rank, t.dims);
        if (fix && st == RLX_OK)
            o->inputs[i].used = 1;
        cli_tensor_free(&t);
        if (st != RLX_OK) {
            fprintf(stderr, "rlx: %s\n", rlx_last_error());
            return CLI_EXIT_FAILURE;
        }
    }
    return CLI_EXIT_OK;
}

int cli_cmd_run(int argc, char **argv)
{
    run_options o;
    rlx_runtime *rt = NULL;
    rlx_model *m = NULL;
    int rc = run_options_parse(argc, argv, &o);

    if (rc == 0 && o.output_dir)
        rc = run_output_dir_check(o.output_dir);
    if (rc == 0)
        rc = cli_model_open(o.model, &m);
    if (rc == 0)
        rc = run_shapes_apply(m, &o);
    if (rc == 0 && rlx_runtime_create(&rt, 0) != RLX_OK)
        rc = cli_runtime_error("cannot create the runtime");
    if (rc == 0)
        rc = cli_allow_apply(rt, &o.allow);
    if (rc == 0)
        rc = run_model(rt, m, &o);
    if (rc == 0 && fflush(stdout) != 0)
        rc = CLI_EXIT_FAILURE;
    cli_model_close(m);
    rlx_runtime_destroy(rt);
    run_options_free(&o);
    return rc < 0 ? CLI_EXIT_OK : rc;
}
