/*
 * bench_cnn.c - one ONNX model, one input, rlx (a backend, through the
 * ONNX importer) against ONNX Runtime's CPU execution provider (through
 * its C API, the library dlopen'ed) in ONE process: the two are timed in
 * alternating blocks (rlx, ORT, rlx, ORT, ...) so both see the same
 * machine load, and the median of every run of each side is printed with
 * the largest output difference. bench/cnn/run.sh drives it over the
 * models and thread counts under taskset and prints the table.
 *
 *   rlx-bench-cnn MODEL.onnx INPUT.npy LIBONNXRUNTIME [--threads N]
 *       [--repeat N] [--rounds N] [--device NAME] [--plugin-dir DIR]
 *
 * Prints one line: "rlx_ms ort_ms max_abs_diff max_abs_ref rlx_cpu_ms
 * ort_cpu_ms": wall-clock medians, then medians of the process's CPU time
 * per run (at one thread the latency without the time other jobs took;
 * at more, the work of every thread, ORT's spinning workers included).
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rlx/rlx.h>

#include "ort_capi.h"

#ifndef RLX_BENCH_PLUGIN_DIR
#define RLX_BENCH_PLUGIN_DIR "."
#endif

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU time of the whole process: at one thread, the run's latency
 * without the time other jobs of a shared machine took the CPU away. */
static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A little-endian float32 .npy in C order; 0 on success. */
typedef struct npy {
    float *data;
    size_t count;
    uint32_t rank;
    int64_t dims[8];
} npy;

static int npy_read(const char *path, npy *out)
{
    FILE *f = fopen(path, "rb");
    unsigned char head[10];
    if (!f || fread(head, 1, 10, f) != 10 || memcmp(head, "\x93NUMPY", 6) ||
        head[6] != 1) {
        fprintf(stderr, "%s: not a version-1 .npy file. Fix: write it with "
                        "numpy.save\n", path);
        if (f)
            fclose(f);
        return 1;
    }
    size_t hlen = (size_t)head[8] | (size_t)head[9] << 8;
    char *h = calloc(hlen + 1, 1);
    int bad = !h || fread(h, 1, hlen, f) != hlen ||
              !strstr(h, "'<f4'") || strstr(h, "True");
    const char *s = bad ? NULL : strstr(h, "'shape': (");
    out->rank = 0;
    out->count = 1;
    if (s) {
        s += 10;
        while (*s && *s != ')' && out->rank < 8) {
            char *end;
            long long d = strtoll(s, &end, 10);
            if (end == s)
                break;
            out->dims[out->rank++] = d;
            out->count *= (size_t)d;
            s = end;
            while (*s == ',' || *s == ' ')
                s++;
        }
    }
    free(h);
    if (bad || !s) {
        fprintf(stderr, "%s: only float32, little-endian, C-order arrays. "
                        "Fix: save it with numpy as float32\n", path);
        fclose(f);
        return 1;
    }
    out->data = malloc(out->count * sizeof(float) + 1);
    if (!out->data ||
        fread(out->data, sizeof(float), out->count, f) != out->count) {
        fprintf(stderr, "%s: shorter than its shape says. Fix: write it "
                        "again\n", path);
        fclose(f);
        return 1;
    }
    fclose(f);
    return 0;
}

/* ---- ONNX Runtime ---------------------------------------------------- */

typedef struct ort {
    void *lib;
    const void *const *api;
    ort_env *env;
    ort_session *sess;
    ort_meminfo *mem;
    ort_value *in;
    char *in_name, *out_name;
    ort_allocator *alloc;
} ort;

#define ORT_FN(o, type, slot) ((type)(o)->api[slot])

static int ort_ok(const ort *o, ort_status *st, const char *what)
{
    if (!st)
        return 1;
    fprintf(stderr, "ONNX Runtime: %s: %s. Fix: check the model and the "
                    "library\n", what,
            ORT_FN(o, ort_get_error_message_fn, ORT_SLOT_GET_ERROR_MESSAGE)(st));
    ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_STATUS)(st);
    return 0;
}

