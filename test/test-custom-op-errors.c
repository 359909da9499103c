/*
 * test-custom-op-errors.c - custom ops that must be refused: every bad
 * signature, argument, spec, model and library gets its own message with
 * a Fix and leaves nothing behind; a library gone at compile time fails
 * the compile naming it; a set-user-ID process loads kernel libraries
 * only by absolute path under the plugin directory, allowed or not. The working cases:
 * test-custom-op.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test-util.h"
#include "custom-op-util.h"

/* A function pointer for the node specs below; never called. */
static int32_t app_kernel(int64_t n, double scale, int16_t k, const float *x,
                          float *y)
{
    (void)n; (void)scale; (void)k; (void)x; (void)y;
    return 0;
}

/* ---- bad signatures and arguments: checked when the node is added ---- */

typedef struct bad_case {
    const char *signature;
    rlx_custom_arg args[4];
    uint32_t n_args;
    uint32_t flags;
    rlx_status status;
    const char *expect;
} bad_case;

#define T_IN(i) { .kind = RLX_CUSTOM_ARG_TENSOR, .index = (i) }
#define T_OUT { .kind = RLX_CUSTOM_ARG_TENSOR, .index = RLX_CUSTOM_OUTPUT }
#define A_INT(v) { .kind = RLX_CUSTOM_ARG_INT, .i = (v) }
#define A_FLT(v) { .kind = RLX_CUSTOM_ARG_FLOAT, .f = (v) }
#define A_DIM(t, a) { .kind = RLX_CUSTOM_ARG_DIM, .index = (t), .axis = (a) }

static const bad_case bad_cases[] = {
    { "void(i32, ptr", { A_INT(1), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "expected ',' or ')'" },
    { "void(i33, ptr)", { A_INT(1), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "'i33', is not a type" },
    { "ptr(ptr)", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "return type 'ptr' is not allowed" },
    { "void(ptr) extra", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "unexpected text after ')'" },
    { "", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT, "signature is empty" },
    /* arity */
    { "void(i32, ptr, ptr)", { A_INT(1), T_OUT }, 2, 0,
      RLX_ERR_INVALID_ARGUMENT, "takes 3 arguments but 2 are given" },
    /* types */
    { "void(i32, ptr)", { A_FLT(2.5), T_OUT }, 2, 0,
      RLX_ERR_INVALID_ARGUMENT, "the floating-point literal 2.5" },
    { "void(ptr, ptr)", { A_INT(4), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "a pointer parameter with no tensor behind it" },
    { "void(i32, ptr)", { T_IN(0), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "the parameter is i32 but the argument is the tensor x" },
    { "void(i32*, ptr)", { T_IN(0), T_OUT }, 2, 0, RLX_ERR_DTYPE,
      "the parameter is i32* but x is f32 [2,3]" },
    { "void(u8, ptr)", { A_INT(300), T_OUT }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "the value 300 does not fit the parameter type u8" },
    { "void(i32, ptr)", { A_DIM(0, 5), T_OUT }, 2, 0, RLX_ERR_SHAPE,
      "dimension 5 of x, which has shape [2,3]" },
    { "void(ptr, ptr)", { T_IN(0), T_IN(3) }, 2, 0, RLX_ERR_INVALID_ARGUMENT,
      "tensor index 3 is neither an input" },
    { "void(ptr)", { T_IN(0) }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "no argument points at the output" },
    { "f32(ptr)", { T_OUT }, 1, 0, RLX_ERR_INVALID_ARGUMENT,
      "a whole-tensor kernel returns void or an integer status" },
    /* elementwise */
    { "f64(f32)", { T_IN(0) }, 1, RLX_CUSTOM_ELEMENTWISE, RLX_ERR_DTYPE,
      "returns the output element, which is f32" },
    { "f32(f64)", { T_IN(0) }, 1, RLX_CUSTOM_ELEMENTWISE, RLX_ERR_DTYPE,
      "the parameter is f64 but 'x' is f32" },
    { "f32(ptr)", { T_OUT }, 1, RLX_CUSTOM_ELEMENTWISE,
      RLX_ERR_INVALID_ARGUMENT, "the output is not an argument" },
    { "f32(f32)", { T_IN(0) }, 1, 0x80, RLX_ERR_INVALID_ARGUMENT,
      "unknown flags 0x80" },
};

static void add_one(const bad_case *c, rlx_custom_fn fn, const char *lib,
                    const char *sym, int32_t init, rlx_status want,
                    const char *expect)
{
    rlx_graph *g = NULL;
    rlx_value x, v = 0;
    int64_t dims[] = { 2, 3 }, odims[] = { 3, 2 };
    ASSERT_EQ(rlx_graph_create(&g), RLX_OK);
    ASSERT_EQ(rlx_graph_input(g, "x", RLX_DTYPE_F32, 2, dims, &x), RLX_OK);
    rlx_custom_op op = {
        .struct_size = sizeof op,
        .library = lib, .symbol = sym, .fn = fn,
        .signature = c->signature,
        .n_args = c->n_args, .args = c->args,
        .dtype = RLX_DTYPE_F32, .rank = 2,
        .dims = init >= 0 ? odims : dims,
        .init_input = init, .flags = c->flags,
    };
    rlx_status st = rlx_graph_add_custom(g, "k", 1, &x, &op, &v);
    if (st != want)
        FAIL("signature \"%s\": status %s, expected %s (%s)", c->signature,
             rlx_status_name(st), rlx_status_name(want), rlx_last_error());
    ASSERT_EQ(v, RLX_VALUE_NONE);
    ASSERT_EQ(rlx_graph_node_count(g), 1u); /* nothing added */
    ASSERT_MSG("custom node 'k'", expect);
    rlx_graph_destroy(g);
}

TEST(bad_signatures_and_arguments)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++)
        add_one(&bad_cases[i], (rlx_custom_fn)app_kernel, NULL, NULL, -1,
                bad_cases[i].status, bad_cases[i].expect);
}

TEST(bad_specs)
{
    bad_case ok = { "void(ptr, ptr)", { T_IN(0), T_OUT }, 2, 0, 0, NULL };
    add_one(&ok, (rlx_custom_fn)app_kernel, OPENBLAS, "cblas_saxpy", -1,
            RLX_ERR_INVALID_ARGUMENT, "give either a library and a symbol");
    add_one(&ok, NULL, NULL, NULL, -1, RLX_ERR_INVALID_ARGUMENT,
            "(got neither)");
    add_one(&ok, NULL, OPENBLAS, "", -1, RLX_ERR_INVALID_ARGUMENT,
            "the library or the symbol is empty");
    /* the output [3,2] cannot start as a copy of x [2,3] */
    add_one(&ok, (rlx_custom_fn)app_kernel, NULL, NULL, 0, RLX_ERR_SHAPE,
            "starts as a copy of 'x', which is f32 [2,3]");
}

/* ---- bad models: found when the model loads ---------------------------- */

static void load_fails(const char *name, const char *node_yaml,
                       rlx_status want, const char *const *expect,
                       size_t n_expect)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [4]}]\n"
             "nodes:\n"
             "%s"
             "outputs: [y]\n", node_yaml);
    rlx_model *m = (rlx_model *)1;
    rlx_status st = rlx_model_load(write_model(name, yaml), &m);
    if (st != want)
        FAIL("%s: status %s, expected %s (%s)", name, rlx_status_name(st),
             rlx_status_name(want), rlx_last_error());
    ASSERT(m == NULL);
    for (size_t i = 0; i < n_expect; i++)
        if (!strstr(rlx_last_error(), expect[i]))
            FAIL("%s: error lacks '%s': %s", name, expect[i],
                 rlx_last_error());
    ASSERT(strstr(rlx_last_error(), "Fix:"));
}

