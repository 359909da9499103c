/*
 * test-model-security.c - a model file is data: loading, checking,
 * compiling, running or benchmarking a model runs no code the application
 * (or the user, with --allow-custom-ops) did not allow. A model calling
 * libc's `system` runs no command; a library with a constructor placed
 * next to a model is never opened, even when the model is invalid further
 * down; the C library is refused through a directory allowance; a data
 * symbol and a dependency's function are refused with a message; and the
 * allowed ways (a file, a directory, a soname, a registered kernel, per
 * runtime or per session) run the kernel.
 */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test-util.h"
#include "test-tool.h"
#include "custom-op-util.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* The real directory of the C library this process runs with. */
static const char *libc_dir(char *buf, size_t size)
{
    Dl_info info;
    if (!dladdr((void *)&printf, &info) || !info.dli_fname)
        FAIL("dladdr(printf) found no object");
    char *real = realpath(info.dli_fname, NULL);
    ASSERT(real != NULL);
    snprintf(buf, size, "%s", dirname(real));
    free(real);
    return buf;
}

/* ---- libc's system() named by a model ---------------------------------- */

static char sys_marker[700];

/* A model whose custom node is libc's system("touch MARKER"): the command
 * is a u8 constant, the output a second (ignored) pointer argument. */
static const char *system_model(const char *name, const char *library)
{
    char cmd[800], bytes[8192], yaml[10000];
    snprintf(sys_marker, sizeof sys_marker, "%s/system-ran", rlx_test_dir());
    snprintf(cmd, sizeof cmd, "touch '%s'", sys_marker);
    size_t n = strlen(cmd) + 1, k = 0;
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(bytes + k, sizeof bytes - k, "%s%u",
                              i ? ", " : "", (unsigned char)cmd[i]);
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [4]}]\n"
             "constants:\n"
             "  - {name: cmd, dtype: u8, shape: [%zu], value: [%s]}\n"
             "nodes:\n"
             "  - {name: y, op: custom, library: %s, symbol: system,\n"
             "     signature: \"i32(u8*, f32*)\", dtype: f32, shape: [4],\n"
             "     args: [cmd, y]}\n"
             "  - {name: z, op: add, inputs: [x, y]}\n"
             "outputs: [z]\n", n, bytes, library);
    return write_model(name, yaml);
}

/* Load PATH and compile it on the CPU in RT: the status of the compile
 * (the load must succeed: it opens nothing). Runs it when compiled. */
static rlx_status compile_model(rlx_runtime *rt, const char *path)
{
    rlx_model *m = NULL;
    if (rlx_model_load(path, &m) != RLX_OK)
        FAIL("load %s: %s", path, rlx_last_error());
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    rlx_status st = rlx_session_compile(s, rlx_model_graph(m), &p);
    if (st == RLX_OK) {
        float x[4] = { 0 };
        ASSERT_EQ(rlx_program_set_input(p, "x", x, sizeof x), RLX_OK);
        if (rlx_program_run(p) != RLX_OK)
            FAIL("run %s: %s", path, rlx_last_error());
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    return st;
}

TEST(system_from_libc_never_runs)
{
    const char *bare = system_model("sys.yaml", "libc.so.6");
    char dir[600], abs_lib[700], q[2048], args[4096];
    libc_dir(dir, sizeof dir);
    snprintf(abs_lib, sizeof abs_lib, "%s/libc.so.6", dir);
    const char *abs = system_model("sys-abs.yaml", abs_lib);
    unlink(sys_marker);

    /* the C API: nothing allowed */
    rlx_runtime *rt = test_runtime();
    ASSERT_EQ(compile_model(rt, bare), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("libc.so.6", "'system'", "--allow-custom-ops",
               "rlx_runtime_allow_custom_ops");
    ASSERT_EQ(compile_model(rt, abs), RLX_ERR_INVALID_ARGUMENT);
    ASSERT(!exists(sys_marker));
    /* a directory allowance never covers the C library, by bare name or
     * by path, even the root directory */
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, dir), RLX_OK);
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, "/"), RLX_OK);
    ASSERT_EQ(compile_model(rt, bare), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("the C library", "exact path or soname");
    ASSERT_EQ(compile_model(rt, abs), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("the C library");
    ASSERT(!exists(sys_marker));
    rlx_runtime_destroy(rt);

    /* the tool: run, check and bench */
    const char *cmds[] = { "run", "check", "bench" };
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 2; j++) {
            tool_quote(q, sizeof q, j ? abs : bare);
            snprintf(args, sizeof args, "%s %s --repeat 1", cmds[i], q);
            if (i == 1)
                snprintf(args, sizeof args, "check %s", q);
            int rc = tool_run(args, 1);
            if (exists(sys_marker))
                FAIL("rlx %s ran the model's shell command", args);
            if (rc == 0 && i != 2)
                FAIL("rlx %s succeeded: %s", args, tool_out);
            if (!strstr(tool_out, "--allow-custom-ops"))
                FAIL("rlx %s does not name the flag: %s", args, tool_out);
        }
    }
    /* with the C library's directory allowed, still nothing */
    tool_quote(q, sizeof q, bare);
    snprintf(args, sizeof args, "run %s --allow-custom-ops '%s'", q, dir);
    ASSERT(tool_run(args, 1) != 0);
    ASSERT(!exists(sys_marker));

    /* the model is a working exploit: an application that names libc
     * exactly gets what it asked for (so the refusals above are real) */
    rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, "libc.so.6"), RLX_OK);
    if (compile_model(rt, bare) != RLX_OK)
        FAIL("libc allowed exactly: %s", rlx_last_error());
    ASSERT(exists(sys_marker));
    unlink(sys_marker);
    rlx_runtime_destroy(rt);
}

