/*
 * test-onnx-function.c - model-local ONNX functions expanded at load: a
 * simple call, attribute references with and without defaults, two call
 * sites of one function (names unique per call), nested functions, an
 * absent optional input, a body at its own opset, and the refusals
 * (recursion, calls fanning out past the bound, an attribute nobody
 * gives, a custom-domain op that is no function). Values are worked out
 * here from the ops' definitions.
 */
#include <stdio.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define DOM "test.fns"

static const int64_t d23[2] = { 2, 3 };
static const float x23[6] = { -1.5f, 0.5f, 2, -0.25f, 3, -4 };
static const float z23[6] = { 1, 2, 3, 4, 5, 6 };

static char **strs(ox_model *x, const char *const *s, size_t *n)
{
    *n = 0;
    while (s && s[*n])
        (*n)++;
    char **v = ox_keep(x, calloc(*n ? *n : 1, sizeof *v));
    for (size_t i = 0; i < *n; i++)
        v[i] = strcpy(ox_keep(x, malloc(strlen(s[i]) + 1)), s[i]);
    return v;
}

/* Function NAME in domain DOM of model X; OPSET > 0 imports that
 * default-domain opset for its body. */
static Onnx__FunctionProto *fn_new(ox_model *x, const char *name,
                                   const char *const *ins,
                                   const char *const *outs, int64_t opset)
{
    Onnx__FunctionProto *f = ox_keep(x, calloc(1, sizeof *f));
    onnx__function_proto__init(f);
    f->name = (char *)name;
    f->domain = DOM;
    f->input = strs(x, ins, &f->n_input);
    f->output = strs(x, outs, &f->n_output);
    f->node = ox_keep(x, calloc(16, sizeof *f->node));
    if (opset > 0) {
        Onnx__OperatorSetIdProto *o = ox_keep(x, calloc(1, sizeof *o));
        onnx__operator_set_id_proto__init(o);
        o->domain = "";
        o->has_version = 1;
        o->version = opset;
        f->opset_import = ox_keep(x, calloc(1, sizeof *f->opset_import));
        f->opset_import[0] = o;
        f->n_opset_import = 1;
    }
    Onnx__FunctionProto **fs =
        ox_keep(x, calloc(x->m.n_functions + 1, sizeof *fs));
    if (x->m.n_functions)
        memcpy(fs, x->m.functions, x->m.n_functions * sizeof *fs);
    fs[x->m.n_functions++] = f;
    x->m.functions = fs;
    return f;
}

/* F's default for attribute NAME: FunctionProto.attribute_proto (field
 * 11), which Debian's onnx.proto (1.12) predates, so it is written as
 * the raw field a newer exporter writes. */
static void fn_default_float(ox_model *x, Onnx__FunctionProto *f,
                             const char *name, float v)
{
    Onnx__NodeProto *tmp = ox_node(x, "Tmp", NULL, NULL);
    x->g.n_node--;
    ox_attr_float(x, tmp, name, v);
    const Onnx__AttributeProto *a = tmp->attribute[0];
    size_t len = onnx__attribute_proto__get_packed_size(a);
    uint8_t *buf = ox_keep(x, malloc(len + 1));
    ASSERT(len < 128); /* protobuf-c keeps the length varint in front */
    buf[0] = (uint8_t)len;
    onnx__attribute_proto__pack(a, buf + 1);
    ProtobufCMessageUnknownField *u = ox_keep(x, calloc(1, sizeof *u));
    u->tag = 11;
    u->wire_type = PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    u->len = len + 1;
    u->data = buf;
    f->base.n_unknown_fields = 1;
    f->base.unknown_fields = u;
}

/* A node of F's body (made by ox_node, taken out of the graph). */
static Onnx__NodeProto *fn_node(ox_model *x, Onnx__FunctionProto *f,
                                const char *op, const char *const *ins,
                                const char *const *outs)
{
    Onnx__NodeProto *n = ox_node(x, op, ins, outs);
    x->g.n_node--;
    f->node[f->n_node++] = n;
    return n;
}

/* A call of function OP (in DOM) in the graph. */
static Onnx__NodeProto *call(ox_model *x, const char *op,
                             const char *const *ins, const char *const *outs)
{
    Onnx__NodeProto *n = ox_node(x, op, ins, outs);
    n->domain = DOM;
    return n;
}

/* Attribute NAME of N refers to the caller's REF. */
static void attr_ref(ox_model *x, Onnx__NodeProto *n, const char *name,
                     const char *ref, Onnx__AttributeProto__AttributeType t)
{
    ox_attr_int(x, n, name, 0);
    Onnx__AttributeProto *a = n->attribute[n->n_attribute - 1];
    a->has_i = 0;
    a->type = t;
    a->ref_attr_name = (char *)ref;
}

