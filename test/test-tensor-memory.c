/*
 * test-tensor-memory.c - a tensor's address (rlx_tensor_memory) and
 * tensors over the application's memory (rlx_tensor_wrap): what DLPack
 * exchange builds on. On cpu-ref (rlx.memory.v1, device I/O) and on
 * cpu-openblas (host memory the core holds) runs must read and write the
 * application's memory in place; devices that do not match, misaligned
 * memory and backends without the table are refused, and the owner's
 * release callback runs exactly once either way.
 */
#include "test-tensor.h"

typedef struct owner {
    int released;
} owner;

static void release_cb(void *ctx)
{
    ((owner *)ctx)->released++;
}

/* The address of a tensor is its data: writes through it are seen by
 * rlx_tensor_read, and it stays the same across calls. */
static void check_address(rlx_program *p)
{
    rlx_tensor *t = tensor_new(p, 2, EW_DIMS, E1);
    void *a = NULL, *a2 = NULL;
    int32_t kind = -1, id = -1;
    ASSERT_OK(rlx_tensor_memory(t, &a, &kind, &id));
    ASSERT_EQ(kind, RLX_MEMORY_CPU);
    ASSERT_EQ(id, 0);
    ASSERT(a != NULL);
    ASSERT(memcmp(a, E1, sizeof E1) == 0);
    memcpy(a, E2, sizeof E2);
    tensor_expect(t, E2, 6);
    ASSERT_OK(rlx_tensor_memory(t, &a2, &kind, &id));
    ASSERT(a2 == a);
    rlx_tensor_destroy(t);
}

/* Input and output wrapped over our arrays: the run reads X in place and
 * writes Z there; the owner hears once, after the program lets go. */
static void check_wrapped_run(rlx_program *p)
{
    float x[6], z[6] = { 0 }, want_z[6], want_z2[6];
    memcpy(x, E2, sizeof x);
    ew_expect(x, want_z, want_z2);
    owner ox = { 0 }, oz = { 0 };
    rlx_tensor *tx = NULL, *tz = NULL;
    ASSERT_OK(rlx_tensor_wrap(p, RLX_DTYPE_F32, 2, EW_DIMS, x,
                              RLX_MEMORY_CPU, 0, release_cb, &ox, &tx));
    ASSERT_OK(rlx_tensor_wrap(p, RLX_DTYPE_F32, 2, EW_DIMS, z,
                              RLX_MEMORY_CPU, 0, release_cb, &oz, &tz));
    void *a = NULL;
    int32_t kind = 0, id = 0;
    ASSERT_OK(rlx_tensor_memory(tx, &a, &kind, &id));
    ASSERT(a == (void *)x);
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", tx));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "z", tz));
    rlx_tensor_destroy(tx);
    rlx_tensor_destroy(tz);
    ASSERT_EQ(ox.released, 0); /* bound: the program holds them */
    ASSERT_OK(rlx_program_run(p));
    ASSERT(memcmp(z, want_z, sizeof z) == 0);
    /* the application changes its array: the next run sees it */
    memcpy(x, E1, sizeof x);
    ew_expect(x, want_z, want_z2);
    ASSERT_OK(rlx_program_run(p));
    ASSERT(memcmp(z, want_z, sizeof z) == 0);
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_INPUT, "x", NULL));
    ASSERT_OK(rlx_program_bind(p, RLX_SLOT_OUTPUT, "z", NULL));
    ASSERT_EQ(ox.released, 1);
    ASSERT_EQ(oz.released, 1);
}

TEST(cpu_ref_address_and_wrap)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    check_address(f.p);
    check_wrapped_run(f.p);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(cpu_openblas_address_and_wrap)
{
    const char *dir = getenv("RLX_TEST_BLAS_DIR");
    if (!dir || !*dir)
        SKIP("cpu-openblas is not built");
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, dir));
    fixture f = fx_open(rt, "cpu-openblas", ew_graph);
    check_address(f.p);
    check_wrapped_run(f.p);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(wrap_refusals_release_once)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    _Alignas(8) unsigned char bytes[64] = { 0 };
    owner o = { 0 };
    rlx_tensor *t = (rlx_tensor *)1;

    /* misaligned for f32 */
    ASSERT_EQ(rlx_tensor_wrap(f.p, RLX_DTYPE_F32, 2, EW_DIMS, bytes + 1,
                              RLX_MEMORY_CPU, 0, release_cb, &o, &t),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT(t == NULL);
    ASSERT(strstr(rlx_last_error(), "aligned"));
    ASSERT_EQ(o.released, 1);

    /* CUDA memory for a CPU program: says where it would go */
    ASSERT_EQ(rlx_tensor_wrap(f.p, RLX_DTYPE_F32, 2, EW_DIMS, bytes,
                              RLX_MEMORY_CUDA, 0, release_cb, &o, &t),
              RLX_ERR_UNSUPPORTED);
    ASSERT(strstr(rlx_last_error(), "cuda device 0"));
    ASSERT(strstr(rlx_last_error(), "Fix:"));
    ASSERT_EQ(o.released, 2);

    /* a bad shape */
    const int64_t neg[2] = { 2, -3 };
    ASSERT(rlx_tensor_wrap(f.p, RLX_DTYPE_F32, 2, neg, bytes, RLX_MEMORY_CPU,
                           0, release_cb, &o, &t) != RLX_OK);
    ASSERT_EQ(o.released, 3);

    /* NULL program: still released; no callback is fine too */
    ASSERT_EQ(rlx_tensor_wrap(NULL, RLX_DTYPE_F32, 2, EW_DIMS, bytes,
                              RLX_MEMORY_CPU, 0, release_cb, &o, &t),
              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_EQ(o.released, 4);
    ASSERT_OK(rlx_tensor_wrap(f.p, RLX_DTYPE_F32, 2, EW_DIMS, bytes,
                              RLX_MEMORY_CPU, 0, NULL, NULL, &t));
    rlx_tensor_destroy(t);

    /* out-parameters */
    void *a;
    int32_t kind, id;
    ASSERT_EQ(rlx_tensor_memory(NULL, &a, &kind, &id),
              RLX_ERR_INVALID_ARGUMENT);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(backend_without_the_table_says_so)
{
    rlx_runtime *rt = runtime_with("testdeviceio");
    fixture f = fx_open(rt, "test-io12", ew_graph);
    rlx_tensor *t = tensor_new(f.p, 2, EW_DIMS, E1);
    void *a = (void *)1;
    int32_t kind, id;
    ASSERT_EQ(rlx_tensor_memory(t, &a, &kind, &id), RLX_ERR_UNSUPPORTED);
    ASSERT(a == NULL);
    ASSERT(strstr(rlx_last_error(), "rlx.memory.v1"));
    float x[6];
    owner o = { 0 };
    rlx_tensor *w = NULL;
    ASSERT_EQ(rlx_tensor_wrap(f.p, RLX_DTYPE_F32, 2, EW_DIMS, x,
                              RLX_MEMORY_CPU, 0, release_cb, &o, &w),
              RLX_ERR_UNSUPPORTED);
    ASSERT_EQ(o.released, 1);
    rlx_tensor_destroy(t);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(cpu_ref_address_and_wrap),
              TEST_ENTRY(cpu_openblas_address_and_wrap),
              TEST_ENTRY(wrap_refusals_release_once),
              TEST_ENTRY(backend_without_the_table_says_so));
