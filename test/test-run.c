/*
 * test-run.c - `rlx run` on the example models, checked against the
 * outputs NumPy computed for them (examples/generate.py), plus its
 * usage errors, its .npy checks and its seeded inputs.
 *
 * RLX_TEST_RLX_BIN is the tool, RLX_TEST_EXAMPLES_DIR the generated
 * examples in the build tree.
 */
#include <math.h>

#include "test-tool.h"
#include "test-util.h"

static const char *example(char *buf, size_t n, const char *rel)
{
    snprintf(buf, n, "%s/%s", tool_env("RLX_TEST_EXAMPLES_DIR"), rel);
    if (access(buf, R_OK) != 0)
        FAIL("%s is missing: were the examples generated (NumPy)?", buf);
    return buf;
}

/* `rlx run` of MODEL with INPUT on cpu-ref, output OUTPUT compared with
 * EXPECTED: relative to the output's largest value, and element-wise. */
static void run_and_compare(const char *model, const char *input,
                            const char *output, const char *expected)
{
    char m[1024], in[1024], exp[1024], args[4096], got_path[1100];
    char qm[1100], qin[1100], qdir[200];
    const char *dir = tool_tmp_make();
    tool_npy got, want;

    tool_quote(qm, sizeof qm, example(m, sizeof m, model));
    tool_quote(qin, sizeof qin, example(in, sizeof in, input));
    tool_quote(qdir, sizeof qdir, dir);
    snprintf(args, sizeof args, "run %s --device cpu-ref --input x=%s "
             "--output %s", qm, qin, qdir);
    int rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("rlx %s exited %d:\n%s", args, rc, tool_out);
    ASSERT_CONTAINS(tool_out, "Backend: cpu-ref on cpu:0");
    ASSERT_CONTAINS(tool_out, "Plugin:  (built-in)");
    ASSERT_CONTAINS(tool_out, "checksum: sum ");
    ASSERT_CONTAINS(tool_out, " ms, run ");

    snprintf(got_path, sizeof got_path, "%s/%s.npy", dir, output);
    tool_npy_read(got_path, &got);
    tool_npy_read(example(exp, sizeof exp, expected), &want);
    ASSERT_EQ(got.rank, want.rank);
    for (int i = 0; i < got.rank; i++)
        ASSERT_EQ(got.dims[i], want.dims[i]);
    double max_diff = 0, max_ref = 0;
    size_t bad = 0;
    for (size_t i = 0; i < got.count; i++) {
        double d = fabs((double)got.data[i] - want.data[i]);
        if (!(d <= 1e-6 + 1e-5 * fabs(want.data[i])))
            bad++;
        if (!(d <= max_diff))
            max_diff = d;
        if (fabs(want.data[i]) > max_ref)
            max_ref = fabs(want.data[i]);
    }
    tool_npy_free(&got);
    tool_npy_free(&want);
    printf("# %s: max |rlx - numpy| %.3g, relative to max |numpy| %.3g\n",
           model, max_diff, max_diff / max_ref);
    ASSERT(max_ref > 0);
    ASSERT(max_diff / max_ref < 1e-5);
    ASSERT_EQ(bad, 0);
}

TEST(mlp_matches_numpy)
{
    run_and_compare("mlp/mlp.yaml", "mlp/x.npy", "probs",
                    "mlp/probs.expected.npy");
    ASSERT_CONTAINS(tool_out, "Model:   mlp");
    ASSERT_CONTAINS(tool_out, "Output:  probs [8, 10] f32");
}

TEST(encoder_matches_numpy)
{
    run_and_compare("transformer/encoder.yaml", "transformer/x.npy", "y",
                    "transformer/y.expected.npy");
    ASSERT_CONTAINS(tool_out, "Model:   encoder");
    ASSERT_CONTAINS(tool_out, "Output:  y [2, 64, 256] f32");
}

static const char *mlp_quoted(void)
{
    static char q[1100];
    char m[1024];
    tool_quote(q, sizeof q, example(m, sizeof m, "mlp/mlp.yaml"));
    return q;
}