static void run_xz(run *r)
{
    ASSERT_OK(rlx_program_set_input(r->p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_set_input(r->p, "z", z23, sizeof z23));
    ASSERT_OK(rlx_program_run(r->p));
}

/* AddMul(a, b) = (a + b) * b */
TEST(simple_function)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_input(x, "z", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "AddMul", N("a", "b"), N("y"), 0);
    fn_node(x, f, "Add", N("a", "b"), N("t"));
    fn_node(x, f, "Mul", N("t", "b"), N("y"));
    call(x, "AddMul", N("x", "z"), N("out"));
    ox_output(x, "out", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "fn-simple.onnx");
    run_xz(&r);
    float want[6];
    for (int i = 0; i < 6; i++)
        want[i] = (x23[i] + z23[i]) * z23[i];
    expect(out(&r, "out", RLX_DTYPE_F32, 6), want, 6);
    run_close(&r);
}

/* Leaky(v) = LeakyRelu(v, alpha=@alpha) + v, alpha defaulting to 2; two
 * call sites, one giving alpha: the body's "t" is made twice. */
TEST(attribute_refs_defaults_and_two_call_sites)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Leaky", N("v"), N("w"), 0);
    Onnx__NodeProto *lr = fn_node(x, f, "LeakyRelu", N("v"), N("t"));
    attr_ref(x, lr, "alpha", "alpha",
             ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    fn_node(x, f, "Add", N("t", "v"), N("w"));
    fn_default_float(x, f, "alpha", 2.0f);
    call(x, "Leaky", N("x"), N("d"));
    Onnx__NodeProto *c = call(x, "Leaky", N("x"), N("g"));
    ox_attr_float(x, c, "alpha", 0.5f);
    ox_output(x, "d", OX_F32, 2, d23);
    ox_output(x, "g", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "fn-attrs.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float wd[6], wg[6];
    for (int i = 0; i < 6; i++) {
        float v = x23[i];
        wd[i] = (v < 0 ? 2.0f * v : v) + v;
        wg[i] = (v < 0 ? 0.5f * v : v) + v;
    }
    expect(out(&r, "d", RLX_DTYPE_F32, 6), wd, 6);
    expect(out(&r, "g", RLX_DTYPE_F32, 6), wg, 6);
    run_close(&r);
}

/* A declared attribute the call leaves out is dropped from the body's
 * node, which then takes the op's own default (LeakyRelu: 0.01). */
TEST(declared_attribute_not_given_takes_op_default)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Lr", N("v"), N("w"), 0);
    Onnx__NodeProto *lr = fn_node(x, f, "LeakyRelu", N("v"), N("w"));
    attr_ref(x, lr, "alpha", "slope",
             ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    size_t n;
    f->attribute = strs(x, N("slope"), &n);
    f->n_attribute = n;
    call(x, "Lr", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "fn-declared.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float want[6];
    for (int i = 0; i < 6; i++)
        want[i] = x23[i] < 0 ? 0.01f * x23[i] : x23[i];
    expect(out(&r, "y", RLX_DTYPE_F32, 6), want, 6);
    run_close(&r);
}

/* Outer(a, b) = Inner(a, b) - Inner(b, a), Inner(p, q) = p * q + p,
 * an attribute passed down two levels (Outer's k to Inner's scale). */
TEST(nested_functions)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_input(x, "z", OX_F32, 2, d23);
    Onnx__FunctionProto *in = fn_new(x, "Inner", N("p", "q"), N("r"), 0);
    fn_node(x, in, "Mul", N("p", "q"), N("m"));
    fn_node(x, in, "Add", N("m", "p"), N("r0"));
    Onnx__NodeProto *lr = fn_node(x, in, "LeakyRelu", N("r0"), N("r"));
    attr_ref(x, lr, "alpha", "scale",
             ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    Onnx__FunctionProto *o = fn_new(x, "Outer", N("a", "b"), N("y"), 0);
    Onnx__NodeProto *c1 = fn_node(x, o, "Inner", N("a", "b"), N("u"));
    c1->domain = DOM;
    attr_ref(x, c1, "scale", "k", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    Onnx__NodeProto *c2 = fn_node(x, o, "Inner", N("b", "a"), N("v"));
    c2->domain = DOM;
    attr_ref(x, c2, "scale", "k", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    fn_node(x, o, "Sub", N("u", "v"), N("y"));
    Onnx__NodeProto *c = call(x, "Outer", N("x", "z"), N("out"));
    ox_attr_float(x, c, "k", 0.25f);
    ox_output(x, "out", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "fn-nested.onnx");
    run_xz(&r);
    float want[6];
    for (int i = 0; i < 6; i++) {
        float u = x23[i] * z23[i] + x23[i], v = z23[i] * x23[i] + z23[i];
        u = u < 0 ? 0.25f * u : u;
        v = v < 0 ? 0.25f * v : v;
        want[i] = u - v;
    }
    expect(out(&r, "out", RLX_DTYPE_F32, 6), want, 6);
    run_close(&r);
}

/* Clip(v, lo, hi) with lo left out at the call: absent, not a name. */
TEST(absent_optional_input)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    const int64_t d0[1] = { 0 };
    const float hi = 1.0f;
    ox_init(x, "hi", OX_F32, 0, d0, &hi, sizeof hi);
    Onnx__FunctionProto *f =
        fn_new(x, "Clamp", N("v", "lo", "hi"), N("w"), 0);
    fn_node(x, f, "Clip", N("v", "lo", "hi"), N("w"));
    call(x, "Clamp", N("x", "", "hi"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    run r;
    run_open(&r, x, "fn-optional.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float want[6];
    for (int i = 0; i < 6; i++)
        want[i] = x23[i] > 1 ? 1 : x23[i];
    expect(out(&r, "y", RLX_DTYPE_F32, 6), want, 6);
    run_close(&r);
}

/* The body imports opset 11, where ReduceSum's axes are an attribute;
 * the model is at opset 13, where they would be an input. */
TEST(function_at_its_own_opset)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "RowSum", N("v"), N("w"), 11);
    Onnx__NodeProto *rs = fn_node(x, f, "ReduceSum", N("v"), N("w"));
    const int64_t ax[1] = { 1 };
    ox_attr_ints(x, rs, "axes", 1, ax);
    ox_attr_int(x, rs, "keepdims", 0);
    call(x, "RowSum", N("x"), N("y"));
    /* and a model-level ReduceSum at 13 beside it: axes as an input */
    ox_init(x, "axes", OX_I64, 1, (const int64_t[]){ 1 },
            (const int64_t[]){ 0 }, sizeof(int64_t));
    Onnx__NodeProto *rs13 = ox_node(x, "ReduceSum", N("x", "axes"),
                                    N("c"));
    ox_attr_int(x, rs13, "keepdims", 0);
    const int64_t d2[1] = { 2 }, d3[1] = { 3 };
    ox_output(x, "y", OX_F32, 1, d2);
    ox_output(x, "c", OX_F32, 1, d3);
    run r;
    run_open(&r, x, "fn-opset.onnx");
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    const float wy[2] = { x23[0] + x23[1] + x23[2], x23[3] + x23[4] + x23[5] };
    const float wc[3] = { x23[0] + x23[3], x23[1] + x23[4], x23[2] + x23[5] };
    expect(out(&r, "y", RLX_DTYPE_F32, 2), wy, 2);
    expect(out(&r, "c", RLX_DTYPE_F32, 3), wc, 3);
    run_close(&r);
}

/* Again(v) calls Again: refused at load, naming the function. */
TEST(recursion_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Again", N("v"), N("w"), 0);
    Onnx__NodeProto *c = fn_node(x, f, "Again", N("v"), N("w"));
    c->domain = DOM;
    call(x, "Again", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "fn-recursive.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "'Again'");
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "calls itself");
}

/* Calls fanning out: F0 calls F1 twice, F1 calls F2 twice, ... down to
 * an empty body. Refused once the expansion passes its bound, quickly,
 * instead of taking 2^30 calls. */
TEST(fan_out_of_calls_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    static char names[31][8];
    for (int i = 0; i <= 30; i++)
        snprintf(names[i], sizeof names[i], "F%d", i);
    for (int i = 0; i < 30; i++) {
        Onnx__FunctionProto *f = fn_new(x, names[i], N("v"), N("w"), 0);
        for (int k = 0; k < 2; k++) {
            Onnx__NodeProto *c = fn_node(x, f, names[i + 1], N("v"),
                                         N(k ? "w" : "u"));
            c->domain = DOM;
        }
    }
    fn_new(x, names[30], N("v"), N("w"), 0);
    call(x, "F0", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "fn-fan-out.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "calls");
}

/* A reference to an attribute neither given nor declared. */
TEST(missing_attribute_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Lr", N("v"), N("w"), 0);
    Onnx__NodeProto *lr = fn_node(x, f, "LeakyRelu", N("v"), N("w"));
    attr_ref(x, lr, "alpha", "slope",
             ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    call(x, "Lr", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "fn-missing-attr.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "attribute 'slope'");
}

/* A custom-domain op that is not a local function stays refused. */
TEST(custom_domain_without_function_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Known", N("v"), N("w"), 0);
    fn_node(x, f, "Relu", N("v"), N("w"));
    call(x, "Unknown", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "fn-unknown.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "custom domain 'test.fns'");
}

/* A body at an opset rlx does not take is refused by name. */
TEST(function_opset_out_of_range_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    Onnx__FunctionProto *f = fn_new(x, "Future", N("v"), N("w"), 99);
    fn_node(x, f, "Relu", N("v"), N("w"));
    call(x, "Future", N("x"), N("y"));
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "fn-opset99.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "function 'Future'");
}

RLX_TEST_LIST(TEST_ENTRY(simple_function),
              TEST_ENTRY(attribute_refs_defaults_and_two_call_sites),
              TEST_ENTRY(declared_attribute_not_given_takes_op_default),
              TEST_ENTRY(nested_functions),
              TEST_ENTRY(absent_optional_input),
              TEST_ENTRY(function_at_its_own_opset),
              TEST_ENTRY(recursion_refused),
              TEST_ENTRY(fan_out_of_calls_refused),
              TEST_ENTRY(missing_attribute_refused),
              TEST_ENTRY(custom_domain_without_function_refused),
              TEST_ENTRY(function_opset_out_of_range_refused))
