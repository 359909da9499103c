/* test-registry.c - registry semantics: built-in backend, priorities,
 * overrides, live availability, snapshots, custom device kinds. */
#include <rlx/backend.h>

#include "test-util.h"

TEST(builtin_reference_backend)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_EQ(rlx_runtime_backend_count(rt), 1);
    const rlx_backend *b = rlx_runtime_backend(rt, 0);
    ASSERT_STREQ(rlx_backend_id(b), "cpu-ref");
    ASSERT_EQ(rlx_backend_device_kind(b), RLX_DEVICE_CPU);
    ASSERT_STREQ(rlx_backend_device_name(b), "cpu");
    ASSERT_EQ(rlx_backend_priority(b), RLX_PRIORITY_REFERENCE);
    ASSERT_STREQ(rlx_backend_plugin_path(b), "(built-in)");
    ASSERT_EQ(rlx_backend_abi_version(b), RLX_ABI_VERSION);
    ASSERT(rlx_backend_executes(b));
    ASSERT(rlx_runtime_choose(rt, "cpu") == b);
    uint32_t count = 0;
    ASSERT_OK(rlx_backend_probe(b, &count));
    ASSERT_EQ(count, 1);
    ASSERT(rlx_runtime_backend(rt, 1) == NULL);
    ASSERT(rlx_runtime_find_backend(rt, "nope") == NULL);
    rlx_runtime_destroy(rt);
}

TEST(supports_op_query)
{
    rlx_runtime *rt = test_runtime();
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-ref");
    ASSERT(rlx_backend_supports_op(b, RLX_OP_MATMUL, RLX_DTYPE_F32));
    ASSERT(rlx_backend_supports_op(b, RLX_OP_SOFTMAX, RLX_DTYPE_F32));
    /* unknown values mean "unsupported", never a crash */
    ASSERT(!rlx_backend_supports_op(b, (rlx_op)9999, RLX_DTYPE_F32));
    ASSERT(!rlx_backend_supports_op(b, RLX_OP_ADD, (rlx_dtype)9999));
    ASSERT(!rlx_backend_supports_op(NULL, RLX_OP_ADD, RLX_DTYPE_F32));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    const rlx_backend *g = rlx_runtime_find_backend(rt, "test-good");
    ASSERT(rlx_backend_supports_op(g, RLX_OP_ADD, RLX_DTYPE_F32));
    ASSERT(!rlx_backend_supports_op(g, RLX_OP_MATMUL, RLX_DTYPE_F32));
    rlx_runtime_destroy(rt);
}

TEST(higher_priority_overrides_builtin)
{
    rlx_runtime *rt = test_runtime();
    const rlx_backend *ref = rlx_runtime_find_backend(rt, "cpu-ref");
    ASSERT(rlx_runtime_choose(rt, "cpu") == ref);
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    const rlx_backend *fast = rlx_runtime_find_backend(rt, "test-fastcpu");
    ASSERT(fast);
    ASSERT_EQ(rlx_backend_priority(fast), RLX_PRIORITY_TUNED);
    ASSERT(rlx_runtime_choose(rt, "cpu") == fast);
    /* the old handle is still valid after the registry changed */
    ASSERT_STREQ(rlx_backend_id(ref), "cpu-ref");
    ASSERT(rlx_runtime_find_backend(rt, "cpu-ref") == ref);
    rlx_runtime_destroy(rt);
}

TEST(unavailable_backend_is_skipped_live)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    const rlx_backend *fast = rlx_runtime_find_backend(rt, "test-fastcpu");
    setenv("RLX_TEST_FASTCPU_OFF", "1", 1);
    uint32_t count = 7;
    rlx_status st = rlx_backend_probe(fast, &count);
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", rlx_last_error());
    const rlx_backend *chosen = rlx_runtime_choose(rt, "cpu");
    unsetenv("RLX_TEST_FASTCPU_OFF");
    ASSERT_EQ(st, RLX_ERR_UNAVAILABLE);
    ASSERT_EQ(count, 0);
    ASSERT_CONTAINS(msg, "switched off");
    ASSERT_CONTAINS(msg, "Fix:");
    ASSERT_STREQ(rlx_backend_id(chosen), "cpu-ref");
    /* probes are live: available again now */
    ASSERT(rlx_runtime_choose(rt, "cpu") == fast);
    rlx_runtime_destroy(rt);
}

