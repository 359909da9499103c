/*
 * test-hardening.c - one bad file must not hang or take down a process:
 * FIFOs named as config, model or input; a config of deeply nested
 * brackets (once quadratic); an oversized config; .npy headers promising
 * more than the file holds; inputs too large to allocate.
 */
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "test-tool.h"
#include "test-util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A runtime reading config PATH; returns its diagnostic's reason. */
static void config_diag(const char *path, char *reason, size_t n)
{
    setenv("RLX_CONFIG", path, 1);
    alarm(20); /* a hang fails the test instead of stalling the suite */
    rlx_runtime *rt = test_runtime();
    alarm(0);
    setenv("RLX_CONFIG", "", 1);
    const char *r = NULL;
    reason[0] = '\0';
    if (test_find_diag(rt, path, NULL, &r, NULL) >= 0)
        snprintf(reason, n, "%s", r);
    /* the runtime works: the built-in backend is there */
    ASSERT(rlx_runtime_find_backend(rt, "cpu-ref") != NULL);
    rlx_runtime_destroy(rt);
}

TEST(config_fifo_refused_without_blocking)
{
    char path[300], reason[2048];
    snprintf(path, sizeof path, "%s/config.yaml", tool_tmp_make());
    ASSERT(mkfifo(path, 0600) == 0);
    config_diag(path, reason, sizeof reason);
    ASSERT_CONTAINS(reason, "FIFO");
    tool_tmp_remove_all();
}

TEST(config_nesting_is_linear)
{
    char path[300], reason[2048];
    snprintf(path, sizeof path, "%s/config.yaml", tool_tmp_make());
    size_t n = 400 * 1024;
    char *text = malloc(n);
    ASSERT(text);
    memset(text, '[', n);
    tool_file_write(path, text, n);
    free(text);
    double t0 = now_s();
    config_diag(path, reason, sizeof reason);
    double took = now_s() - t0;
    ASSERT_CONTAINS(reason, "nesting deeper than 64 levels");
    if (took > 2.0) /* it took minutes before the cap */
        FAIL("a 400 KB nested config took %.1f s", took);
    tool_tmp_remove_all();
}

/* Many options (hashed): each keeps its own value, and a name given twice
 * is refused. */
TEST(config_many_options)
{
    char path[300], value[32], want[32];
    snprintf(path, sizeof path, "%s/config.yaml", tool_tmp_make());
    size_t cap = 5000 * 32, k = 0;
    char *text = malloc(cap);
    ASSERT(text);
    k += (size_t)snprintf(text, cap, "options:\n");
    for (int i = 0; i < 5000; i++)
        k += (size_t)snprintf(text + k, cap - k, "  t.o%d: %d\n", i, i);
    tool_file_write(path, text, k);
    setenv("RLX_CONFIG", path, 1);
    rlx_runtime *rt = test_runtime();
    setenv("RLX_CONFIG", "", 1);
    for (int i = 0; i < 5000; i += 499) {
        snprintf(want, sizeof want, "t.o%d", i);
        ASSERT_EQ(rlx_runtime_get_option(rt, want, value, sizeof value, NULL,
                                         0),
                  RLX_OK);
        snprintf(want, sizeof want, "%d", i);
        ASSERT_STREQ(value, want);
    }
    ASSERT_EQ(rlx_runtime_get_option(rt, "t.o4999", value, sizeof value,
                                     NULL, 0),
              RLX_OK);
    ASSERT_STREQ(value, "4999");
    rlx_runtime_destroy(rt);
    snprintf(text + k, cap - k, "  t.o2500: again\n");
    tool_file_write(path, text, strlen(text));
    free(text);
    char reason[2048];
    config_diag(path, reason, sizeof reason);
    ASSERT_CONTAINS(reason, "duplicate key 't.o2500'");
    tool_tmp_remove_all();
}

TEST(config_size_capped)
{
    char path[300], reason[2048];
    snprintf(path, sizeof path, "%s/config.yaml", tool_tmp_make());
    size_t n = 2u << 20;
    char *text = malloc(n);
    ASSERT(text);
    memset(text, '#', n);
    text[n - 1] = '\n';
    tool_file_write(path, text, n);
    free(text);
    config_diag(path, reason, sizeof reason);
    ASSERT_CONTAINS(reason, "more than the 1048576 allowed");
    tool_tmp_remove_all();
}

static const char small_model[] =
    "rlx_model: 1\n"
    "inputs:\n  - {name: x, dtype: f32, shape: [4]}\n"
    "nodes:\n  - {name: y, op: add, inputs: [x, x]}\n"
    "outputs: [y]\n";

