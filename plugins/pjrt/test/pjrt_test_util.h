/*
 * pjrt_test_util.h - what the PJRT bridge's tests share (test_pjrt.c,
 * test_pjrt_run.c): their arguments (the bridge plugin, the fake PJRT
 * plugin, the fake of another API major, the golden directory), a
 * runtime with the bridge pointed at one plugin, a one-node reshape
 * graph, the StableHLO dump directory (RLX_PJRT_DUMP) and main.
 */
#ifndef RLX_PJRT_TEST_UTIL_H
#define RLX_PJRT_TEST_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "../../../test/harness.h"

static const char *bridge, *fake, *fake_major, *golden_dir;
static const char *fake_numpy; /* argv[5]: evaluates with NumPy */
static char dump_dir[256];

/* A runtime with only cpu-ref and the bridge, the bridge pointed at
 * PLUGIN (NULL: search the usual places, emptied out below). */
static inline rlx_runtime *runtime_with(const char *plugin)
{
    if (plugin)
        setenv("RLX_PJRT_PLUGIN", plugin, 1);
    else
        unsetenv("RLX_PJRT_PLUGIN");
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        FAIL("runtime: %s", rlx_last_error());
    if (rlx_runtime_load_plugin(rt, bridge) != RLX_OK)
        FAIL("loading %s: %s", bridge, rlx_last_error());
    return rt;
}

static inline char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    if (s)
        s[n] = '\0';
    fclose(f);
    return s;
}

static inline void clear_dump(void)
{
    DIR *d = opendir(dump_dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dump_dir, e->d_name);
        unlink(p);
    }
    if (d)
        closedir(d);
}

/* y = reshape(x) from shape XS to YS, f32. */
static inline rlx_graph *one_node_shape(const int64_t *xs, const int64_t *ys)
{
    rlx_graph *g = NULL;
    rlx_value x, y;
    rlx_attrs a = { 2, ys, 0, NULL };
    if (rlx_graph_create(&g) != RLX_OK ||
        rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, xs, &x) != RLX_OK ||
        rlx_graph_add_node(g, "y", RLX_OP_RESHAPE, 1, &x, &a, &y) != RLX_OK ||
        rlx_graph_output(g, "y", y) != RLX_OK)
        FAIL("graph: %s", rlx_last_error());
    return g;
}

/* Run the CASES (argv: see above), then empty the dump directory. */
static inline int pjrt_test_main(const rlx_test_case *cases, size_t n,
                                 int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s BRIDGE.so FAKE.so FAKE-MAJOR.so "
                        "GOLDEN-DIR\n", argv[0]);
        return 2;
    }
    bridge = argv[1];
    fake = argv[2];
    fake_major = argv[3];
    golden_dir = argv[4];
    fake_numpy = argc > 5 ? argv[5] : NULL;
    snprintf(dump_dir, sizeof dump_dir, "/tmp/rlx-pjrt-test-XXXXXX");
    if (!mkdtemp(dump_dir))
        return 2;
    setenv("RLX_PJRT_DUMP", dump_dir, 1);
    int rc = rlx_test_main(cases, n, 1, argv);
    clear_dump();
    rmdir(dump_dir);
    return rc;
}

#endif