TEST(usage_errors)
{
    char args[2048];
    ASSERT_EQ(tool_run("run", 1), 2);
    ASSERT_CONTAINS(tool_out, "no model given");
    ASSERT_CONTAINS(tool_out, "--help");
    const char *bad[] = { "--input x", "--input =a.npy", "--input x=",
                          "--repeat 0", "--repeat 3x", "--seed -1",
                          "--seed abc", "--bogus", "--device",
                          "other.yaml", "--input x=a.npy --input x=b.npy" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        snprintf(args, sizeof args, "run %s %s", mlp_quoted(), bad[i]);
        int rc = tool_run(args, 1);
        if (rc != 2)
            FAIL("rlx %s exited %d, expected 2:\n%s", args, rc, tool_out);
        ASSERT_CONTAINS(tool_out, "rlx: run: ");
    }
    /* An input the model does not have is named, with the real ones. */
    snprintf(args, sizeof args, "run %s --input nope=a.npy", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 2);
    ASSERT_CONTAINS(tool_out, "no input 'nope'");
    ASSERT_CONTAINS(tool_out, "Fix: name one of its inputs: x");
    ASSERT_EQ(tool_run("help", 0), 0);
    ASSERT_CONTAINS(tool_out, "run MODEL.yaml");
    ASSERT_CONTAINS(tool_out, "conformance");
}

/* `rlx run mlp --input x=PATH` fails with exit 1, a Fix and NEEDLE. */
static void bad_input(const char *path, const char *needle)
{
    char q[1100], args[4096];
    tool_quote(q, sizeof q, path);
    snprintf(args, sizeof args, "run %s --input x=%s", mlp_quoted(), q);
    int rc = tool_run(args, 1);
    if (rc != 1)
        FAIL("rlx %s exited %d, expected 1:\n%s", args, rc, tool_out);
    ASSERT_CONTAINS(tool_out, "rlx: input 'x': ");
    ASSERT_CONTAINS(tool_out, "Fix:");
    ASSERT_CONTAINS(tool_out, needle);
}

/* A version 1.0 header for DESCR and SHAPE, padded to 64 bytes. */
static size_t npy_header(unsigned char *buf, const char *descr,
                         const char *shape)
{
    char h[256];
    int n = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, "
                     "'shape': %s, }", descr, shape);
    while ((10 + n + 1) % 64)
        h[n++] = ' ';
    h[n++] = '\n';
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)n;
    buf[9] = 0;
    memcpy(buf + 10, h, (size_t)n);
    return 10 + (size_t)n;
}

TEST(bad_npy_inputs)
{
    char path[256], x[1024];
    unsigned char buf[8192];
    const char *dir = tool_tmp_make();
    size_t len, n;

    snprintf(path, sizeof path, "%s/missing.npy", dir);
    bad_input(path, "No such file");

    snprintf(path, sizeof path, "%s/garbage.npy", dir);
    tool_file_write(path, "this is not numpy", 17);
    bad_input(path, "not a .npy file");

    snprintf(path, sizeof path, "%s/truncated.npy", dir);
    unsigned char *orig = tool_file_read(example(x, sizeof x, "mlp/x.npy"),
                                         1000, &len);
    tool_file_write(path, orig, len);
    free(orig);
    bad_input(path, "truncated data");

    snprintf(path, sizeof path, "%s/shape.npy", dir);
    n = npy_header(buf, "<f4", "(2, 3)");
    memset(buf + n, 0, 24);
    tool_file_write(path, buf, n + 24);
    bad_input(path, "holds f32 [2, 3], but the model wants f32 [8, 784]");

    snprintf(path, sizeof path, "%s/dtype.npy", dir);
    n = npy_header(buf, "<i4", "(2,)");
    memset(buf + n, 0, 8);
    tool_file_write(path, buf, n + 8);
    bad_input(path, "holds i32 [2]");

    snprintf(path, sizeof path, "%s/bigendian.npy", dir);
    n = npy_header(buf, ">f4", "(2,)");
    tool_file_write(path, buf, n + 8);
    bad_input(path, "dtype '>f4' is not supported");

    snprintf(path, sizeof path, "%s/fortran.npy", dir);
    n = npy_header(buf, "<f4", "(2, 2)");
    memcpy(strstr((char *)buf + 10, "False"), "True ", 5);
    tool_file_write(path, buf, n + 16);
    bad_input(path, "Fortran order");

    snprintf(path, sizeof path, "%s/trailing.npy", dir);
    n = npy_header(buf, "<f4", "(2,)");
    tool_file_write(path, buf, n + 9);
    bad_input(path, "trailing bytes");

    /* a zero dim must not excuse the others (the array is empty) */
    snprintf(path, sizeof path, "%s/zerohuge.npy", dir);
    n = npy_header(buf, "<f4", "(0, 4611686018427387904, 4)");
    tool_file_write(path, buf, n);
    bad_input(path, "the header's shape is too large");

    snprintf(path, sizeof path, "%s/version.npy", dir);
    n = npy_header(buf, "<f4", "(2,)");
    buf[6] = 9;
    tool_file_write(path, buf, n + 8);
    bad_input(path, "format version 9.0");
}