TEST(model_and_input_fifos_refused)
{
    const char *dir = tool_tmp_make();
    char fifo[300], model[300], args[1000];
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    ASSERT(mkfifo(fifo, 0600) == 0);
    snprintf(args, sizeof args, "run %s --device cpu-ref", fifo);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "is a FIFO (named pipe), not a regular file");
    ASSERT_CONTAINS(tool_out, "Fix:");
    snprintf(model, sizeof model, "%s/m.yaml", dir);
    tool_file_write(model, small_model, strlen(small_model));
    snprintf(args, sizeof args, "run %s --device cpu-ref --input x=%s",
             model, fifo);
    ASSERT(tool_run(args, 1) != 0);
    ASSERT_CONTAINS(tool_out, "not a regular file");
    ASSERT_CONTAINS(tool_out, "Fix:");
    tool_tmp_remove_all();
}

/* A .npy of dtype <f4 whose header says SHAPE, followed by DATA bytes. */
static void write_npy(const char *path, const char *shape, size_t data)
{
    char h[256];
    int len = snprintf(h, sizeof h, "{'descr': '<f4', 'fortran_order': "
                       "False, 'shape': %s, }", shape);
    size_t total = 10 + (size_t)len + 1, pad = (64 - total % 64) % 64;
    memset(h + len, ' ', pad);
    h[len + pad] = '\n';
    size_t hlen = (size_t)len + pad + 1;
    unsigned char *buf = calloc(1, 10 + hlen + data);
    ASSERT(buf);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)(hlen & 0xff);
    buf[9] = (unsigned char)(hlen >> 8);
    memcpy(buf + 10, h, hlen);
    tool_file_write(path, buf, 10 + hlen + data);
    free(buf);
}

TEST(npy_sizes_checked_before_allocating)
{
    const char *dir = tool_tmp_make();
    char model[300], npy[300], args[1000];
    snprintf(model, sizeof model, "%s/m.yaml", dir);
    tool_file_write(model, small_model, strlen(small_model));
    snprintf(npy, sizeof npy, "%s/x.npy", dir);
    snprintf(args, sizeof args, "run %s --device cpu-ref --input x=%s",
             model, npy);
    /* 400 GB promised, 16 bytes present: refused from the sizes */
    write_npy(npy, "(100000000000,)", 16);
    ASSERT(tool_run(args, 1) != 0);
    ASSERT_CONTAINS(tool_out, "the header promises 400000000000 bytes, "
                              "the file holds 16 after the header");
    /* truncated: the real sizes, not 0 */
    write_npy(npy, "(4,)", 10);
    ASSERT(tool_run(args, 1) != 0);
    ASSERT_CONTAINS(tool_out, "the header promises 16 bytes, the file "
                              "holds 10 after the header");
    /* and a right one still runs */
    write_npy(npy, "(4,)", 16);
    ASSERT_EQ(tool_run(args, 1), 0);
    tool_tmp_remove_all();
}

TEST(huge_input_named)
{
    const char *dir = tool_tmp_make();
    char model[300], args[1000];
    snprintf(model, sizeof model, "%s/big.yaml", dir);
    /* 1 PiB: legal, never allocatable (beyond the address space) */
    const char *yaml = "rlx_model: 1\n"
                       "inputs:\n  - {name: big_x, dtype: f32, "
                       "shape: [281474976710656]}\n"
                       "nodes:\n  - {name: y, op: add, inputs: [big_x, "
                       "big_x]}\noutputs: [y]\n";
    tool_file_write(model, yaml, strlen(yaml));
    snprintf(args, sizeof args, "run %s --device cpu-ref", model);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "'big_x'");
    ASSERT_CONTAINS(tool_out, "GiB");
    ASSERT_CONTAINS(tool_out, "Fix:");
    tool_tmp_remove_all();
}

/* Registered, then init failed: the core destroys the backend exactly
 * once in this process (and the plugin does not free it again: ASan
 * would call that a double free). */
TEST(registered_then_failed_destroyed_once)
{
    char log[300];
    snprintf(log, sizeof log, "%s/destroy.log", tool_tmp_make());
    setenv("RLX_TEST_DESTROY_LOG", log, 1);
    rlx_runtime *rt = test_runtime();
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, test_plugin("testregfail")),
                  RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(rlx_last_error(), "second device failed");
    ASSERT(rlx_runtime_find_backend(rt, "test-regfail") == NULL);
    rlx_runtime_destroy(rt);
    unsetenv("RLX_TEST_DESTROY_LOG");
    size_t len;
    unsigned char *text = tool_file_read(log, 4096, &len);
    char mine[32];
    int n = 0;
    snprintf(mine, sizeof mine, "%ld\n", (long)getpid());
    for (const char *p = (char *)text; (p = strstr(p, mine)) != NULL;
         p += strlen(mine))
        n++;
    free(text);
    ASSERT_EQ(n, 1);
    tool_tmp_remove_all();
}