/* ---- a library with a constructor next to the model ------------------- */

static char ctor_marker[700], ctor_dir[700];

static const char *hostile_lib(void)
{
    return tool_env("RLX_TEST_HOSTILE_LIB");
}

/* A model in ctor_dir calling SYMBOL of LIBRARY (as the model names it);
 * TAIL: more nodes (an invalid one, say). */
static const char *hostile_model(const char *name, const char *library,
                                 const char *symbol, const char *tail)
{
    char yaml[4096], rel[800];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs: [{name: x, dtype: f32, shape: [4]}]\n"
             "nodes:\n"
             "  - {name: y, op: custom, library: %s, symbol: %s,\n"
             "     signature: \"i32(i64, f32*)\", dtype: f32, shape: [4],\n"
             "     args: [$numel(x), y]}\n"
             "  - {name: z, op: add, inputs: [x, y]}\n"
             "%s"
             "outputs: [z]\n", library, symbol, tail);
    snprintf(rel, sizeof rel, "ctor/%s", name);
    return write_model(rel, yaml);
}

static void hostile_setup(void)
{
    char cmd[2400];
    snprintf(ctor_dir, sizeof ctor_dir, "%s/ctor", rlx_test_dir());
    snprintf(ctor_marker, sizeof ctor_marker, "%s/ctor-ran", rlx_test_dir());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && cp '%s' '%s/'", ctor_dir,
             hostile_lib(), ctor_dir);
    ASSERT_EQ(system(cmd), 0);
    setenv("RLX_TEST_CTOR_MARKER", ctor_marker, 1);
    unlink(ctor_marker);
}