#define LOAD_FAILS(name, yaml, st, ...)                                     \
    do {                                                                    \
        const char *e_[] = { __VA_ARGS__ };                                 \
        load_fails(name, yaml, st, e_, sizeof e_ / sizeof *e_);             \
    } while (0)

/* A bad library or symbol: the model loads (loading opens no library),
 * and compiling it with everything the tests use allowed fails. */
static void compile_fails(const char *name, const char *node_yaml,
                          rlx_status want, const char *const *expect,
                          size_t n_expect)
{
    char yaml[2048];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [4]}]\n"
             "nodes:\n"
             "%s"
             "outputs: [y]\n", node_yaml);
    rlx_model *m = NULL;
    if (rlx_model_load(write_model(name, yaml), &m) != RLX_OK)
        FAIL("%s: %s", name, rlx_last_error());
    rlx_runtime *rt = allowed_runtime();
    rlx_session *s = NULL;
    rlx_program *p = (rlx_program *)1;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    rlx_status st = rlx_session_compile(s, rlx_model_graph(m), &p);
    if (st != want)
        FAIL("%s: status %s, expected %s (%s)", name, rlx_status_name(st),
             rlx_status_name(want), rlx_last_error());
    ASSERT(p == NULL);
    for (size_t i = 0; i < n_expect; i++)
        if (!strstr(rlx_last_error(), expect[i]))
            FAIL("%s: error lacks '%s': %s", name, expect[i],
                 rlx_last_error());
    ASSERT(strstr(rlx_last_error(), "Fix:"));
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

#define COMPILE_FAILS(name, yaml, st, ...)                                  \
    do {                                                                    \
        const char *e_[] = { __VA_ARGS__ };                                 \
        compile_fails(name, yaml, st, e_, sizeof e_ / sizeof *e_);          \
    } while (0)