/* A program with file capabilities runs with AT_SECURE although its uids
 * match: RLX_PLUGIN_PATH must mean nothing to it. Needs root (to set the
 * capability) and setcap/setpriv; skipped with the reason otherwise. */
TEST(file_capabilities_ignore_environment)
{
    const char *dir = tool_tmp_make();
    char probe[300], cmd[2048], qp[400];
    ASSERT(chmod(dir, 0755) == 0);
    snprintf(probe, sizeof probe, "%s/probe", dir);
    tool_file_copy(tool_env("RLX_TEST_ENV_PROBE"), probe);
    ASSERT(chmod(probe, 0755) == 0);
    tool_quote(qp, sizeof qp, probe);
    if (geteuid() != 0)
        SKIP("needs root to give the probe a file capability");
    snprintf(cmd, sizeof cmd, "setcap cap_net_raw+ep %s 2>/dev/null", qp);
    if (system(cmd) != 0)
        SKIP("setcap is not installed or not permitted here (libcap2-bin)");
    /* as nobody, without and with the capability */
    for (int secure = 0; secure < 2; secure++) {
        if (!secure) {
            snprintf(cmd, sizeof cmd, "setcap -r %s", qp);
            ASSERT_EQ(system(cmd), 0);
        } else {
            snprintf(cmd, sizeof cmd, "setcap cap_net_raw+ep %s", qp);
            ASSERT_EQ(system(cmd), 0);
        }
        snprintf(cmd, sizeof cmd, "RLX_PLUGIN_PATH=/from-the-environment "
                 "XDG_CACHE_HOME=/nonexistent setpriv --reuid=65534 "
                 "--regid=65534 --clear-groups %s", qp);
        fflush(stdout);
        FILE *p = popen(cmd, "r");
        ASSERT(p);
        char out[4096] = "";
        size_t n = fread(out, 1, sizeof out - 1, p);
        out[n] = '\0';
        int rc = pclose(p);
        if (rc != 0)
            FAIL("probe (secure=%d) failed: %s", secure, out);
        if (secure)
            ASSERT(!strstr(out, "/from-the-environment"));
        else
            ASSERT_CONTAINS(out, "RLX_PLUGIN_PATH /from-the-environment");
    }
    tool_tmp_remove_all();
}

/* The same for every setting the core reads: set to a bad value, each
 * fails the probe without the capability, and means nothing with it. */
TEST(file_capabilities_ignore_settings)
{
    static const struct {
        const char *env, *mode, *honoured;
    } cases[] = {
        { "RLX_FALLBACK=bogus", "session", "RLX_FALLBACK='bogus'" },
        { "RLX_OPS_DISABLE=bogus", "session", "RLX_OPS_DISABLE: 'bogus'" },
        { "RLX_DEVICE_POLICY=bogus", "runner",
          "'bogus' is not a device policy" },
        { "RLX_DEVICE_CHAIN=bogus", "chain", "device chain 'bogus'" },
    };
    const char *dir = tool_tmp_make();
    char probe[300], cmd[2048], qp[400];
    ASSERT(chmod(dir, 0755) == 0);
    snprintf(probe, sizeof probe, "%s/probe", dir);
    tool_file_copy(tool_env("RLX_TEST_ENV_PROBE"), probe);
    ASSERT(chmod(probe, 0755) == 0);
    tool_quote(qp, sizeof qp, probe);
    if (geteuid() != 0)
        SKIP("needs root to give the probe a file capability");
    snprintf(cmd, sizeof cmd, "setcap cap_net_raw+ep %s 2>/dev/null", qp);
    if (system(cmd) != 0)
        SKIP("setcap is not installed or not permitted here (libcap2-bin)");
    for (int secure = 0; secure < 2; secure++) {
        snprintf(cmd, sizeof cmd, secure ? "setcap cap_net_raw+ep %s"
                                         : "setcap -r %s", qp);
        ASSERT_EQ(system(cmd), 0);
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            snprintf(cmd, sizeof cmd, "%s XDG_CACHE_HOME=/nonexistent "
                     "setpriv --reuid=65534 --regid=65534 --clear-groups "
                     "%s %s 2>&1", cases[i].env, qp, cases[i].mode);
            fflush(stdout);
            FILE *p = popen(cmd, "r");
            ASSERT(p);
            char out[4096] = "";
            size_t n = fread(out, 1, sizeof out - 1, p);
            out[n] = '\0';
            ASSERT_EQ(pclose(p), 0);
            if (secure) {
                if (strstr(out, cases[i].honoured))
                    FAIL("%s was honoured with AT_SECURE: %s", cases[i].env,
                         out);
                char ok[64];
                snprintf(ok, sizeof ok, "%s: OK", cases[i].mode);
                ASSERT_CONTAINS(out, ok);
            } else {
                ASSERT_CONTAINS(out, cases[i].honoured);
            }
        }
    }
    tool_tmp_remove_all();
}

