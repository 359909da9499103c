/*
 * test-onnx-load.c - the ONNX loader's refusals: every kind of bad model
 * (truncated or garbage protobuf, unknown IR/opset/domain, cycles,
 * dangling names, lying initializers, external data that escapes its
 * folder or runs past its file, deep nesting, huge shapes, operators rlx
 * cannot lower) fails with a message naming what is wrong and a Fix, and
 * random damage never crashes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

static const int64_t d23[2] = { 2, 3 };

/* x [2,3] -> Relu -> y: the smallest good model, to damage. */
static ox_model *relu_model(int64_t ir, int64_t opset)
{
    ox_model *x = ox_new(ir, opset);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_output(x, "y", OX_F32, 2, d23);
    ox_node(x, "Relu", (const char *[]){ "x", NULL },
            (const char *[]){ "y", NULL });
    return x;
}

static void write_bytes(const char *path, const void *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    ASSERT(f != NULL);
    ASSERT_EQ(fwrite(buf, 1, len, f), len);
    ASSERT_EQ(fclose(f), 0);
}

TEST(good_model_loads)
{
    ox_model *x = relu_model(8, 13);
    rlx_model *m = NULL;
    ASSERT_OK(rlx_model_load(ox_write(x, "good.onnx"), &m));
    ox_free(x);
    ASSERT_STREQ(rlx_model_format(m), "onnx");
    ASSERT_EQ(rlx_model_source_node_count(m), 1);
    const char *op, *lowered;
    ASSERT_OK(rlx_model_source_node(m, 0, NULL, &op, NULL, &lowered));
    ASSERT_STREQ(op, "Relu");
    ASSERT_STREQ(lowered, "relu");
    rlx_model_destroy(m);
}

TEST(truncated_protobuf)
{
    ox_model *x = relu_model(8, 13);
    size_t len;
    uint8_t *buf = ox_pack(x, &len);
    ox_free(x);
    const char *path = rlx_test_path("truncated.onnx");
    write_bytes(path, buf, len / 2);
    free(buf);
    ox_expect_fail(path, RLX_ERR_FORMAT, "not a valid ONNX ModelProto");
}