static void checksum(char *dst, size_t n)
{
    const char *line = strstr(tool_out, "checksum:");
    ASSERT(line);
    size_t len = strcspn(line, "\n");
    ASSERT(len < n);
    memcpy(dst, line, len);
    dst[len] = '\0';
}

TEST(seeded_inputs_are_deterministic)
{
    char args[2048], a[256], b[256], c[256];
    snprintf(args, sizeof args, "run %s --seed 7 --repeat 3", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "random in [-1, 1) from seed 7");
    ASSERT_CONTAINS(tool_out, "(median of 3)");
    checksum(a, sizeof a);
    ASSERT_EQ(tool_run(args, 1), 0);
    checksum(b, sizeof b);
    ASSERT_STREQ(a, b);
    snprintf(args, sizeof args, "run %s --seed=8", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    checksum(c, sizeof c);
    ASSERT(strcmp(a, c) != 0);
}

TEST(model_errors_pass_through)
{
    char path[256], q[300], args[512];
    const char *dir = tool_tmp_make();
    snprintf(path, sizeof path, "%s/broken.yaml", dir);
    tool_file_write(path, "rlx_model: 1\nname: broken\nnodes: [\n", 35);
    tool_quote(q, sizeof q, path);
    snprintf(args, sizeof args, "run %s", q);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "broken.yaml");
    ASSERT_CONTAINS(tool_out, "Fix");
    snprintf(args, sizeof args, "run %s/nonexistent.yaml", dir);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "nonexistent.yaml");
}

/* bf16 has no NumPy type: its raw bits travel as '<u2', in and out. */
TEST(bf16_as_raw_bits)
{
    static const char yaml[] =
        "rlx_model: 1\nname: bf\ninputs:\n"
        "  - {name: x, dtype: bf16, shape: [3]}\n"
        "nodes:\n  - {name: r, op: relu, inputs: [x]}\n"
        "outputs:\n  - {name: y, value: r}\n";
    /* 1.5, -2, 0.25 as bf16 */
    static const unsigned char bits[6] = { 0xc0, 0x3f, 0x00, 0xc0,
                                           0x80, 0x3e };
    char path[256], npy[256], out[300], args[1200];
    unsigned char buf[256];
    const char *dir = tool_tmp_make();
    size_t n, len;

    snprintf(path, sizeof path, "%s/bf.yaml", dir);
    tool_file_write(path, yaml, sizeof yaml - 1);
    snprintf(npy, sizeof npy, "%s/x.npy", dir);
    n = npy_header(buf, "<u2", "(3,)");
    memcpy(buf + n, bits, sizeof bits);
    tool_file_write(npy, buf, n + sizeof bits);
    snprintf(args, sizeof args, "run %s --input x=%s --output %s", path, npy,
             dir);
    int rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "values: 1.5 0 0.25");
    snprintf(out, sizeof out, "%s/y.npy", dir);
    unsigned char *got = tool_file_read(out, 4096, &len);
    size_t data = len > 10 ? 10 + ((size_t)got[8] | (size_t)got[9] << 8)
                           : len;
    static const unsigned char want[6] = { 0xc0, 0x3f, 0, 0, 0x80, 0x3e };
    int ok = data % 64 == 0 && len == data + 6 &&
             strstr((char *)got + 10, "'descr': '<u2'") &&
             !memcmp(got + data, want, 6);
    free(got);
    ASSERT(ok);
}

/* The device choice in one line; every candidate behind --why (-v). */
TEST(device_choice_brief)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s --device cpu", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "Why:     requested device 'cpu'; chose "
                              "backend 'cpu-ref' for cpu:0 (--why lists");
    ASSERT(strstr(tool_out, "\n    cpu: backend") == NULL);
    snprintf(args, sizeof args, "run %s", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "Why:     no device requested; chose backend "
                              "'cpu-ref' for cpu:0 (--why lists the ");
    ASSERT(strstr(tool_out, "no backend registered") == NULL);
    const char *full[] = { "--why", "-v" };
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "run %s %s", mlp_quoted(), full[i]);
        ASSERT_EQ(tool_run(args, 1), 0);
        ASSERT_CONTAINS(tool_out, "Why:\n  no device requested; trying in "
                                  "order:\n");
        ASSERT_CONTAINS(tool_out, "    cuda: no backend registered\n");
        ASSERT_CONTAINS(tool_out, "  chose backend 'cpu-ref' for cpu:0\n");
    }
}