/* Every environment variable in core/ and tools/ is read through rlx__env
 * (core/src/base/env.c), the one function that honours AT_SECURE: no other
 * getenv or secure_getenv in the sources. */
TEST(only_env_c_reads_the_environment)
{
    char cmd[1024];
    const char *src = tool_env("RLX_TEST_SOURCE_DIR");
    snprintf(cmd, sizeof cmd, "cd '%s' && grep -rnE "
             "'(secure_)?getenv[[:space:]]*\\(' core tools "
             "--include='*.c' --include='*.h' | grep -v '^core/src/base/env\\.c:'",
             src);
    FILE *p = popen(cmd, "r");
    ASSERT(p);
    char out[4096] = "";
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    if (n)
        FAIL("read the environment with rlx__env (core/src/base/env.c) "
             "instead:\n%s", out);
    /* the grep itself works: it finds env.c's own call */
    snprintf(cmd, sizeof cmd, "grep -c 'getenv(' '%s/core/src/base/env.c'", src);
    p = popen(cmd, "r");
    ASSERT(p);
    n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    pclose(p);
    ASSERT(atoi(out) >= 1);
}

/* The output of shell command CMD (up to SIZE - 1 bytes). */
static size_t command_output(const char *cmd, char *out, size_t size)
{
    FILE *p = popen(cmd, "r");
    ASSERT(p);
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    pclose(p);
    return n;
}

/* Plugins never read an RLX_ variable themselves: their settings come
 * through the core (get_option, which honours AT_SECURE), so the
 * README's promise holds for them too. What they may read is their
 * vendor runtime's own variables (CUDA_VISIBLE_DEVICES, LD_LIBRARY_PATH,
 * ...), by name; the kit's probe-key helper is the one plain getenv of
 * a name passed in, and nobody passes it an RLX_ name. Tests are not
 * plugins. */
TEST(plugins_read_settings_through_the_core)
{
    char cmd[1536], out[4096];
    const char *src = tool_env("RLX_TEST_SOURCE_DIR");
    const char *sources = "--include='*.c' --include='*.h' --include='*.cu' "
                          "--include='*.cuh' --include='*.cpp' "
                          "plugins plugin-abi | grep -vE "
                          "'^plugins/[^:]*(/test/|/test_[^/:]*:)'";
    snprintf(cmd, sizeof cmd, "cd '%s' && grep -rnE "
             "'getenv[[:space:]]*\\([[:space:]]*\"RLX_|"
             "probe_key_add_env\\([^,]*,[[:space:]]*\"RLX_' %s",
             src, sources);
    if (command_output(cmd, out, sizeof out))
        FAIL("a plugin reads an RLX_ variable itself; read the setting "
             "with rlx_compile_get_option or rlx_host_get_option:\n%s",
             out);
    /* a getenv of anything but a literal name: only the kit's helper */
    snprintf(cmd, sizeof cmd, "cd '%s' && grep -rnE "
             "'(^|[^_a-z])getenv[[:space:]]*\\([[:space:]]*[^\"[:space:]]' "
             "%s | grep -v '^plugin-abi/rlx/probe_key\\.h:'", src, sources);
    if (command_output(cmd, out, sizeof out))
        FAIL("a plugin reads a variable named at run time; read settings "
             "through the core, vendor variables by name:\n%s", out);
    /* the greps work: they find the kit's own call and a vendor read */
    snprintf(cmd, sizeof cmd, "cd '%s' && grep -rnE "
             "'getenv[[:space:]]*\\(' %s | wc -l", src, sources);
    command_output(cmd, out, sizeof out);
    ASSERT(atoi(out) >= 2);
}

RLX_TEST_LIST(
    TEST_ENTRY(only_env_c_reads_the_environment),
    TEST_ENTRY(plugins_read_settings_through_the_core),
    TEST_ENTRY(file_capabilities_ignore_settings),
    TEST_ENTRY(file_capabilities_ignore_environment),
    TEST_ENTRY(registered_then_failed_destroyed_once),
    TEST_ENTRY(config_fifo_refused_without_blocking),
    TEST_ENTRY(config_nesting_is_linear),
    TEST_ENTRY(config_many_options),
    TEST_ENTRY(config_size_capped),
    TEST_ENTRY(model_and_input_fifos_refused),
    TEST_ENTRY(npy_sizes_checked_before_allocating),
    TEST_ENTRY(huge_input_named),
)