TEST(constructor_next_to_the_model_never_runs)
{
    hostile_setup();
    const char *models[] = {
        hostile_model("rel.yaml", "./librlx-test-hostile.so", "rlxh_fill",
                      ""),
        hostile_model("bare.yaml", "librlx-test-hostile.so", "rlxh_fill",
                      ""),
        /* invalid further down: an unknown op after the custom node */
        hostile_model("bad.yaml", "./librlx-test-hostile.so", "rlxh_fill",
                      "  - {name: w, op: no_such_op, inputs: [z]}\n"),
    };
    /* the C API: load (the invalid one fails), compile with nothing
     * allowed */
    rlx_model *m = NULL;
    ASSERT(rlx_model_load(models[2], &m) != RLX_OK);
    ASSERT(strstr(rlx_last_error(), "no_such_op"));
    rlx_runtime *rt = test_runtime();
    for (int i = 0; i < 2; i++) {
        ASSERT_EQ(compile_model(rt, models[i]),
                  RLX_ERR_INVALID_ARGUMENT);
        ASSERT_MSG("librlx-test-hostile.so", "rlxh_fill",
                   "--allow-custom-ops");
    }
    /* allowing something else does not allow it */
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, kernels_path()), RLX_OK);
    ASSERT_EQ(compile_model(rt, models[0]), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("not a library the application allowed");
    ASSERT_EQ(compile_model(rt, models[1]), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("no allowed file, directory or soname");
    rlx_runtime_destroy(rt);
    ASSERT(!exists(ctor_marker));
    /* the tool, every command, every model */
    const char *cmds[] = { "run %s", "check %s", "bench %s --repeat 1" };
    char q[2048], args[4096];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            tool_quote(q, sizeof q, models[j]);
            snprintf(args, sizeof args, cmds[i], q);
            int rc = tool_run(args, 1);
            if (exists(ctor_marker))
                FAIL("rlx %s ran the constructor", args);
            if (rc == 0 && i != 2)
                FAIL("rlx %s succeeded: %s", args, tool_out);
        }
    /* allowed by the user: the constructor runs, and so does the op */
    tool_quote(q, sizeof q, models[1]);
    snprintf(args, sizeof args, "run %s --allow-custom-ops '%s' --seed 1",
             q, ctor_dir);
    if (tool_run(args, 1) != 0)
        FAIL("rlx %s: %s", args, tool_out);
    ASSERT(exists(ctor_marker));
    unlink(ctor_marker);
}

/* ---- symbols: functions of the library itself only -------------------- */

TEST(data_symbols_and_dependencies_refused)
{
    hostile_setup();
    rlx_runtime *rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, ctor_dir), RLX_OK);
    const char *data = hostile_model("data.yaml", "librlx-test-hostile.so",
                                     "rlxh_table", "");
    ASSERT_EQ(compile_model(rt, data), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("rlxh_table", "is not a function", "would jump into data");
    /* dlsym would find libc's system through the library's dependencies */
    const char *dep = hostile_model("dep.yaml", "librlx-test-hostile.so",
                                    "system", "");
    ASSERT_EQ(compile_model(rt, dep), RLX_ERR_NOT_FOUND);
    ASSERT_MSG("has no function 'system' of its own");
    /* the tool says the same */
    char q[2048], args[4096];
    tool_quote(q, sizeof q, data);
    snprintf(args, sizeof args, "run %s --allow-custom-ops '%s'", q,
             ctor_dir);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT(strstr(tool_out, "is not a function"));
    rlx_runtime_destroy(rt);
}

/* ---- the allowed ways ------------------------------------------------- */

static void check_sevens(rlx_runtime *rt, const char *path,
                         rlx_session *session_allowing)
{
    float x[4] = { 1, 2, 3, 4 }, z[4];
    feed in[] = { { "x", x, sizeof x } };
    if (session_allowing) {
        rlx_program *p = NULL;
        rlx_model *m = NULL;
        ASSERT_EQ(rlx_model_load(path, &m), RLX_OK);
        if (rlx_session_compile(session_allowing, rlx_model_graph(m), &p) !=
            RLX_OK)
            FAIL("%s: %s", path, rlx_last_error());
        ASSERT_EQ(rlx_program_set_input(p, "x", x, sizeof x), RLX_OK);
        ASSERT_EQ(rlx_program_run(p), RLX_OK);
        memcpy(z, rlx_program_output_data(p, 0, NULL), sizeof z);
        rlx_program_destroy(p);
        rlx_model_destroy(m);
    } else {
        run_model(rt, path, "cpu", in, 1, 0, z, sizeof z);
    }
    for (int i = 0; i < 4; i++)
        ASSERT(z[i] == x[i] + 7.0f);
}