/* --fallback whole on a device that lacks a node: the header names the
 * backend that runs the graph, and which one declined it and why. */
TEST(whole_fallback_names_the_backend)
{
    static const char yaml[] =
        "rlx_model: 1\nname: partial\ninputs:\n"
        "  - {name: x, dtype: f32, shape: [2, 3]}\n"
        "nodes:\n  - {name: h, op: gelu, inputs: [x]}\n"
        "  - {name: r, op: relu, inputs: [h]}\n"
        "  - {name: z, op: add, inputs: [r, r]}\n"
        "outputs: [z]\n";
    char path[256], plugin[256], args[1200];
    const char *dir = tool_tmp_make();
    snprintf(path, sizeof path, "%s/partial.yaml", dir);
    tool_file_write(path, yaml, sizeof yaml - 1);
    snprintf(plugin, sizeof plugin, "%s/librlx-backend-testnpupart.so", dir);
    tool_file_copy(test_plugin("testnpupart"), plugin);
    ASSERT(setenv("RLX_PLUGIN_PATH", dir, 1) == 0);

    snprintf(args, sizeof args, "run %s --device npu --fallback whole", path);
    int rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "Backend: cpu-ref on cpu:0 (the whole graph; "
                              "test-npu on npu:0 declined it)\n");
    ASSERT_CONTAINS(tool_out, "Plugin:  (built-in)\n");
    ASSERT_CONTAINS(tool_out, "backend 'test-npu' declined node 'h' (op "
                              "gelu): backend 'test-npu' has no gelu");
    ASSERT_CONTAINS(tool_out, "Placement: 3 nodes on cpu:0, 0 transfers");
    snprintf(args, sizeof args, "run %s --device npu --fallback whole --why",
             path);
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "placed over 1 piece: ");
    ASSERT(strstr(tool_out, "1 pieces") == NULL);

    /* split: the device runs its part, and the header says so */
    snprintf(args, sizeof args, "run %s --device npu --why", path);
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "Backend: test-npu on npu:0\n");
    ASSERT_CONTAINS(tool_out, "placed over 2 pieces: ");

    /* a choice that failed explains itself in full, without --why */
    snprintf(args, sizeof args, "run %s --fallback none", path);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "rlx: how the device was chosen:\n  no device "
                              "requested; trying in order:\n");
    ASSERT_CONTAINS(tool_out, "    cuda: no backend registered\n");
    ASSERT(unsetenv("RLX_PLUGIN_PATH") == 0);
}

TEST(bad_device)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s --device no-such-device",
             mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "rlx: cannot open a session");
}

/* Option values that used to be misread: an empty device ran on the
 * default one, "--seed 010" was octal, "--output ''" said "too long". */
TEST(option_values_checked)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s --device ''", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 2);
    ASSERT_CONTAINS(tool_out, "rlx: run: --device wants a device name");
    snprintf(args, sizeof args, "check %s --device=", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 2);
    ASSERT_CONTAINS(tool_out, "rlx: check: --device wants a device name");
    ASSERT_EQ(tool_run("demo --device ''", 1), 2);
    ASSERT_CONTAINS(tool_out, "rlx: demo: --device wants a device name");
    snprintf(args, sizeof args, "run %s --seed 010", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "random in [-1, 1) from seed 10\n");
    snprintf(args, sizeof args, "run %s --seed 08", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "random in [-1, 1) from seed 8\n");
    ASSERT_EQ(tool_run("demo --batch 010", 1), 0);
    ASSERT_CONTAINS(tool_out, "batch 10");
    snprintf(args, sizeof args, "run %s --output ''", mlp_quoted());
    ASSERT_EQ(tool_run(args, 1), 2);
    ASSERT_CONTAINS(tool_out, "--output wants a directory");
}