TEST(garbage_protobuf)
{
    /* starts like a ModelProto (ir_version 8), then noise */
    uint8_t buf[64] = { 0x08, 0x08 };
    for (size_t i = 2; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    const char *path = rlx_test_path("garbage.onnx");
    write_bytes(path, buf, sizeof buf);
    ox_expect_fail(path, RLX_ERR_FORMAT, "not a valid ONNX ModelProto");
}

TEST(unknown_ir_version)
{
    ox_model *x = relu_model(11, 13);
    const char *path = ox_write(x, "ir11.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "IR version 11");
}

TEST(unknown_opset)
{
    ox_model *x = relu_model(8, 22);
    const char *path = ox_write(x, "opset22.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "opset 22");
    x = relu_model(8, 0);
    path = ox_write(x, "opset0.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "opset 0");
}

TEST(other_domains_refused_by_name)
{
    ox_model *x = relu_model(8, 13);
    x->g.node[0]->domain = "ai.onnx.ml";
    const char *path = ox_write(x, "ml.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "ai.onnx.ml");
    x = relu_model(8, 13);
    x->g.node[0]->domain = "com.example.custom";
    path = ox_write(x, "custom.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "com.example.custom");
}

TEST(cycle)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_output(x, "c", OX_F32, 2, d23);
    ox_node(x, "Add", (const char *[]){ "x", "c", NULL },
            (const char *[]){ "b", NULL });
    ox_node(x, "Relu", (const char *[]){ "b", NULL },
            (const char *[]){ "c", NULL });
    const char *path = ox_write(x, "cycle.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_FORMAT, "cycle");
}

TEST(dangling_name)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_output(x, "y", OX_F32, 2, d23);
    ox_node(x, "Add", (const char *[]){ "x", "nowhere", NULL },
            (const char *[]){ "y", NULL });
    const char *path = ox_write(x, "dangling.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_NOT_FOUND, "'nowhere'");
    /* a graph output nobody makes */
    x = relu_model(8, 13);
    ox_output(x, "ghost", OX_F32, 2, d23);
    path = ox_write(x, "ghost.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_NOT_FOUND, "'ghost'");
}

TEST(initializer_size_and_dtype_mismatch)
{
    float w[3] = { 1, 2, 3 };
    ox_model *x = relu_model(8, 13);
    int64_t d6[1] = { 6 };
    ox_init(x, "w", OX_F32, 1, d6, w, sizeof w); /* 12 bytes for 24 */
    const char *path = ox_write(x, "short.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_SHAPE, "'w'");

    /* an INT64 tensor whose values sit in float_data */
    x = relu_model(8, 13);
    int64_t d3[1] = { 3 };
    Onnx__TensorProto *t = ox_init(x, "w", OX_I64, 1, d3, w, 0);
    t->has_raw_data = 0;
    t->n_float_data = 3;
    t->float_data = w;
    path = ox_write(x, "dtype.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_SHAPE, "int64_data");

    /* a type rlx does not have */
    x = relu_model(8, 13);
    ox_init(x, "s", ONNX__TENSOR_PROTO__DATA_TYPE__COMPLEX64, 1, d3, w, 0);
    path = ox_write(x, "complex.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "COMPLEX64");
}

/* x + w with w in external file LOCATION at OFFSET/LENGTH. */
static const char *external_model(const char *name, const char *location,
                                  const char *offset, const char *length)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_output(x, "y", OX_F32, 2, d23);
    ox_node(x, "Add", (const char *[]){ "x", "w", NULL },
            (const char *[]){ "y", NULL });
    int64_t d3[1] = { 3 };
    Onnx__TensorProto *t = ox_init(x, "w", OX_F32, 1, d3, "", 0);
    t->has_raw_data = 0;
    t->has_data_location = 1;
    t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    const char *keys[3] = { "location", "offset", "length" };
    const char *vals[3] = { location, offset, length };
    t->external_data = ox_keep(x, calloc(3, sizeof *t->external_data));
    for (int i = 0; i < 3; i++) {
        if (!vals[i])
            continue;
        Onnx__StringStringEntryProto *e = ox_keep(x, calloc(1, sizeof *e));
        onnx__string_string_entry_proto__init(e);
        e->key = (char *)keys[i];
        e->value = (char *)vals[i];
        t->external_data[t->n_external_data++] = e;
    }
    const char *path = ox_write(x, name);
    ox_free(x);
    return path;
}

TEST(external_data)
{
    /* 4 bytes of padding, then w = [1, 2, 3] */
    float data[4] = { -1, 1, 2, 3 };
    write_bytes(rlx_test_path("w.bin"), data, sizeof data);
    const char *path = external_model("ext.onnx", "w.bin", "4", "12");
    rlx_model *m = NULL;
    ASSERT_OK(rlx_model_load(path, &m));
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    float in[6] = { 0, 0, 0, 10, 10, 10 };
    ASSERT_OK(rlx_program_set_input(p, "x", in, sizeof in));
    ASSERT_OK(rlx_program_run(p));
    size_t nb;
    const float *y = rlx_program_output_data(p, 0, &nb);
    ASSERT_EQ(nb, sizeof in);
    ASSERT(y[0] == 1 && y[2] == 3 && y[3] == 11 && y[5] == 13);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

TEST(external_data_outside_the_folder)
{
    ox_expect_fail(external_model("up.onnx", "../w.bin", "0", "12"),
                   RLX_ERR_INVALID_ARGUMENT, "leaves the model's folder");
    ox_expect_fail(external_model("abs.onnx", "/etc/passwd", "0", "12"),
                   RLX_ERR_INVALID_ARGUMENT, "leaves the model's folder");
    /* a link inside the folder that points out of it */
    char target[4096];
    snprintf(target, sizeof target, "%s/../outside-%d.bin", rlx_test_dir(),
             (int)getpid());
    float data[3] = { 1, 2, 3 };
    write_bytes(target, data, sizeof data);
    ASSERT_EQ(symlink(target, rlx_test_path("link.bin")), 0);
    const char *path = external_model("link.onnx", "link.bin", "0", "12");
    rlx_model *m = NULL;
    rlx_status st = rlx_model_load(path, &m);
    unlink(target);
    ASSERT_EQ(st, RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(rlx_last_error(), "outside the model's folder");
}

TEST(external_data_past_the_end)
{
    float data[2] = { 1, 2 };
    write_bytes(rlx_test_path("small.bin"), data, sizeof data);
    ox_expect_fail(external_model("past.onnx", "small.bin", "0", "12"),
                   RLX_ERR_SHAPE, "'small.bin' of 8 bytes");
    ox_expect_fail(external_model("past2.onnx", "small.bin", "99999999",
                                  "12"),
                   RLX_ERR_SHAPE, "offset 99999999");
    ox_expect_fail(external_model("missing.onnx", "nope.bin", "0", "12"),
                   RLX_ERR_NOT_FOUND, "nope.bin");
}

TEST(deep_nesting)
{
    ox_model *x = relu_model(8, 13);
    /* If nodes whose then_branch holds another If, 20 deep */
    Onnx__GraphProto *inner = NULL;
    for (int depth = 0; depth < 20; depth++) {
        Onnx__GraphProto *g = ox_keep(x, calloc(1, sizeof *g));
        onnx__graph_proto__init(g);
        g->name = "branch";
        Onnx__NodeProto *n = ox_keep(x, calloc(1, sizeof *n));
        onnx__node_proto__init(n);
        n->op_type = "If";
        if (inner) {
            Onnx__AttributeProto *a = ox_keep(x, calloc(1, sizeof *a));
            onnx__attribute_proto__init(a);
            a->name = "then_branch";
            a->g = inner;
            n->attribute = ox_keep(x, calloc(1, sizeof *n->attribute));
            n->attribute[0] = a;
            n->n_attribute = 1;
        }
        g->node = ox_keep(x, calloc(1, sizeof *g->node));
        g->node[0] = n;
        g->n_node = 1;
        inner = g;
    }
    Onnx__NodeProto *top = ox_node(x, "If", (const char *[]){ "x", NULL },
                                   (const char *[]){ "z", NULL });
    ox_attr_graph(x, top, "then_branch", inner);
    const char *path = ox_write(x, "deep.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "nested more than");
}

TEST(huge_shape)
{
    ox_model *x = ox_new(8, 13);
    int64_t huge[2] = { 1000000, 1000000 }; /* 1e12 elements */
    ox_input(x, "x", OX_F32, 2, huge);
    ox_output(x, "y", OX_F32, 2, huge);
    ox_node(x, "Relu", (const char *[]){ "x", NULL },
            (const char *[]){ "y", NULL });
    const char *path = ox_write(x, "huge.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_SHAPE, "more than");
    /* and as an initializer's dims, with no data behind them */
    x = relu_model(8, 13);
    ox_init(x, "w", OX_F32, 2, huge, "", 0);
    path = ox_write(x, "huge-init.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "more than");
}

TEST(operator_rlx_cannot_lower)
{
    ox_model *x = relu_model(8, 13);
    x->g.node[0]->op_type = "TfIdfVectorizer";
    const char *path = ox_write(x, "tfidf.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "(TfIdfVectorizer, opset 13)");
    x = relu_model(8, 13);
    x->g.node[0]->op_type = "QLinearAdd"; /* a contrib op, not ONNX's */
    path = ox_write(x, "qadd.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED,
                   "quantized operators are not supported yet");
}

TEST(fifo_refused_without_blocking)
{
    const char *path = rlx_test_path("pipe.onnx");
    ASSERT_EQ(mkfifo(path, 0600), 0);
    rlx_model *m = NULL;
    ASSERT_STATUS(rlx_model_load(path, &m), RLX_ERR_IO);
    ASSERT_CONTAINS(rlx_last_error(), "not a regular file");
    unlink(path);
}

TEST(random_damage_never_crashes)
{
    ox_model *x = relu_model(8, 13);
    float w[6] = { 1, 2, 3, 4, 5, 6 };
    ox_init(x, "w", OX_F32, 2, d23, w, sizeof w);
    size_t len;
    uint8_t *good = ox_pack(x, &len);
    ox_free(x);
    uint8_t *buf = malloc(len);
    ASSERT(buf != NULL);
    unsigned seed = 12345;
    const char *path = rlx_test_path("damaged.onnx");
    int loaded = 0;
    for (int round = 0; round < 300; round++) {
        memcpy(buf, good, len);
        for (int k = 0; k < 1 + round % 4; k++) {
            seed = seed * 1103515245u + 12345u;
            buf[(seed >> 8) % len] ^= (uint8_t)(1u << (seed >> 28) % 8);
        }
        size_t cut = round % 5 == 0 ? (seed >> 4) % len : len;
        write_bytes(path, buf, cut);
        rlx_model *m = NULL;
        if (rlx_model_load(path, &m) == RLX_OK) {
            loaded++;
            rlx_model_destroy(m);
        } else {
            ASSERT(m == NULL);
            ASSERT(strlen(rlx_last_error()) > 0);
        }
    }
    free(buf);
    free(good);
    ASSERT(loaded < 300); /* the damage was real */
}

RLX_TEST_LIST(TEST_ENTRY(good_model_loads), TEST_ENTRY(truncated_protobuf),
              TEST_ENTRY(garbage_protobuf), TEST_ENTRY(unknown_ir_version),
              TEST_ENTRY(unknown_opset),
              TEST_ENTRY(other_domains_refused_by_name), TEST_ENTRY(cycle),
              TEST_ENTRY(dangling_name),
              TEST_ENTRY(initializer_size_and_dtype_mismatch),
              TEST_ENTRY(external_data),
              TEST_ENTRY(external_data_outside_the_folder),
              TEST_ENTRY(external_data_past_the_end),
              TEST_ENTRY(deep_nesting), TEST_ENTRY(huge_shape),
              TEST_ENTRY(operator_rlx_cannot_lower),
              TEST_ENTRY(fifo_refused_without_blocking),
              TEST_ENTRY(random_damage_never_crashes))
