/*
 * test-onnx-lower-rnn.c - ONNX's LSTM, GRU and RNN lowered by unrolling
 * onto rlx primitives and run on cpu-ref, against outputs computed by
 * the NumPy reference in test/gen-rnn-numpy.py (rnn_numpy_cases.h, made
 * at build time): every direction, layout, initial state, peepholes,
 * clip, input_forget, linear_before_reset, activations with alpha and
 * beta, sequence_lens fed at run time or known, weights as inputs or
 * initializers, each optional output, f32 and f16. Then what the
 * importer refuses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }
#define OX_I32 ONNX__TENSOR_PROTO__DATA_TYPE__INT32
#define OX_F16 ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16

typedef struct rnn_tensor {
    uint32_t rank;
    int64_t dims[4];
    const float *f;
    const int32_t *i;
    const uint16_t *h;      /* f16 bits */
} rnn_tensor;

typedef struct rnn_case {
    const char *name, *op;
    int opset;
    const char *direction;
    int64_t hidden;
    int layout;
    float clip;
    int input_forget, lbr;
    int n_acts;
    const char *acts[6];
    int n_alphas;
    float alphas[6];
    int n_betas;
    float betas[6];
    int lens_known, weights_init;
    int n_in;
    rnn_tensor in[8];
    int n_out;
    rnn_tensor out[3];
} rnn_case;

#include "rnn_numpy_cases.h"

static const char *const in_names[8] = { "X", "W", "R", "B",
                                         "sequence_lens", "initial_h",
                                         "initial_c", "P" };
static const char *const out_names[3] = { "Y", "Y_h", "Y_c" };

static size_t count(const rnn_tensor *t)
{
    size_t n = 1;
    for (uint32_t i = 0; i < t->rank; i++)
        n *= (size_t)t->dims[i];
    return n;
}

static const void *data_of(const rnn_tensor *t)
{
    return t->i ? (const void *)t->i
           : t->h ? (const void *)t->h : (const void *)t->f;
}

static size_t bytes_of(const rnn_tensor *t)
{
    return count(t) * (t->h ? 2 : 4);
}

/* IEEE half bits as a float (normals, subnormals, zero; no inf/NaN in
 * these cases). */
static float half_to_float(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e ? ldexpf((float)(m | 0x400), e - 25)
                : ldexpf((float)m, -24);
    return h & 0x8000 ? -v : v;
}

static Onnx__AttributeProto *new_attr(ox_model *x, Onnx__NodeProto *n,
                                      const char *name,
                                      Onnx__AttributeProto__AttributeType t)
{
    Onnx__AttributeProto *a = ox_keep(x, calloc(1, sizeof *a));
    onnx__attribute_proto__init(a);
    a->name = (char *)name;
    a->has_type = 1;
    a->type = t;
    Onnx__AttributeProto **grown =
        ox_keep(x, calloc(n->n_attribute + 1, sizeof *grown));
    if (n->n_attribute)
        memcpy(grown, n->attribute, n->n_attribute * sizeof *grown);
    grown[n->n_attribute++] = a;
    n->attribute = grown;
    return a;
}

static void attr_strings(ox_model *x, Onnx__NodeProto *n, const char *name,
                         int count_, const char *const *v)
{
    Onnx__AttributeProto *a =
        new_attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);
    a->n_strings = (size_t)count_;
    a->strings = ox_keep(x, calloc((size_t)count_, sizeof *a->strings));
    for (int i = 0; i < count_; i++) {
        a->strings[i].data = (uint8_t *)v[i];
        a->strings[i].len = strlen(v[i]);
    }
}

static void attr_floats(ox_model *x, Onnx__NodeProto *n, const char *name,
                        int count_, const float *v)
{
    Onnx__AttributeProto *a =
        new_attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    a->n_floats = (size_t)count_;
    a->floats = ox_keep(x, calloc((size_t)count_, sizeof *a->floats));
    memcpy(a->floats, v, (size_t)count_ * sizeof *v);
}