/* A bad --output fails before the model runs, not after. */
TEST(output_checked_before_running)
{
    char path[8192], q[8300], args[16384];
    const char *dir = tool_tmp_make();
    /* under a regular file: cannot be made */
    snprintf(path, sizeof path, "%s/file", dir);
    tool_file_write(path, "x", 1);
    snprintf(path, sizeof path, "%s/file/sub", dir);
    tool_quote(q, sizeof q, path);
    snprintf(args, sizeof args, "run %s --output %s", mlp_quoted(), q);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "Fix: pick a");
    ASSERT(!strstr(tool_out, "Time:"));
    /* longer than PATH_MAX */
    int k = snprintf(path, sizeof path, "%s/", dir);
    memset(path + k, 'a', 4200);
    path[k + 4200] = '\0';
    tool_quote(q, sizeof q, path);
    snprintf(args, sizeof args, "run %s --output %s", mlp_quoted(), q);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "the --output path is ");
    ASSERT_CONTAINS(tool_out, "Fix: pick a shorter --output directory");
    ASSERT(!strstr(tool_out, "Time:"));
    /* an output whose name cannot be a file name */
    char model[512], yaml[1024], name[301];
    memset(name, 'o', 300);
    name[300] = '\0';
    snprintf(model, sizeof model, "%s/long.yaml", dir);
    int n = snprintf(yaml, sizeof yaml, "rlx_model: 1\ninputs:\n  - {name: "
                     "x, dtype: f32, shape: [2]}\nnodes:\n  - {name: y, op: "
                     "relu, inputs: [x]}\noutputs:\n  - {name: %s, value: "
                     "y}\n", name);
    tool_file_write(model, yaml, (size_t)n);
    tool_quote(q, sizeof q, model);
    snprintf(args, sizeof args, "run %s --output %s/out", q, dir);
    ASSERT_EQ(tool_run(args, 1), 1);
    ASSERT_CONTAINS(tool_out, "too long for a file name");
    ASSERT(!strstr(tool_out, "Time:"));
    tool_tmp_remove_all();
}

/* Names from a model are printed with their control characters escaped:
 * an output named with terminal escapes must not reach the terminal. */
TEST(names_from_files_escaped)
{
    char model[256], q[300], args[512];
    const char *dir = tool_tmp_make();
    static const char yaml[] =
        "rlx_model: 1\nname: \"evil\\e]0;TITLE\\a\"\ninputs:\n"
        "  - {name: x, dtype: f32, shape: [2]}\nnodes:\n"
        "  - {name: \"y\\e[2J\", op: relu, inputs: [x]}\noutputs:\n"
        "  - {name: \"out\\e[2J\\x9b\", value: \"y\\e[2J\"}\n";
    snprintf(model, sizeof model, "%s/evil.yaml", dir);
    tool_file_write(model, yaml, sizeof yaml - 1);
    tool_quote(q, sizeof q, model);
    snprintf(args, sizeof args, "run %s", q);
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "Model:   evil\\x1b]0;TITLE\\x07 (");
    ASSERT_CONTAINS(tool_out, "Output:  out\\x1b[2J\\xc2\\x9b [2]");
    ASSERT(!strchr(tool_out, '\x1b') && !strchr(tool_out, '\a'));
    ASSERT(!strstr(tool_out, "\xc2\x9b"));
    snprintf(args, sizeof args, "check %s", q);
    ASSERT_EQ(tool_run(args, 1), 0);
    ASSERT_CONTAINS(tool_out, "  y\\x1b[2J ");
    ASSERT(!strchr(tool_out, '\x1b'));
    tool_tmp_remove_all();
}

/* --pick fastest times the devices of RLX_DEVICE_CHAIN, as the chain
 * does: a bad chain fails instead of being ignored. */
TEST(pick_fastest_reads_device_chain)
{
    char args[2048];
    snprintf(args, sizeof args, "run %s --pick fastest", mlp_quoted());
    setenv("RLX_DEVICE_CHAIN", "no-such-device", 1);
    int rc = tool_run(args, 1);
    unsetenv("RLX_DEVICE_CHAIN");
    ASSERT_EQ(rc, 1);
    ASSERT_CONTAINS(tool_out, "device chain 'no-such-device'");
    setenv("RLX_DEVICE_CHAIN", "cpu-ref", 1);
    rc = tool_run(args, 1);
    unsetenv("RLX_DEVICE_CHAIN");
    ASSERT_EQ(rc, 0);
    ASSERT_CONTAINS(tool_out, "  cpu-ref ");
    ASSERT_CONTAINS(tool_out, "<- fastest");
}

RLX_TEST_LIST(TEST_ENTRY(mlp_matches_numpy), TEST_ENTRY(encoder_matches_numpy),
              TEST_ENTRY(option_values_checked),
              TEST_ENTRY(output_checked_before_running),
              TEST_ENTRY(names_from_files_escaped),
              TEST_ENTRY(pick_fastest_reads_device_chain),
              TEST_ENTRY(usage_errors), TEST_ENTRY(bad_npy_inputs),
              TEST_ENTRY(seeded_inputs_are_deterministic),
              TEST_ENTRY(model_errors_pass_through),
              TEST_ENTRY(bf16_as_raw_bits),
              TEST_ENTRY(device_choice_brief),
              TEST_ENTRY(whole_fallback_names_the_backend),
              TEST_ENTRY(bad_device));