static int ort_open(ort *o, const char *lib, const char *model, npy *x,
                    int threads)
{
    memset(o, 0, sizeof *o);
    o->lib = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!o->lib) {
        fprintf(stderr, "cannot open %s: %s. Fix: npm install in bench/ort "
                        "(onnxruntime-node ships it)\n", lib, dlerror());
        return 1;
    }
    const ort_api_base *(*get_base)(void);
    *(void **)&get_base = dlsym(o->lib, "OrtGetApiBase");
    const ort_api_base *base = get_base ? get_base() : NULL;
    o->api = base ? base->get_api(ORT_BENCH_API_VERSION) : NULL;
    if (!o->api) {
        fprintf(stderr, "%s: no OrtGetApiBase or no API version %u. Fix: use "
                        "ONNX Runtime 1.11 or later\n", lib,
                ORT_BENCH_API_VERSION);
        return 1;
    }
    ort_options *opt = NULL;
    int ok =
        ort_ok(o, ORT_FN(o, ort_create_env_fn, ORT_SLOT_CREATE_ENV)(
                      ORT_LOGGING_LEVEL_ERROR, "rlx-bench", &o->env),
               "create env") &&
        ort_ok(o, ORT_FN(o, ort_create_session_options_fn,
                         ORT_SLOT_CREATE_SESSION_OPTIONS)(&opt),
               "session options") &&
        ort_ok(o, ORT_FN(o, ort_set_int_option_fn,
                         ORT_SLOT_SET_INTRA_OP_THREADS)(opt, threads),
               "intra-op threads") &&
        ort_ok(o, ORT_FN(o, ort_set_int_option_fn,
                         ORT_SLOT_SET_INTER_OP_THREADS)(opt, 1),
               "inter-op threads") &&
        ort_ok(o, ORT_FN(o, ort_set_int_option_fn,
                         ORT_SLOT_SET_EXECUTION_MODE)(opt,
                                                      ORT_EXECUTION_SEQUENTIAL),
               "execution mode") &&
        ort_ok(o, ORT_FN(o, ort_set_int_option_fn,
                         ORT_SLOT_SET_GRAPH_OPT_LEVEL)(opt,
                                                       ORT_GRAPH_OPT_ENABLE_ALL),
               "optimization level") &&
        ort_ok(o, ORT_FN(o, ort_create_session_fn, ORT_SLOT_CREATE_SESSION)(
                      o->env, model, opt, &o->sess),
               "create session") &&
        ort_ok(o, ORT_FN(o, ort_get_default_allocator_fn,
                         ORT_SLOT_GET_DEFAULT_ALLOCATOR)(&o->alloc),
               "allocator") &&
        ort_ok(o, ORT_FN(o, ort_session_name_fn, ORT_SLOT_SESSION_INPUT_NAME)(
                      o->sess, 0, o->alloc, &o->in_name),
               "input name") &&
        ort_ok(o, ORT_FN(o, ort_session_name_fn, ORT_SLOT_SESSION_OUTPUT_NAME)(
                      o->sess, 0, o->alloc, &o->out_name),
               "output name") &&
        ort_ok(o, ORT_FN(o, ort_create_cpu_memory_info_fn,
                         ORT_SLOT_CREATE_CPU_MEMORY_INFO)(
                      ORT_ARENA_ALLOCATOR, ORT_MEM_TYPE_DEFAULT, &o->mem),
               "memory info") &&
        ort_ok(o, ORT_FN(o, ort_create_tensor_with_data_fn,
                         ORT_SLOT_CREATE_TENSOR_WITH_DATA)(
                      o->mem, x->data, x->count * sizeof(float), x->dims,
                      x->rank, ORT_ELEMENT_FLOAT, &o->in),
               "input tensor");
    if (opt)
        ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_SESSION_OPTIONS)(opt);
    return !ok;
}

/* One run; *OUT (released by the caller) holds the first output. */
static int ort_run_once(ort *o, ort_value **out)
{
    const char *in_names[1] = { o->in_name }, *out_names[1] = { o->out_name };
    const ort_value *ins[1] = { o->in };
    *out = NULL;
    return ort_ok(o, ORT_FN(o, ort_run_fn, ORT_SLOT_RUN)(
                         o->sess, NULL, in_names, ins, 1, out_names, 1, out),
                  "run");
}

static void ort_close(ort *o)
{
    if (!o->api)
        return;
    ort_allocator_free_fn afree =
        ORT_FN(o, ort_allocator_free_fn, ORT_SLOT_ALLOCATOR_FREE);
    if (o->in_name)
        afree(o->alloc, o->in_name);
    if (o->out_name)
        afree(o->alloc, o->out_name);
    if (o->in)
        ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_VALUE)(o->in);
    if (o->mem)
        ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_MEMORY_INFO)(o->mem);
    if (o->sess)
        ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_SESSION)(o->sess);
    if (o->env)
        ORT_FN(o, ort_release_fn, ORT_SLOT_RELEASE_ENV)(o->env);
}

/* ---- main ------------------------------------------------------------ */

