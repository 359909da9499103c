/*
 * test-demo.c - `rlx demo`: its device choice in one line, as `rlx run`
 * prints it, with every candidate behind --why (-v).
 *
 * RLX_TEST_RLX_BIN is the tool.
 */
#include "test-tool.h"

TEST(demo_device_choice_brief)
{
    ASSERT_EQ(tool_run("demo", 1), 0);
    ASSERT_CONTAINS(tool_out, "Backend: cpu-ref on cpu:0\n");
    ASSERT_CONTAINS(tool_out, "Why:     no device requested; chose backend "
                              "'cpu-ref' for cpu:0 (--why lists the ");
    ASSERT(strstr(tool_out, "Why this backend:") == NULL);
    ASSERT(strstr(tool_out, "no backend registered") == NULL);
    ASSERT_CONTAINS(tool_out, "Checksum: sum ");
    const char *full[] = { "--why", "-v" };
    for (int i = 0; i < 2; i++) {
        char args[64];
        snprintf(args, sizeof args, "demo %s", full[i]);
        ASSERT_EQ(tool_run(args, 1), 0);
        ASSERT_CONTAINS(tool_out, "Why:\n  no device requested; trying in "
                                  "order:\n");
        ASSERT_CONTAINS(tool_out, "    cuda: no backend registered\n");
        ASSERT_CONTAINS(tool_out, "  chose backend 'cpu-ref' for cpu:0\n");
    }
    /* a device asked for: still one line */
    ASSERT_EQ(tool_run("demo --device cpu", 1), 0);
    ASSERT_CONTAINS(tool_out, "Why:     requested device 'cpu'; chose "
                              "backend 'cpu-ref' for cpu:0");
}

RLX_TEST_LIST(TEST_ENTRY(demo_device_choice_brief));