TEST(device_descriptions)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    const rlx_backend *g = rlx_runtime_find_backend(rt, "test-good");
    rlx_device_info info = { .struct_size = sizeof info };
    ASSERT_OK(rlx_backend_device(g, 1, &info));
    ASSERT_STREQ(info.name, "test device 1");
    ASSERT_STREQ(info.type, "accelerator");
    ASSERT_EQ(info.memory_total, 2ull << 30);
    ASSERT_EQ(info.struct_size, sizeof info);
    ASSERT_STATUS(rlx_backend_device(g, 2, &info), RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "no such test device");
    /* an older caller's smaller struct gets only its own fields */
    struct { uint32_t struct_size; char name[128]; char guard[8]; } old;
    memset(&old, 0x5a, sizeof old);
    old.struct_size = RLX_STRUCT_SIZE_TO(rlx_device_info, name);
    ASSERT_OK(rlx_backend_device(g, 0, (rlx_device_info *)(void *)&old));
    ASSERT_STREQ(old.name, "test device 0");
    ASSERT_EQ((unsigned char)old.guard[0], 0x5a);
    const rlx_backend *ref = rlx_runtime_find_backend(rt, "cpu-ref");
    ASSERT_STATUS(rlx_backend_device(ref, 0, &info), RLX_ERR_UNSUPPORTED);
    info.struct_size = 0;
    ASSERT_STATUS(rlx_backend_device(g, 0, &info), RLX_ERR_INVALID_ARGUMENT);
    rlx_runtime_destroy(rt);
}

TEST(equal_priority_earlier_registration_wins)
{
    const char *order[2][2] = { { "testgood", "testdup" },
                                { "testdup", "testgood" } };
    const char *want[2] = { "test-good", "test-dup" };
    for (int k = 0; k < 2; k++) {
        rlx_runtime *rt = test_runtime();
        ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin(order[k][0])));
        ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin(order[k][1])));
        const rlx_backend *b = rlx_runtime_choose(rt, "npu");
        const char *id = rlx_backend_id(b);
        int same = id && strcmp(id, want[k]) == 0;
        rlx_runtime_destroy(rt);
        ASSERT(same);
    }
}

TEST(custom_device_and_indices)
{
    rlx_runtime *rt = test_runtime();
    ASSERT(rlx_runtime_choose(rt, "npu") == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "no backend for device 'npu'");
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    const rlx_backend *g = rlx_runtime_find_backend(rt, "test-good");
    ASSERT(rlx_runtime_choose(rt, "npu") == g);
    ASSERT(rlx_runtime_choose(rt, "npu:1") == g);
    ASSERT(rlx_runtime_choose(rt, "npu:2") == NULL);
    ASSERT(rlx_runtime_choose(rt, "npu:x") == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "not a device index");
    /* the emission-only backend is never chosen to run */
    const rlx_backend *e = rlx_runtime_find_backend(rt, "test-emit");
    ASSERT(e && !rlx_backend_executes(e));
    rlx_runtime_destroy(rt);
}

TEST(listing_is_a_stable_snapshot)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")));
    const char *ids[] = { "cpu-ref", "test-good", "test-emit",
                          "test-fastcpu" };
    ASSERT_EQ(rlx_runtime_backend_count(rt), 4);
    for (uint32_t i = 0; i < 4; i++)
        ASSERT_STREQ(rlx_backend_id(rlx_runtime_backend(rt, i)), ids[i]);
    rlx_runtime_destroy(rt);
}

TEST(names_round_trip)
{
    for (int t = RLX_DTYPE_F32; t <= RLX_DTYPE_LAST; t++) {
        rlx_dtype back;
        ASSERT_OK(rlx_dtype_from_name(rlx_dtype_name((rlx_dtype)t), &back));
        ASSERT_EQ(back, t);
    }
    rlx_op op;
    ASSERT_OK(rlx_op_from_name("matmul", &op));
    ASSERT_EQ(op, RLX_OP_MATMUL);
    ASSERT_STATUS(rlx_op_from_name("frobnicate", &op), RLX_ERR_NOT_FOUND);
    ASSERT_EQ(op, RLX_OP_INVALID);
    ASSERT_STREQ(rlx_status_name(RLX_ERR_SHAPE), "RLX_ERR_SHAPE");
    ASSERT_STREQ(rlx_status_string(RLX_ERR_SHAPE), "shape mismatch");
    ASSERT_STREQ(rlx_status_name((rlx_status)12345), "RLX_ERR_UNKNOWN");
    ASSERT_STREQ(rlx_device_kind_name(RLX_DEVICE_VULKAN), "vulkan");
    ASSERT_STREQ(rlx_dtype_name((rlx_dtype)999), "unknown");
    ASSERT_STREQ(rlx_version(), RLX_VERSION_STRING);
    ASSERT_EQ(rlx_abi_version(), RLX_ABI_VERSION);
}

RLX_TEST_LIST(
    TEST_ENTRY(builtin_reference_backend),
    TEST_ENTRY(supports_op_query),
    TEST_ENTRY(higher_priority_overrides_builtin),
    TEST_ENTRY(unavailable_backend_is_skipped_live),
    TEST_ENTRY(device_descriptions),
    TEST_ENTRY(equal_priority_earlier_registration_wins),
    TEST_ENTRY(custom_device_and_indices),
    TEST_ENTRY(listing_is_a_stable_snapshot),
    TEST_ENTRY(names_round_trip),
)
