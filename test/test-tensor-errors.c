/*
 * test-tensor-errors.c - rlx_tensor and rlx_program_bind refusing what
 * they must: bad shapes and dtypes, sizes, NULLs, aliasing, a tensor of
 * another backend or device. Each error names what was wrong, ends with a
 * Fix, and changes nothing. The working paths: test-tensor.c.
 */
#include "test-tensor.h"

TEST(create_errors)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    rlx_tensor *t = (rlx_tensor *)&f; /* must be reset to NULL */
    ASSERT_STATUS(rlx_tensor_create(NULL, RLX_DTYPE_F32, 2, Y_DIMS, NULL, &t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT(t == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 2, Y_DIMS, NULL,
                                    NULL), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_tensor_create(f.p, (rlx_dtype)99, 2, Y_DIMS, NULL, &t),
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(rlx_last_error(), "unknown dtype 99");
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 2, NULL, NULL, &t),
                  RLX_ERR_INVALID_ARGUMENT);
    const int64_t nine[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 9, nine, NULL, &t),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "rank 9 is above the limit");
    const int64_t negative[2] = { 2, -3 };
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 2, negative, NULL,
                                    &t), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "dimension 1 is negative (-3)");
    const int64_t huge[2] = { INT64_MAX / 2, 4 };
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 2, huge, NULL, &t),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "overflows");
    const int64_t big[2] = { INT64_MAX / 4, 3 }; /* elements fit, bytes not */
    ASSERT_STATUS(rlx_tensor_create(f.p, RLX_DTYPE_F32, 2, big, NULL, &t),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "overflows. Fix:");
    ASSERT(t == NULL);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(read_write_errors)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E1);
    float buf[8] = { 0 };
    ASSERT_STATUS(rlx_tensor_write(t, buf, 8), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "the tensor is f32 [2,3] (24 bytes), "
                                      "got 8 bytes. Fix:");
    ASSERT_STATUS(rlx_tensor_read(t, buf, sizeof buf), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "got 32 bytes");
    ASSERT_STATUS(rlx_tensor_write(t, NULL, 24), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_tensor_read(t, NULL, 24), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_tensor_write(NULL, buf, 24), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_tensor_read(NULL, buf, 24), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    tensor_expect(t, E1, 6); /* failed writes changed nothing */

    rlx_dtype dtype = RLX_DTYPE_F32;
    uint32_t rank = 5;
    const int64_t *dims = Y_DIMS;
    ASSERT_STATUS(rlx_tensor_shape(NULL, &dtype, &rank, &dims),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT(dtype == RLX_DTYPE_INVALID && rank == 0 && dims == NULL);
    rlx_tensor_destroy(t);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(bind_errors)
{
    rlx_runtime *rt = test_runtime();
    fixture f = fx_open(rt, "cpu-ref", ew_graph);
    rlx_tensor *t = tensor_new(f.p, 2, Y_DIMS, E1);

    ASSERT_STATUS(rlx_program_bind(NULL, RLX_SLOT_INPUT, "x", t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_INPUT, NULL, t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_PARAM, "v", t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "params cannot be bound to a tensor. "
                                      "Fix: set params with "
                                      "rlx_program_set_param");
    ASSERT_STATUS(rlx_program_bind(f.p, (rlx_slot_kind)7, "x", t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "kind 7 is not a slot kind");
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_INPUT, "q", t),
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "no input named 'q'. Fix: use one of "
                                      "the names given to rlx_graph_input");
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "x", t),
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(rlx_last_error(), "no output named 'x'");

    /* dtype and shape must be the slot's; the message names both */
    rlx_tensor *half = NULL, *wide = NULL, *flat = NULL;
    const int64_t t32[2] = { 3, 2 }, six[1] = { 6 };
    ASSERT_OK(rlx_tensor_create(f.p, RLX_DTYPE_F16, 2, Y_DIMS, NULL, &half));
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", half),
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(rlx_last_error(), "input 'x' is f32 [2,3], the tensor "
                                      "is f16 [2,3]. Fix:");
    wide = tensor_new(f.p, 2, t32, NULL);
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", wide),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "output 'z' is f32 [2,3], the tensor "
                                      "is f32 [3,2]");
    flat = tensor_new(f.p, 1, six, NULL);
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", flat),
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "the tensor is f32 [6]");

    /* a run may not read and write one tensor, nor write it twice */
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", t));
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", t),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "already bound to input 'x' of this "
                                      "program");
    rlx_tensor *u = tensor_new(f.p, 2, Y_DIMS, NULL);
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", u));
    ASSERT_OK(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z", u)); /* itself */
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_OUTPUT, "z2", u),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "already bound to output 'z'");
    ASSERT_STATUS(rlx_program_bind(f.p, RLX_SLOT_INPUT, "x", u),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "Fix: bind another tensor");

    /* failed binds left the good ones: x from T, z to U */
    float z1[6], z21[6];
    ew_expect(E1, z1, z21);
    ASSERT_OK(rlx_program_run(f.p));
    tensor_expect(u, z1, 6);

    rlx_tensor_destroy(half);
    rlx_tensor_destroy(wide);
    rlx_tensor_destroy(flat);
    rlx_tensor_destroy(u);
    rlx_tensor_destroy(t);
    fx_close(&f);
    rlx_runtime_destroy(rt);
}

TEST(tensor_of_another_backend_or_device)
{
    rlx_runtime *rt = runtime_with("testgood");
    fixture ref = fx_open(rt, "cpu-ref", ew_graph);
    fixture npu0 = fx_open(rt, "npu:0", ew_graph);
    fixture npu1 = fx_open(rt, "npu:1", ew_graph);
    fixture npu0b = fx_open(rt, "npu:0", ew_graph);

    rlx_tensor *t_ref = tensor_new(ref.p, 2, Y_DIMS, E1);
    rlx_tensor *t_npu0 = tensor_new(npu0.p, 2, Y_DIMS, E1);
    ASSERT_STATUS(rlx_program_bind(npu0.p, RLX_SLOT_INPUT, "x", t_ref),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "the tensor lives on backend 'cpu-ref' "
                                      "(cpu:0), the program runs on backend "
                                      "'test-good' (npu:0). Fix:");
    ASSERT_STATUS(rlx_program_bind(npu1.p, RLX_SLOT_OUTPUT, "z", t_npu0),
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "(npu:0), the program runs on backend "
                                      "'test-good' (npu:1)");
    ASSERT_STATUS(rlx_program_bind(ref.p, RLX_SLOT_INPUT, "x", t_npu0),
                  RLX_ERR_INVALID_ARGUMENT);
    /* the same backend and device from another program is fine */
    ASSERT_OK(rlx_program_bind(npu0b.p, RLX_SLOT_INPUT, "x", t_npu0));
    ASSERT_OK(rlx_program_run(npu0b.p));

    rlx_tensor_destroy(t_ref);
    rlx_tensor_destroy(t_npu0);
    fx_close(&ref);
    fx_close(&npu0);
    fx_close(&npu1);
    fx_close(&npu0b);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(TEST_ENTRY(create_errors),
              TEST_ENTRY(read_write_errors),
              TEST_ENTRY(bind_errors),
              TEST_ENTRY(tensor_of_another_backend_or_device));