TEST(allowed_file_directory_soname_and_registration_run)
{
    hostile_setup();
    char lib[800];
    snprintf(lib, sizeof lib, "%s/librlx-test-hostile.so", ctor_dir);
    const char *rel = hostile_model("ok-rel.yaml", "./librlx-test-hostile.so",
                                    "rlxh_fill", "");
    const char *bare = hostile_model("ok-bare.yaml", "librlx-test-hostile.so",
                                     "rlxh_fill", "");
    const char *abs = hostile_model("ok-abs.yaml", lib, "rlxh_fill", "");
    /* the file, by its path: every way the model may name it */
    rlx_runtime *rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, lib), RLX_OK);
    check_sevens(rt, rel, NULL);
    check_sevens(rt, bare, NULL);
    check_sevens(rt, abs, NULL);
    rlx_runtime_destroy(rt);
    /* the directory, for one session only */
    rt = test_runtime();
    rlx_session *s = NULL;
    ASSERT_EQ(rlx_session_create(rt, "cpu", &s), RLX_OK);
    ASSERT_EQ(rlx_session_allow_custom_ops(s, ctor_dir), RLX_OK);
    check_sevens(rt, bare, s);
    check_sevens(rt, rel, s);
    rlx_session_destroy(s);
    ASSERT_EQ(compile_model(rt, bare), RLX_ERR_INVALID_ARGUMENT);
    rlx_runtime_destroy(rt);
    /* another soname allowed does not allow this one */
    rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, "libm.so.6"), RLX_OK);
    ASSERT_EQ(compile_model(rt, bare), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("no allowed file, directory or soname");
    rlx_runtime_destroy(rt);
    /* a kernel registered for a custom domain allows its library */
    rt = test_runtime();
    rlx_custom_arg a[2] = { { .kind = RLX_CUSTOM_ARG_NUMEL, .index = 0 },
                            { .kind = RLX_CUSTOM_ARG_TENSOR,
                              .index = RLX_CUSTOM_OUTPUT } };
    rlx_custom_op op = { .struct_size = sizeof op, .library = lib,
                         .symbol = "rlxh_fill",
                         .signature = "i32(i64, f32*)", .n_args = 2,
                         .args = a, .init_input = -1 };
    ASSERT_EQ(rlx_runtime_register_custom_op(rt, "com.example", "Fill", &op),
              RLX_OK);
    check_sevens(rt, abs, NULL);
    /* bad registrations are refused with a Fix */
    ASSERT_EQ(rlx_runtime_register_custom_op(rt, "", "Fill", &op),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("DOMAIN");
    op.n_args = 1;
    ASSERT_EQ(rlx_runtime_register_custom_op(rt, "com.example", "Fill", &op),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_MSG("takes 2 arguments but N_ARGS is 1");
    op.n_args = 2;
    op.signature = "i32(i64, f32*";
    ASSERT_EQ(rlx_runtime_register_custom_op(rt, "com.example", "Fill", &op),
              RLX_ERR_INVALID_ARGUMENT);
    rlx_runtime_destroy(rt);
    /* allowances that cannot mean anything are refused */
    rt = test_runtime();
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, "/no/such/dir"),
              RLX_ERR_NOT_FOUND);
    ASSERT_MSG("/no/such/dir", "does not exist");
    ASSERT_EQ(rlx_runtime_allow_custom_ops(rt, ""),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_EQ(rlx_runtime_allow_custom_ops(NULL, lib),
              RLX_ERR_INVALID_ARGUMENT);
    rlx_runtime_destroy(rt);
    /* the tool: a library file */
    char q[2048], args[4096];
    tool_quote(q, sizeof q, rel);
    snprintf(args, sizeof args, "run %s --allow-custom-ops '%s'", q, lib);
    if (tool_run(args, 1) != 0)
        FAIL("rlx %s: %s", args, tool_out);
    snprintf(args, sizeof args, "check %s --allow-custom-ops '%s'", q, lib);
    if (tool_run(args, 1) != 0)
        FAIL("rlx %s: %s", args, tool_out);
    snprintf(args, sizeof args, "run %s --allow-custom-ops", q);
    ASSERT_EQ(tool_run(args, 1), 2);
    unlink(ctor_marker);
}

RLX_TEST_LIST(TEST_ENTRY(system_from_libc_never_runs),
              TEST_ENTRY(constructor_next_to_the_model_never_runs),
              TEST_ENTRY(data_symbols_and_dependencies_refused),
              TEST_ENTRY(allowed_file_directory_soname_and_registration_run));
