/* env_probe.c - what a runtime made of its environment, so test-hardening
 * can run it with file capabilities (AT_SECURE) and see every RLX_
 * variable ignored there. Linked with an absolute RUNPATH: a secure
 * process ignores $ORIGIN.
 *   rlx-test-env-probe           the plugin search directories
 *   rlx-test-env-probe session   a cpu session (RLX_FALLBACK,
 *                                RLX_OPS_DISABLE)
 *   rlx-test-env-probe runner    a runner (RLX_DEVICE_POLICY)
 *   rlx-test-env-probe chain     a run along the device chain
 *                                (RLX_DEVICE_CHAIN)
 * Each mode prints "MODE: OK" or "MODE: <the error>". */
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

static int report(const char *mode, rlx_status st)
{
    printf("%s: %s\n", mode, st == RLX_OK ? "OK" : rlx_last_error());
    return 0;
}

static rlx_status tiny_graph(rlx_graph **g)
{
    int64_t dims[1] = { 2 };
    rlx_value x, y;
    rlx_status st = rlx_graph_create(g);
    if (st == RLX_OK)
        st = rlx_graph_input(*g, "x", RLX_DTYPE_F32, 1, dims, &x);
    if (st == RLX_OK)
        st = rlx_graph_add_node(*g, "y", RLX_OP_RELU, 1, &x, NULL, &y);
    if (st == RLX_OK)
        st = rlx_graph_output(*g, "y", y);
    return st;
}

static int run_mode(rlx_runtime *rt, const char *mode)
{
    if (strcmp(mode, "session") == 0) {
        rlx_session *s = NULL;
        rlx_status st = rlx_session_create(rt, "cpu", &s);
        rlx_session_destroy(s);
        return report(mode, st);
    }
    rlx_graph *g = NULL;
    rlx_runner *r = NULL;
    rlx_status st = tiny_graph(&g);
    if (st == RLX_OK)
        st = rlx_runner_create(rt, g, NULL, &r);
    if (st == RLX_OK && strcmp(mode, "chain") == 0) {
        float x[2] = { -1, 1 };
        rlx_program *ran = NULL;
        st = rlx_runner_set_input(r, "x", x, sizeof x);
        if (st == RLX_OK)
            st = rlx_runner_run_chain(r, NULL, &ran);
    }
    report(mode, st);
    rlx_runner_destroy(r);
    rlx_graph_destroy(g);
    return 0;
}

int main(int argc, char **argv)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK) {
        fprintf(stderr, "%s\n", rlx_last_error());
        return 1;
    }
    if (argc > 1) {
        int rc = run_mode(rt, argv[1]);
        rlx_runtime_destroy(rt);
        return rc;
    }
    const char *dir, *source;
    for (uint32_t i = 0; (dir = rlx_runtime_search_dir(rt, i, &source));
         i++)
        printf("%s %s\n", source, dir);
    rlx_runtime_destroy(rt);
    return 0;
}