/* The model of case K: the node with its attributes; W, R, B and P as
 * initializers or graph inputs, sequence_lens likewise. */
static ox_model *build(const rnn_case *k, Onnx__NodeProto **node)
{
    ox_model *x = ox_new(8, k->opset);
    const char *ins[9] = { NULL }, *outs[4] = { NULL };
    for (int i = 0; i < k->n_in; i++) {
        const rnn_tensor *t = &k->in[i];
        ins[i] = t->rank ? in_names[i] : "";
        if (!t->rank)
            continue;
        int is_init = (i == 4 && k->lens_known) ||
                      (k->weights_init && (i == 1 || i == 2 || i == 3 ||
                                           i == 7));
        int32_t type = t->i ? OX_I32 : t->h ? OX_F16 : OX_F32;
        if (is_init)
            ox_init(x, in_names[i], type, t->rank, t->dims, data_of(t),
                    bytes_of(t));
        else
            ox_input(x, in_names[i], type, t->rank, t->dims);
    }
    int n_ins = k->n_in;
    while (n_ins > 3 && !*ins[n_ins - 1]) /* trailing empties dropped */
        ins[--n_ins] = NULL;
    for (int i = 0; i < k->n_out; i++) {
        outs[i] = k->out[i].rank ? out_names[i] : "";
        if (k->out[i].rank)
            ox_output(x, out_names[i], k->out[i].h ? OX_F16 : OX_F32,
                      k->out[i].rank, k->out[i].dims);
    }
    Onnx__NodeProto *n = ox_node(x, k->op, ins, outs);
    ox_attr_int(x, n, "hidden_size", k->hidden);
    ox_attr_string(x, n, "direction", k->direction);
    if (k->layout)
        ox_attr_int(x, n, "layout", k->layout);
    if (k->clip > 0)
        ox_attr_float(x, n, "clip", k->clip);
    if (k->input_forget)
        ox_attr_int(x, n, "input_forget", 1);
    if (k->lbr)
        ox_attr_int(x, n, "linear_before_reset", 1);
    if (k->n_acts)
        attr_strings(x, n, "activations", k->n_acts, k->acts);
    if (k->n_alphas)
        attr_floats(x, n, "activation_alpha", k->n_alphas, k->alphas);
    if (k->n_betas)
        attr_floats(x, n, "activation_beta", k->n_betas, k->betas);
    if (node)
        *node = n;
    return x;
}

static void run_case(int idx, const char *expect_name)
{
    ASSERT(idx < (int)(sizeof rnn_cases / sizeof rnn_cases[0]));
    const rnn_case *k = &rnn_cases[idx];
    ASSERT_CONTAINS(k->name, expect_name);
    char file[32];
    snprintf(file, sizeof file, "rnn%d.onnx", idx);
    ox_model *x = build(k, NULL);
    const char *path = ox_write(x, file);
    ox_free(x);
    rlx_model *m;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
    ASSERT_OK(rlx_model_load(path, &m));
    ASSERT_OK(rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(rt, "cpu-ref", &s));
    ASSERT_OK(rlx_model_compile(m, s, &p));
    for (int i = 0; i < k->n_in; i++) {
        const rnn_tensor *t = &k->in[i];
        int is_init = (i == 4 && k->lens_known) ||
                      (k->weights_init && (i == 1 || i == 2 || i == 3 ||
                                           i == 7));
        if (t->rank && !is_init)
            ASSERT_OK(rlx_program_set_input(p, in_names[i], data_of(t),
                                            bytes_of(t)));
    }
    ASSERT_OK(rlx_program_run(p));
    int checked = 0;
    for (int o = 0; o < k->n_out; o++) {
        const rnn_tensor *want = &k->out[o];
        if (!want->rank)
            continue;
        uint32_t slot = UINT32_MAX;
        for (uint32_t i = 0; i < rlx_program_output_count(p); i++) {
            const char *nm;
            rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &nm, NULL, NULL, NULL);
            if (!strcmp(nm, out_names[o]))
                slot = i;
        }
        if (slot == UINT32_MAX)
            FAIL("%s: no output %s", k->name, out_names[o]);
        size_t nb;
        const void *got = rlx_program_output_data(p, slot, &nb);
        ASSERT_EQ(nb, bytes_of(want));
        /* f16: each op rounds its result to f16 */
        float atol = want->h ? 2e-3f : 1e-5f, rtol = want->h ? 1e-2f : 1e-4f;
        for (size_t i = 0; i < count(want); i++) {
            float g = want->h ? half_to_float(((const uint16_t *)got)[i])
                              : ((const float *)got)[i];
            float w = want->h ? half_to_float(want->h[i]) : want->f[i];
            if (!(fabsf(g - w) <= atol + rtol * fabsf(w)))
                FAIL("%s: %s element %zu is %.7g, expected %.7g", k->name,
                     out_names[o], i, g, w);
        }
        checked++;
    }
    ASSERT(checked > 0);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
}

