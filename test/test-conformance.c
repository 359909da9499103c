/*
 * test-conformance.c - `rlx conformance` as a backend author runs it:
 * cpu-ref against itself passes; a plugin whose add subtracts (the
 * testwrongadd test plugin, found through RLX_PLUGIN_PATH) fails on add,
 * with the size of the error, and is UNSUPPORTED everywhere else; whole
 * models compare too.
 */
#include "test-tool.h"

/* The report line for OP and DTYPE ("add", "f32"), or "". */
static const char *op_line(const char *op, const char *dtype)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%-12s %-5s ", op, dtype);
    return tool_line(prefix);
}

static void assert_verdict(const char *op, const char *dtype,
                           const char *verdict)
{
    const char *line = op_line(op, dtype);
    if (!strstr(line, verdict))
        FAIL("%s %s: expected %s, line is \"%s\" in:\n%s", op, dtype,
             verdict, line, tool_out);
}

TEST(cpu_ref_passes)
{
    unsetenv("RLX_PLUGIN_PATH");
    int rc = tool_run("conformance --backend cpu-ref", 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    assert_verdict("add", "f32", "PASS");
    assert_verdict("matmul", "f32", "PASS");
    assert_verdict("matmul", "bf16", "PASS");
    assert_verdict("softmax", "f16", "PASS");
    assert_verdict("gather", "i64", "PASS");
    /* the ABI 1.4 ops, named by their inputs' dtype, and integer math */
    assert_verdict("add", "i8", "PASS");
    assert_verdict("div", "u8", "PASS");
    assert_verdict("equal", "bool", "PASS");
    assert_verdict("less", "i64", "PASS");
    assert_verdict("where", "bf16", "PASS");
    assert_verdict("argmax", "i32", "PASS");
    assert_verdict("mod", "i8", "PASS");
    assert_verdict("round", "bf16", "PASS");
    assert_verdict("atanh", "bf16", "PASS");
    assert_verdict("acosh", "f16", "PASS");
    assert_verdict("bit_shift", "u8", "PASS");
    ASSERT_CONTAINS(tool_out, "Conformance of cpu-ref");
    ASSERT_CONTAINS(tool_out, " 0 FAIL");
    ASSERT_CONTAINS(tool_out, "(conformant)");
    /* the edge cases of docs/ops.md, with the doc's values */
    ASSERT_CONTAINS(tool_out, "Edge cases (values from ops.md");
    ASSERT_CONTAINS(tool_out, "gelu (erf) of +inf, -inf, NaN, 0: PASS");
    ASSERT_CONTAINS(tool_out, "causal softmax of [3, 2] (row 0 fully "
                              "masked): PASS");
    ASSERT_CONTAINS(tool_out, "reduce_mean over an empty axis: PASS");
    ASSERT_CONTAINS(tool_out, "round of 0.5, 1.5, 2.5, -0.5, -2.5, 3.5: "
                              "PASS");
    ASSERT_CONTAINS(tool_out, "i32 div: 7/-2, -7/2, 7/0, 5/0, INT32_MIN/-1: "
                              "PASS");
    ASSERT_CONTAINS(tool_out, "atanh of 1, -1, 2, -0: PASS");
    ASSERT_CONTAINS(tool_out, "u8 bit_shift right: 128>>7, 255>>8, 255>>9, "
                              "3>>0: PASS");
    ASSERT_CONTAINS(tool_out, "requantization: quantize_linear by 1, zp "
                              "130 of acc * m = 1.5, 2.5, 3.5, 127.5, "
                              "-130.5: PASS");
    ASSERT(strstr(tool_out, ": FAIL") == NULL);
}

TEST(same_seed_same_report)
{
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_EQ(tool_run("conformance --seed 42", 1), 0);
    char *first = strdup(tool_out);
    ASSERT(first);
    ASSERT_EQ(tool_run("conformance --seed=42", 1), 0);
    int same = strcmp(first, tool_out) == 0;
    free(first);
    ASSERT(same);
    ASSERT_CONTAINS(tool_out, "seed 42");
}

TEST(wrong_add_fails)
{
    char src[1024], dst[1024];
    const char *dir = tool_tmp_make();
    snprintf(src, sizeof src, "%s/librlx-backend-testwrongadd.so",
             tool_env("RLX_TEST_PLUGIN_DIR"));
    snprintf(dst, sizeof dst, "%s/librlx-backend-testwrongadd.so", dir);
    tool_file_copy(src, dst);
    ASSERT(setenv("RLX_PLUGIN_PATH", dir, 1) == 0);
    int rc = tool_run("conformance --backend test-wrongadd", 1);
    unsetenv("RLX_PLUGIN_PATH");
    if (rc != 1)
        FAIL("exit %d, expected 1:\n%s", rc, tool_out);
    ASSERT_CONTAINS(tool_out, "Conformance of test-wrongadd (device "
                              "wrongnpu");
    ASSERT_CONTAINS(tool_out, dst);
    assert_verdict("add", "f32", "FAIL");
    const char *add = op_line("add", "f32");
    ASSERT_CONTAINS(add, "max error ");
    ASSERT_CONTAINS(add, "(got ");
    ASSERT_CONTAINS(add, "want ");
    assert_verdict("add", "f16", "UNSUPPORTED");
    assert_verdict("sub", "f32", "UNSUPPORTED");
    assert_verdict("matmul", "f32", "UNSUPPORTED");
    assert_verdict("relu", "f32", "UNSUPPORTED");
    assert_verdict("reshape", "i32", "UNSUPPORTED");
    ASSERT_CONTAINS(tool_out, "1 FAIL");
    ASSERT_CONTAINS(tool_out, "(not conformant)");
}

TEST(models_compare)
{
    char model[1024], q[1100], args[2048];
    snprintf(model, sizeof model, "%s/mlp/mlp.yaml",
             tool_env("RLX_TEST_EXAMPLES_DIR"));
    tool_quote(q, sizeof q, model);
    unsetenv("RLX_PLUGIN_PATH");
    snprintf(args, sizeof args, "conformance --backend cpu-ref --models %s",
             q);
    int rc = tool_run(args, 1);
    if (rc != 0)
        FAIL("exit %d:\n%s", rc, tool_out);
    char want[1200];
    snprintf(want, sizeof want, "%s output probs: PASS", model);
    ASSERT_CONTAINS(tool_out, want);
}

TEST(json_report)
{
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_EQ(tool_run("conformance --backend cpu-ref --json", 0), 0);
    ASSERT(tool_out[0] == '{');
    ASSERT_CONTAINS(tool_out, "\"backend\": \"cpu-ref\"");
    ASSERT_CONTAINS(tool_out, "\"op\": \"matmul\"");
    ASSERT_CONTAINS(tool_out, "\"verdict\": \"PASS\"");
    ASSERT_CONTAINS(tool_out, "\"fail\": 0");
}

TEST(usage_and_unknown_backend)
{
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_EQ(tool_run("conformance --bogus", 1), 2);
    ASSERT_CONTAINS(tool_out, "unknown option '--bogus'");
    ASSERT_EQ(tool_run("conformance --seed x", 1), 2);
    ASSERT_EQ(tool_run("conformance stray", 1), 2);
    ASSERT_EQ(tool_run("conformance --backend", 1), 2);
    ASSERT_EQ(tool_run("conformance --backend no-such-backend", 1), 1);
    ASSERT_CONTAINS(tool_out, "no backend 'no-such-backend'");
    ASSERT_CONTAINS(tool_out, "Fix:");
}

RLX_TEST_LIST(TEST_ENTRY(cpu_ref_passes), TEST_ENTRY(same_seed_same_report),
              TEST_ENTRY(wrong_add_fails), TEST_ENTRY(models_compare),
              TEST_ENTRY(json_report), TEST_ENTRY(usage_and_unknown_backend));