int main(int argc, char **argv)
{
    const char *dir = RLX_BENCH_PLUGIN_DIR, *device = "cpu-openblas";
    int threads = 1, repeat = 20, rounds = 3;
    if (argc < 4) {
        fprintf(stderr, "usage: rlx-bench-cnn MODEL.onnx INPUT.npy "
                        "LIBONNXRUNTIME [--threads N] [--repeat N] "
                        "[--rounds N] [--device NAME] [--plugin-dir DIR]\n");
        return 2;
    }
    for (int i = 4; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--repeat"))
            repeat = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rounds"))
            rounds = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--device"))
            device = argv[i + 1];
        else if (!strcmp(argv[i], "--plugin-dir"))
            dir = argv[i + 1];
        else {
            fprintf(stderr, "unknown option '%s'. Fix: see the usage line\n",
                    argv[i]);
            return 2;
        }
    }
    if (threads < 1 || repeat < 1 || rounds < 1) {
        fprintf(stderr, "--threads, --repeat and --rounds must be at least "
                        "1. Fix: pass positive counts\n");
        return 2;
    }
    npy x;
    if (npy_read(argv[2], &x))
        return 1;

    rlx_runtime *rt = NULL;
    rlx_model *m = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    const char *in_name = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK ||
        rlx_runtime_discover(rt, dir) != RLX_OK ||
        rlx_model_load(argv[1], &m) != RLX_OK ||
        rlx_model_input(m, 0, &in_name, NULL, NULL, NULL, NULL) != RLX_OK ||
        rlx_model_set_input_shape(m, in_name, x.rank, x.dims) != RLX_OK ||
        rlx_session_create(rt, device, &s) != RLX_OK ||
        rlx_model_compile(m, s, &p) != RLX_OK) {
        fprintf(stderr, "rlx: %s\n", rlx_last_error());
        return 1;
    }
    ort o;
    if (ort_open(&o, argv[3], argv[1], &x, threads))
        return 1;

    /* warm-up: each side's first runs allocate and pack */
    size_t n_rlx = 0;
    const float *y_rlx = NULL;
    ort_value *y_ort = NULL;
    for (int k = 0; k < 3; k++) {
        if (rlx_program_set_input(p, in_name, x.data,
                                  x.count * sizeof(float)) != RLX_OK ||
            rlx_program_run(p) != RLX_OK) {
            fprintf(stderr, "rlx: %s\n", rlx_last_error());
            return 1;
        }
        if (y_ort)
            ORT_FN(&o, ort_release_fn, ORT_SLOT_RELEASE_VALUE)(y_ort);
        if (!ort_run_once(&o, &y_ort))
            return 1;
    }
    y_rlx = rlx_program_output_data(p, 0, &n_rlx);
    n_rlx /= sizeof(float);
    float *y_ref = NULL;
    ORT_FN(&o, ort_get_tensor_mutable_data_fn,
           ORT_SLOT_GET_TENSOR_MUTABLE_DATA)(y_ort, (void **)&y_ref);
    double diff = 0, ref = 0;
    for (size_t i = 0; y_rlx && y_ref && i < n_rlx; i++) {
        double d = fabs((double)y_rlx[i] - (double)y_ref[i]);
        diff = d > diff || isnan(d) ? d : diff;
        ref = fabs(y_ref[i]) > ref ? fabs(y_ref[i]) : ref;
    }
    ORT_FN(&o, ort_release_fn, ORT_SLOT_RELEASE_VALUE)(y_ort);

    size_t total = (size_t)repeat * (size_t)rounds;
    double *tr = calloc(4 * total, sizeof *tr), *to = tr + total;
    double *cr = to + total, *co = cr + total;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < repeat; k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            rlx_program_set_input(p, in_name, x.data, x.count * sizeof(float));
            if (rlx_program_run(p) != RLX_OK) {
                fprintf(stderr, "rlx: %s\n", rlx_last_error());
                return 1;
            }
            tr[(size_t)r * (size_t)repeat + (size_t)k] = now_ms() - t0;
            cr[(size_t)r * (size_t)repeat + (size_t)k] = cpu_ms() - c0;
        }
        for (int k = 0; k < repeat; k++) {
            double t0 = now_ms(), c0 = cpu_ms();
            if (!ort_run_once(&o, &y_ort))
                return 1;
            to[(size_t)r * (size_t)repeat + (size_t)k] = now_ms() - t0;
            co[(size_t)r * (size_t)repeat + (size_t)k] = cpu_ms() - c0;
            ORT_FN(&o, ort_release_fn, ORT_SLOT_RELEASE_VALUE)(y_ort);
        }
    }
    printf("%.4f %.4f %.3g %.3g %.4f %.4f\n", median(tr, total),
           median(to, total), diff, ref, median(cr, total),
           median(co, total));
    free(tr);
    ort_close(&o);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
    free(x.data);
    return 0;
}