/* One TEST per generated case, in gen-rnn-numpy.py's order. */
#define CASE(fn, idx, name) TEST(fn) { run_case(idx, name); }
CASE(lstm_forward_defaults, 0, "lstm forward, defaults")
CASE(lstm_bidirectional_peepholes_lengths, 1, "lstm bidirectional, B")
CASE(lstm_reverse_layout1_clip_input_forget, 2, "lstm reverse, layout 1")
CASE(lstm_activations_alpha_beta, 3, "lstm bidirectional activations")
CASE(lstm_opset7_initializers, 4, "lstm opset 7")
CASE(gru_forward_bias_initial_h, 5, "gru forward")
CASE(gru_bidirectional_lbr_layout1_lengths, 6, "gru bidirectional")
CASE(gru_reverse_activations_clip, 7, "gru reverse")
CASE(gru_opset3_lbr, 8, "gru opset 3")
CASE(rnn_forward_defaults, 9, "rnn forward")
CASE(rnn_bidirectional_layout1_known_lengths, 10, "rnn bidirectional")
CASE(rnn_reverse_relu_clip_lengths, 11, "rnn reverse")
CASE(rnn_opset7_one_step, 12, "rnn opset 7")
CASE(lstm_f16_bidirectional, 13, "lstm f16")
CASE(gru_f16_lbr_lengths, 14, "gru f16")

TEST(every_case_has_a_test)
{
    ASSERT_EQ(sizeof rnn_cases / sizeof rnn_cases[0], (size_t)15);
}

/* A case's model with one change, which must fail the load naming
 * NEEDLE. */
static void refuse(int idx, void (*edit)(ox_model *, Onnx__NodeProto *),
                   rlx_status st, const char *needle)
{
    Onnx__NodeProto *n;
    ox_model *x = build(&rnn_cases[idx], &n);
    edit(x, n);
    const char *path = ox_write(x, "bad.onnx");
    ox_free(x);
    ox_expect_fail(path, st, needle);
}

static void bad_activation(ox_model *x, Onnx__NodeProto *n)
{
    const char *a[3] = { "Sigmoid", "Gelu", "Tanh" };
    attr_strings(x, n, "activations", 3, a);
}

static void wrong_count(ox_model *x, Onnx__NodeProto *n)
{
    const char *a[2] = { "Sigmoid", "Tanh" };
    attr_strings(x, n, "activations", 2, a);
}

static void wrong_hidden(ox_model *x, Onnx__NodeProto *n)
{
    (void)x;
    for (size_t i = 0; i < n->n_attribute; i++)
        if (!strcmp(n->attribute[i]->name, "hidden_size"))
            n->attribute[i]->i = 7;
}

static void bad_direction(ox_model *x, Onnx__NodeProto *n)
{
    (void)x;
    for (size_t i = 0; i < n->n_attribute; i++)
        if (!strcmp(n->attribute[i]->name, "direction")) {
            n->attribute[i]->s.data = (uint8_t *)"sideways";
            n->attribute[i]->s.len = 8;
        }
}