#define SAXPY_NODE(lib, sym, sig, args)                                     \
    "  - {name: y, op: custom, library: " lib ", symbol: " sym ",\n"        \
    "     signature: \"" sig "\", init: x,\n"                               \
    "     args: " args "}\n"

TEST(bad_models)
{
    COMPILE_FAILS("nosym.yaml",
                  SAXPY_NODE(OPENBLAS, "cblas_saxpyy",
                             "void(i32, f32, f32*, i32, f32*, i32)",
                             "[$numel(x), 2.0, x, 1, y, 1]"),
                  RLX_ERR_NOT_FOUND, "custom node 'y'", OPENBLAS,
                  "cblas_saxpyy", "void(i32, f32, f32*, i32, f32*, i32)",
                  "has no function 'cblas_saxpyy'", "nm -D");
    /* a bare name nothing allowed provides: refused, not searched for */
    COMPILE_FAILS("nolib.yaml",
                  SAXPY_NODE("libnot-a-real-blas.so.9", "cblas_saxpy",
                             "void(i32, f32, f32*, i32, f32*, i32)",
                             "[$numel(x), 2.0, x, 1, y, 1]"),
                  RLX_ERR_INVALID_ARGUMENT, "libnot-a-real-blas.so.9",
                  "cblas_saxpy", "no allowed file, directory or soname",
                  "--allow-custom-ops");
    COMPILE_FAILS("escape.yaml",
                  SAXPY_NODE("../../etc/libx.so", "cblas_saxpy",
                             "void(i32, f32, f32*, i32, f32*, i32)",
                             "[$numel(x), 2.0, x, 1, y, 1]"),
                  RLX_ERR_NOT_FOUND, "../../etc/libx.so",
                  "the library failed to load");
    LOAD_FAILS("arity.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1, y]"),
               RLX_ERR_INVALID_ARGUMENT, "arity.yaml:",
               "takes 6 arguments but 5 are given");
    LOAD_FAILS("noptr.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, 5, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT,
               "argument 3 of signature",
               "a pointer parameter with no tensor behind it");
    LOAD_FAILS("type.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(x), 2.0, x, 1.5, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "argument 4",
               "the parameter is i32 but the argument is the "
               "floating-point literal 1.5");
    LOAD_FAILS("undef.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[$numel(q), 2.0, x, 1, y, 1]"),
               RLX_ERR_NOT_FOUND, "'q' is not defined");
    LOAD_FAILS("dim.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32)",
                          "[\"$dim(x)\", 2.0, x, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "malformed '$dim(x)'");
    LOAD_FAILS("sig.yaml",
               SAXPY_NODE(OPENBLAS, "cblas_saxpy",
                          "void(i32, f32, f32*, i32, f32*, i32",
                          "[$numel(x), 2.0, x, 1, y, 1]"),
               RLX_ERR_INVALID_ARGUMENT, "sig.yaml:5:",
               "expected ',' or ')'");
    LOAD_FAILS("nokey.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     signature: \"void(ptr)\", init: x, args: [y]}\n",
               RLX_ERR_INVALID_ARGUMENT, "has no 'symbol'");
    LOAD_FAILS("badkey.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     symbol: s, signature: \"void(ptr)\", init: x,\n"
               "     args: [y], attrs: {}}\n",
               RLX_ERR_INVALID_ARGUMENT, "unknown key 'attrs'");
    LOAD_FAILS("noshape.yaml",
               "  - {name: y, op: custom, library: " OPENBLAS ",\n"
               "     symbol: s, signature: \"void(ptr)\", dtype: f32,\n"
               "     args: [y]}\n",
               RLX_ERR_INVALID_ARGUMENT, "has no 'shape'");
    /* a relative path may not lead out of the model's directory, even
     * to a library that exists */
    char cmd[4096], yaml[2048];
    const char *tmp_dir = rlx_test_dir();
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/m' && cp '%s' '%s/'", tmp_dir,
             kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
             "nodes:\n"
             "  - {name: y, op: custom, library: ../librlx-test-kernels.so,\n"
             "     symbol: rlxk_status, signature: \"i64(i64, f32*)\",\n"
             "     init: x, args: [0, y]}\n"
             "outputs: [y]\n");
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(write_model("m/up.yaml", yaml), &m), RLX_OK);
    rlx_runtime *rt = allowed_runtime();
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    ASSERT_EQ(rlx_session_compile(s, rlx_model_graph(m), &p),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("../librlx-test-kernels.so",
               "leads out of the model's directory");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

/* A library that is there when the model loads but gone at compile time:
 * the compile fails, naming it, and nothing runs. */
TEST(library_gone_at_compile)
{
    rlx_runtime *rt = allowed_runtime();
    char cmd[4096];
    const char *tmp_dir = rlx_test_dir();
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/gone' && cp '%s' '%s/gone/'",
             tmp_dir, kernels_path(), tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    const char *path = write_model(
        "gone/g.yaml",
        "rlx_model: 1\n"
        "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
        "nodes:\n"
        "  - {name: y, op: custom, library: ./librlx-test-kernels.so,\n"
        "     symbol: rlxk_status, signature: \"i64(i64, f32*)\",\n"
        "     init: x, args: [0, y]}\n"
        "outputs: [y]\n");
    rlx_model *m = NULL;
    ASSERT_EQ(rlx_model_load(path, &m), RLX_OK);
    snprintf(cmd, sizeof cmd, "rm '%s/gone/librlx-test-kernels.so'",
             tmp_dir);
    ASSERT_EQ(system(cmd), 0);
    rlx_session *s = NULL;
    rlx_program *p = (rlx_program *)1;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    ASSERT(rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK);
    ASSERT(p == NULL);
    ASSERT_MSG("./librlx-test-kernels.so", "rlxk_status", "i64(i64, f32*)",
               "failed to load");
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

/* ---- set-user-ID processes: absolute paths under the plugin dir only --- */

/* Run the set-user-ID copy HELPER of secure-load as user nobody on MODEL,
 * allowing ALLOW; its output into OUT. */
static int run_secure(const char *helper, const char *model,
                      const char *allow, char *out, size_t size)
{
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        execl(helper, helper, model, allow, (char *)NULL);
        _exit(4);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t n;
    while (got + 1 < size && (n = read(fds[0], out + got, size - 1 - got)) > 0)
        got += (size_t)n;
    out[got] = '\0';
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(set_user_id_loads_only_under_the_plugin_dir)
{
    const char *src = getenv("RLX_TEST_SECURE_LOAD");
    if (!src || !*src)
        FAIL("RLX_TEST_SECURE_LOAD is not set (run through meson test)");
    if (geteuid() != 0)
        SKIP("making a set-user-ID copy needs root");
    const char *tmp_dir = rlx_test_dir();
    char helper[600], cmd[4096], dir[600], out[4096];
    snprintf(helper, sizeof helper, "%s/secure-load", tmp_dir);
    snprintf(dir, sizeof dir, "%s/opdir", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && mkdir -p '%s' && cp '%s' "
             "'%s/librlx-test-kernels-env.so' && chmod -R a+rX '%s'", src,
             helper, dir, kernels_path(), dir, dir);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(chown(helper, 0, 0), 0);
    ASSERT_EQ(chmod(helper, 04755), 0);
    ASSERT_EQ(chmod(tmp_dir, 0755), 0);
    /* an allowed absolute path outside the plugin directory is refused
     * (it loads in a normal process: int_float_double_args_by_absolute_
     * path) */
    char lib[700];
    snprintf(lib, sizeof lib, "%s/librlx-test-kernels-env.so", dir);
    const char *abs_model = kernel_model(lib);
    char copy[600];
    snprintf(copy, sizeof copy, "%s/abs.yaml", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 644 '%s'", abs_model,
             copy, copy);
    ASSERT_EQ(system(cmd), 0);
    int rc = run_secure(helper, copy, lib, out, sizeof out);
    if (rc == 3 || rc == 4 || (rc != 1 && rc != 0))
        SKIP("cannot run a set-user-ID program here (exit %d)", rc);
    ASSERT_EQ(rc, 1);
    if (!strstr(out, "set-user-ID process") || !strstr(out, "Fix:") ||
        !strstr(out, rlx_plugin_dir()))
        FAIL("absolute path outside the plugin dir: %s", out);
    /* a bare name in an allowed directory is refused too */
    const char *env_model = kernel_model("librlx-test-kernels-env.so");
    snprintf(copy, sizeof copy, "%s/env.yaml", tmp_dir);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && chmod 644 '%s'", env_model,
             copy, copy);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(run_secure(helper, copy, dir, out, sizeof out), 1);
    if (!strstr(out, "set-user-ID process"))
        FAIL("bare name in a set-user-ID process: %s", out);
    /* the same model compiles in a normal process */
    rlx_runtime *rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, dir), RLX_OK);
    rlx_model *m = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_EQ(rlx_model_load(copy, &m), RLX_OK);
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    if (rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK)
        FAIL("normal process: %s", rlx_last_error());
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(bad_signatures_and_arguments),
              TEST_ENTRY(bad_specs),
              TEST_ENTRY(bad_models),
              TEST_ENTRY(library_gone_at_compile),
              TEST_ENTRY(set_user_id_loads_only_under_the_plugin_dir));
