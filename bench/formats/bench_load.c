/*
 * bench_load.c - how long rlx takes to load (or refuse) files built to be
 * slow to read: a YAML model with one huge mapping, a safetensors header
 * with very many tensors, a config file with very many options, and a
 * model with very many nodes. Each must take about a second or less; a
 * duplicate check that scans all earlier keys per key takes minutes.
 * Through the public API only.
 *
 *   rlx-bench-load [SCALE]   (SCALE 1.0: 200,000 keys, 200,000 tensors,
 *                             95,000 options, 100,000 nodes)
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rlx/rlx.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char dir[] = "/tmp/rlx-bench-load-XXXXXX";

static char *path_of(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static FILE *create(const char *name)
{
    FILE *f = fopen(path_of(name), "w");
    if (!f) {
        perror(name);
        exit(1);
    }
    return f;
}

/* A model whose top level is one mapping of N keys: refused (unknown
 * keys), but only after the whole mapping was read. */
static void write_big_mapping(unsigned n)
{
    FILE *f = create("mapping.yaml");
    fprintf(f, "rlx_model: 1\n");
    for (unsigned i = 0; i < n; i++)
        fprintf(f, "k%07u: 0\n", i);
    fclose(f);
}

/* A safetensors file of N one-element F32 tensors, and a model using it. */
static void write_many_tensors(unsigned n)
{
    size_t cap = (size_t)n * 96 + 64, len = 0;
    char *h = malloc(cap);
    if (!h)
        exit(1);
    len += (size_t)snprintf(h + len, cap - len, "{");
    for (unsigned i = 0; i < n; i++)
        len += (size_t)snprintf(h + len, cap - len,
                                "%s\"t%u\":{\"dtype\":\"F32\",\"shape\":[1],"
                                "\"data_offsets\":[%u,%u]}",
                                i ? "," : "", i, 4 * i, 4 * i + 4);
    len += (size_t)snprintf(h + len, cap - len, "}");
    FILE *f = create("many.safetensors");
    unsigned char hl[8];
    for (int i = 0; i < 8; i++)
        hl[i] = (unsigned char)((uint64_t)len >> (8 * i));
    fwrite(hl, 1, 8, f);
    fwrite(h, 1, len, f);
    float zero = 0;
    for (unsigned i = 0; i < n; i++)
        fwrite(&zero, sizeof zero, 1, f);
    fclose(f);
    free(h);
    f = create("many.yaml");
    fprintf(f, "rlx_model: 1\nweights: many.safetensors\n"
               "params:\n  - {name: t%u}\noutputs: [t%u]\n", n - 1, n - 1);
    fclose(f);
}

/* N options with short names (base 36), to stay under the config file's
 * 1 MiB limit. */
static void write_config(unsigned n)
{
    FILE *f = create("config.yaml");
    fprintf(f, "options:\n");
    for (unsigned i = 0; i < n; i++) {
        char name[8];
        int k = 0;
        for (unsigned v = i; k == 0 || v; v /= 36)
            name[k++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
        fprintf(f, " %.*s: 1\n", k, name);
    }
    fclose(f);
}

/* A chain of N relu nodes. */
static void write_many_nodes(unsigned n)
{
    FILE *f = create("nodes.yaml");
    fprintf(f, "rlx_model: 1\ninputs:\n  - {name: n0, dtype: f32, "
               "shape: [4]}\nnodes:\n");
    for (unsigned i = 1; i <= n; i++)
        fprintf(f, "  - {name: n%u, op: relu, inputs: [n%u]}\n", i, i - 1);
    fprintf(f, "outputs: [n%u]\n", n);
    fclose(f);
}

/* Seconds to load NAME; EXPECT_OK says whether it must load. */
static double time_load(const char *name, int expect_ok)
{
    rlx_model *m = NULL;
    double t0 = now_s();
    rlx_status st = rlx_model_load(path_of(name), &m);
    double t = now_s() - t0;
    if ((st == RLX_OK) != expect_ok) {
        fprintf(stderr, "%s: unexpected result: %s\n", name,
                st == RLX_OK ? "loaded" : rlx_last_error());
        exit(1);
    }
    rlx_model_destroy(m);
    return t;
}

int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1.0;
    if (scale <= 0 || scale > 10) {
        fprintf(stderr, "usage: rlx-bench-load [SCALE in (0, 10]]\n");
        return 2;
    }
    unsigned keys = (unsigned)(200000 * scale);
    unsigned tensors = (unsigned)(200000 * scale);
    unsigned options = (unsigned)(95000 * scale);
    unsigned nodes = (unsigned)(100000 * scale);
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    write_big_mapping(keys);
    write_many_tensors(tensors);
    write_config(options);
    write_many_nodes(nodes);

    printf("%-44s %10s\n", "input", "seconds");
    printf("%-44s %10.3f\n", "YAML model, one mapping of N keys (refused)",
           time_load("mapping.yaml", 0));
    printf("  N = %u\n", keys);
    printf("%-44s %10.3f\n", "safetensors header of N tensors",
           time_load("many.yaml", 1));
    printf("  N = %u\n", tensors);

    setenv("RLX_CONFIG", path_of("config.yaml"), 1);
    rlx_runtime *rt = NULL;
    double t0 = now_s();
    rlx_status st = rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY);
    double t = now_s() - t0;
    if (st != RLX_OK) {
        fprintf(stderr, "runtime: %s\n", rlx_last_error());
        return 1;
    }
    char value[8] = "";
    /* the last option must have been read (the file was not refused) */
    if (rlx_runtime_get_option(rt, "0", value, sizeof value, NULL, 0) !=
        RLX_OK) {
        fprintf(stderr, "config: option '0' not read: %s\n",
                rlx_last_error());
        return 1;
    }
    rlx_runtime_destroy(rt);
    unsetenv("RLX_CONFIG");
    printf("%-44s %10.3f\n", "config file of N options (runtime start)", t);
    printf("  N = %u\n", options);
    printf("%-44s %10.3f\n", "model of N nodes", time_load("nodes.yaml", 1));
    printf("  N = %u\n", nodes);

    const char *names[] = { "mapping.yaml", "many.safetensors", "many.yaml",
                            "config.yaml", "nodes.yaml" };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(path_of(names[i]));
    rmdir(dir);
    return 0;
}