static void bad_clip(ox_model *x, Onnx__NodeProto *n)
{
    ox_attr_float(x, n, "clip", -1.0f);
}

TEST(refusals_name_what_is_wrong)
{
    refuse(0, bad_activation, RLX_ERR_UNSUPPORTED, "activation 'Gelu'");
    refuse(0, wrong_count, RLX_ERR_INVALID_ARGUMENT, "2 activations");
    refuse(0, wrong_hidden, RLX_ERR_SHAPE, "hidden_size is 7");
    refuse(5, bad_direction, RLX_ERR_INVALID_ARGUMENT, "'sideways'");
    refuse(9, bad_clip, RLX_ERR_INVALID_ARGUMENT, "clip is -1");
}

/* Known sequence lengths past seq_length are refused at load. */
TEST(known_lengths_out_of_range)
{
    ox_model *x = ox_new(8, 14);
    int64_t xd[3] = { 2, 1, 1 }, wd[3] = { 1, 1, 1 }, ld[1] = { 1 };
    float one = 1;
    int32_t len = 3;
    ox_input(x, "X", OX_F32, 3, xd);
    ox_init(x, "W", OX_F32, 3, wd, &one, 4);
    ox_init(x, "R", OX_F32, 3, wd, &one, 4);
    ox_init(x, "L", OX_I32, 1, ld, &len, 4);
    int64_t hd[3] = { 1, 1, 1 };
    ox_output(x, "Y_h", OX_F32, 3, hd);
    ox_node(x, "RNN", N("X", "W", "R", "", "L"), N("", "Y_h"));
    const char *path = ox_write(x, "lens.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "sequence_lens[0] is 3");
}

/* A sequence too long to unroll is refused, saying how to cut it. */
TEST(too_many_steps)
{
    ox_model *x = ox_new(8, 14);
    int64_t xd[3] = { 40000, 1, 1 }, wd[3] = { 2, 1, 1 }, hd[3] = { 2, 1, 1 };
    float w[2] = { 1, 1 };
    ox_input(x, "X", OX_F32, 3, xd);
    ox_init(x, "W", OX_F32, 3, wd, w, sizeof w);
    ox_init(x, "R", OX_F32, 3, wd, w, sizeof w);
    ox_output(x, "Y_h", OX_F32, 3, hd);
    Onnx__NodeProto *n = ox_node(x, "RNN", N("X", "W", "R"), N("", "Y_h"));
    ox_attr_string(x, n, "direction", "bidirectional");
    const char *path = ox_write(x, "long.onnx");
    ox_free(x);
    ox_expect_fail(path, RLX_ERR_UNSUPPORTED, "40000 steps");
}

RLX_TEST_LIST(TEST_ENTRY(lstm_forward_defaults),
              TEST_ENTRY(lstm_bidirectional_peepholes_lengths),
              TEST_ENTRY(lstm_reverse_layout1_clip_input_forget),
              TEST_ENTRY(lstm_activations_alpha_beta),
              TEST_ENTRY(lstm_opset7_initializers),
              TEST_ENTRY(gru_forward_bias_initial_h),
              TEST_ENTRY(gru_bidirectional_lbr_layout1_lengths),
              TEST_ENTRY(gru_reverse_activations_clip),
              TEST_ENTRY(gru_opset3_lbr),
              TEST_ENTRY(rnn_forward_defaults),
              TEST_ENTRY(rnn_bidirectional_layout1_known_lengths),
              TEST_ENTRY(rnn_reverse_relu_clip_lengths),
              TEST_ENTRY(rnn_opset7_one_step),
              TEST_ENTRY(lstm_f16_bidirectional),
              TEST_ENTRY(gru_f16_lbr_lengths),
              TEST_ENTRY(every_case_has_a_test),
              TEST_ENTRY(refusals_name_what_is_wrong),
              TEST_ENTRY(known_lengths_out_of_range),
              TEST_ENTRY(too_many_steps))
