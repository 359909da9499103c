/*
 * test-onnx-control.c - ONNX control flow and data-dependent shapes on
 * cpu-ref, against values worked out here: an If whose condition is a
 * constant inlined at load (nested, the branch reading outer names and
 * its own initializer); an If on a run-time condition, Loop (carried
 * values, stacked scan outputs), Scan in reverse, and Compress and
 * Unique on run-time data run in stages, the stage after a host step
 * compiled for the size it made, a staged program following a new input
 * shape, a Range whose limit is computed from data; a subgraph reading a node listed after it; a Loop that could
 * never end, a Loop body of the wrong arity and a Scan over two lengths
 * refused with a Fix.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "onnx-util.h"

#define N(...) (const char *[]){ __VA_ARGS__, NULL }

static const int64_t d23[2] = { 2, 3 };
static const int64_t d2[1] = { 2 };
static const float x23[6] = { -1.5f, 0.5f, 2, -0.25f, 3, -4 };

typedef struct stg_run {
    rlx_model *m;
    rlx_runtime *rt;
    rlx_session *s;
    rlx_program *p;
} stg_run;

static void stg_open(stg_run *r, const char *path)
{
    memset(r, 0, sizeof *r);
    ASSERT_OK(rlx_model_load(path, &r->m));
    ASSERT_OK(rlx_runtime_create(&r->rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(r->rt, "cpu-ref", &r->s));
    ASSERT_OK(rlx_model_compile(r->m, r->s, &r->p));
}

static void stg_close(stg_run *r)
{
    rlx_program_destroy(r->p);
    rlx_session_destroy(r->s);
    rlx_runtime_destroy(r->rt);
    rlx_model_destroy(r->m);
}

/* Output NAME of P's last run: of DT and the dims in WANT_DIMS. */
static const void *stg_out(rlx_program *p, const char *name, rlx_dtype dt,
                       uint32_t rank, const int64_t *want_dims)
{
    for (uint32_t i = 0; i < rlx_program_output_count(p); i++) {
        const char *nm;
        rlx_dtype d;
        uint32_t r;
        const int64_t *dims;
        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &nm, &d, &r, &dims);
        if (strcmp(nm, name) != 0)
            continue;
        ASSERT_EQ(d, dt);
        ASSERT_EQ(r, rank);
        size_t count = 1;
        for (uint32_t k = 0; k < rank; k++) {
            if (dims[k] != want_dims[k])
                FAIL("%s: dim %u is %lld, expected %lld", name, k,
                     (long long)dims[k], (long long)want_dims[k]);
            count *= (size_t)dims[k];
        }
        size_t nb;
        const void *data = rlx_program_output_data(p, i, &nb);
        ASSERT_EQ(nb, count * rlx_dtype_size(dt));
        return data;
    }
    FAIL("no output '%s'", name);
}

static void stg_expect_f(rlx_program *p, const char *name, uint32_t rank,
                     const int64_t *dims, const float *want)
{
    const float *got = stg_out(p, name, RLX_DTYPE_F32, rank, dims);
    size_t n = 1;
    for (uint32_t k = 0; k < rank; k++)
        n *= (size_t)dims[k];
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= 1e-5f) &&
            !(isnan(got[i]) && isnan(want[i])))
            FAIL("%s[%zu]: %.7g, expected %.7g", name, i, got[i], want[i]);
}

static void stg_expect_i(rlx_program *p, const char *name, uint32_t rank,
                     const int64_t *dims, const int64_t *want)
{
    const int64_t *got = stg_out(p, name, RLX_DTYPE_I64, rank, dims);
    size_t n = 1;
    for (uint32_t k = 0; k < rank; k++)
        n *= (size_t)dims[k];
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i])
            FAIL("%s[%zu]: %lld, expected %lld", name, i,
                 (long long)got[i], (long long)want[i]);
}

/* A subgraph of one node OP(INS) -> OUT (f32 of DIMS), its inputs none. */
static ox_model *branch(const char *op, const char *const *ins,
                        const char *outname, uint32_t rank,
                        const int64_t *dims)
{
    ox_model *b = ox_new(8, 13);
    ox_node(b, op, ins, (const char *[]){ outname, NULL });
    ox_output(b, outname, OX_F32, rank, dims);
    return b;
}

TEST(if_with_a_constant_condition_is_inlined_at_load)
{
    /* then: an inner If on another constant, whose else negates the
     * outer x; else: x * x. The then branch of the inner If adds its own
     * initializer to x. */
    ox_model *x = ox_new(8, 13);
    ox_input(x, "x", OX_F32, 2, d23);
    uint8_t yes = 1, no = 0;
    ox_init(x, "c_outer", OX_BOOL, 0, NULL, &yes, 1);
    ox_init(x, "c_inner", OX_BOOL, 0, NULL, &no, 1);
    ox_model *inner_then = branch("Add", N("x", "one"), "a", 2, d23);
    float one = 1;
    ox_init(inner_then, "one", OX_F32, 0, NULL, &one, sizeof one);
    ox_model *inner_else = branch("Neg", N("x"), "b", 2, d23);
    ox_model *outer_then = ox_new(8, 13);
    Onnx__NodeProto *in_if = ox_node(outer_then, "If", N("c_inner"),
                                     N("t"));
    ox_attr_graph(outer_then, in_if, "then_branch", &inner_then->g);
    ox_attr_graph(outer_then, in_if, "else_branch", &inner_else->g);
    ox_output(outer_then, "t", OX_F32, 2, d23);
    ox_model *outer_else = branch("Mul", N("x", "x"), "e", 2, d23);
    Onnx__NodeProto *n = ox_node(x, "If", N("c_outer"), N("y"));
    ox_attr_graph(x, n, "then_branch", &outer_then->g);
    ox_attr_graph(x, n, "else_branch", &outer_else->g);
    ox_output(x, "y", OX_F32, 2, d23);
    const char *path = ox_write(x, "if-constant.onnx");
    ox_free(x);
    ox_free(outer_then);
    ox_free(outer_else);
    ox_free(inner_then);
    ox_free(inner_else);
    stg_run r;
    stg_open(&r, path);
    /* resolved at load: one graph, no stages */
    ASSERT(rlx_model_graph(r.m) != NULL);
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float w[6];
    for (int i = 0; i < 6; i++)
        w[i] = -x23[i];
    stg_expect_f(r.p, "y", 2, d23, w);
    stg_close(&r);
}

TEST(if_on_a_run_time_condition_runs_in_stages)
{
    /* y = x * x before the If; the branches read y and x */
    ox_model *x = ox_new(8, 13);
    ox_input(x, "c", OX_BOOL, 0, NULL);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_node(x, "Mul", N("x", "x"), N("y"));
    ox_model *t = branch("Add", N("y", "x"), "t", 2, d23);
    ox_model *e = branch("Sub", N("y", "x"), "e", 2, d23);
    Onnx__NodeProto *n = ox_node(x, "If", N("c"), N("z"));
    ox_attr_graph(x, n, "then_branch", &t->g);
    ox_attr_graph(x, n, "else_branch", &e->g);
    ox_node(x, "Neg", N("z"), N("out"));
    ox_output(x, "out", OX_F32, 2, d23);
    const char *path = ox_write(x, "if-run-time.onnx");
    ox_free(x);
    ox_free(t);
    ox_free(e);
    stg_run r;
    stg_open(&r, path);
    ASSERT(rlx_model_graph(r.m) == NULL); /* no single graph */
    for (int pass = 0; pass < 2; pass++) {
        uint8_t c = pass == 0;
        ASSERT_OK(rlx_program_set_input(r.p, "c", &c, 1));
        ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
        ASSERT_OK(rlx_program_run(r.p));
        float w[6];
        for (int i = 0; i < 6; i++)
            w[i] = -(x23[i] * x23[i] + (c ? x23[i] : -x23[i]));
        stg_expect_f(r.p, "out", 2, d23, w);
    }
    stg_close(&r);
}

/* The branches read y, made by a node the file lists after the If: the
 * loader orders the If after it. */
TEST(a_subgraph_reading_a_later_listed_node_comes_after_it)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "c", OX_BOOL, 0, NULL);
    ox_input(x, "x", OX_F32, 2, d23);
    ox_model *t = branch("Neg", N("y"), "t", 2, d23);
    ox_model *e = branch("Identity", N("y"), "e", 2, d23);
    Onnx__NodeProto *n = ox_node(x, "If", N("c"), N("z"));
    ox_attr_graph(x, n, "then_branch", &t->g);
    ox_attr_graph(x, n, "else_branch", &e->g);
    ox_node(x, "Mul", N("x", "x"), N("y"));
    ox_output(x, "z", OX_F32, 2, d23);
    const char *path = ox_write(x, "if-order.onnx");
    ox_free(x);
    ox_free(t);
    ox_free(e);
    stg_run r;
    stg_open(&r, path);
    uint8_t c = 1;
    ASSERT_OK(rlx_program_set_input(r.p, "c", &c, 1));
    ASSERT_OK(rlx_program_set_input(r.p, "x", x23, sizeof x23));
    ASSERT_OK(rlx_program_run(r.p));
    float w[6];
    for (int i = 0; i < 6; i++)
        w[i] = -x23[i] * x23[i];
    stg_expect_f(r.p, "z", 2, d23, w);
    stg_close(&r);
}

/* Loop: s += 1 each iteration; scan output s * iteration number. */
static const char *loop_model(const char *file, int with_m)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "M", OX_I64, 0, NULL);
    ox_input(x, "s0", OX_F32, 1, d2);
    ox_model *b = ox_new(8, 13);
    ox_input(b, "i", OX_I64, 0, NULL);
    ox_input(b, "cin", OX_BOOL, 0, NULL);
    ox_input(b, "s", OX_F32, 1, d2);
    float one = 1;
    ox_init(b, "one", OX_F32, 0, NULL, &one, sizeof one);
    ox_node(b, "Identity", N("cin"), N("cout"));
    ox_node(b, "Add", N("s", "one"), N("s2"));
    Onnx__NodeProto *cast = ox_node(b, "Cast", N("i"), N("fi"));
    ox_attr_int(b, cast, "to", OX_F32);
    ox_node(b, "Mul", N("s2", "fi"), N("scan"));
    ox_output(b, "cout", OX_BOOL, 0, NULL);
    ox_output(b, "s2", OX_F32, 1, d2);
    ox_output(b, "scan", OX_F32, 1, d2);
    Onnx__NodeProto *n = ox_node(x, "Loop", with_m ? N("M", "", "s0")
                                                   : N("", "", "s0"),
                                 N("s_final", "scans"));
    ox_attr_graph(x, n, "body", &b->g);
    int64_t ds[2] = { -1, 2 };
    ox_output(x, "s_final", OX_F32, 1, d2);
    ox_output(x, "scans", OX_F32, 2, ds);
    const char *path = ox_write(x, file);
    ox_free(x);
    ox_free(b);
    return path;
}

TEST(loop_carries_values_and_stacks_scan_outputs)
{
    stg_run r;
    stg_open(&r, loop_model("loop.onnx", 1));
    int64_t m = 3;
    float s0[2] = { 0, 10 };
    ASSERT_OK(rlx_program_set_input(r.p, "M", &m, sizeof m));
    ASSERT_OK(rlx_program_set_input(r.p, "s0", s0, sizeof s0));
    ASSERT_OK(rlx_program_run(r.p));
    const float wf[2] = { 3, 13 };
    stg_expect_f(r.p, "s_final", 1, d2, wf);
    const int64_t d32[2] = { 3, 2 };
    const float ws[6] = { 0, 0, 2, 12, 6, 26 };
    stg_expect_f(r.p, "scans", 2, d32, ws);
    /* another trip count: the scan output's shape follows */
    m = 1;
    ASSERT_OK(rlx_program_set_input(r.p, "M", &m, sizeof m));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d12[2] = { 1, 2 };
    const float w1[2] = { 0, 0 };
    stg_expect_f(r.p, "scans", 2, d12, w1);
    stg_close(&r);
}

TEST(loop_that_could_never_end_is_refused)
{
    /* refused when the model loads, naming the node */
    ox_expect_fail(loop_model("loop-forever.onnx", 0), RLX_ERR_UNSUPPORTED,
                   "never end");
}

/* A Loop body with an input too few (refused at load), and a Scan over
 * inputs of two lengths (at run), naming the node. */
TEST(malformed_loop_and_scan_are_refused)
{
    ox_model *x = ox_new(8, 13);
    ox_input(x, "M", OX_I64, 0, NULL);
    ox_input(x, "s0", OX_F32, 1, d2);
    ox_model *b = ox_new(8, 13);
    ox_input(b, "i", OX_I64, 0, NULL);
    ox_input(b, "s", OX_F32, 1, d2);
    ox_node(b, "Identity", N("s"), N("s2"));
    ox_output(b, "s2", OX_F32, 1, d2);
    Onnx__NodeProto *n = ox_node(x, "Loop", N("M", "", "s0"), N("sf"));
    ox_attr_graph(x, n, "body", &b->g);
    ox_output(x, "sf", OX_F32, 1, d2);
    const char *path = ox_write(x, "loop-bad-body.onnx");
    ox_free(x);
    ox_free(b);
    ox_expect_fail(path, RLX_ERR_INVALID_ARGUMENT, "its body has 2 inputs");
    stg_run r;
    float s0[2] = { 1, 2 };

    x = ox_new(8, 11);
    const int64_t d32[2] = { 3, 2 }, d42[2] = { 4, 2 };
    ox_input(x, "s0", OX_F32, 1, d2);
    ox_input(x, "xa", OX_F32, 2, d32);
    ox_input(x, "xb", OX_F32, 2, d42);
    b = ox_new(8, 11);
    ox_input(b, "s", OX_F32, 1, d2);
    ox_input(b, "a", OX_F32, 1, d2);
    ox_input(b, "bb", OX_F32, 1, d2);
    ox_node(b, "Sum", N("s", "a", "bb"), N("s2"));
    ox_output(b, "s2", OX_F32, 1, d2);
    n = ox_node(x, "Scan", N("s0", "xa", "xb"), N("sf"));
    ox_attr_graph(x, n, "body", &b->g);
    ox_attr_int(x, n, "num_scan_inputs", 2);
    ox_output(x, "sf", OX_F32, 1, d2);
    path = ox_write(x, "scan-two-lengths.onnx");
    ox_free(x);
    ox_free(b);
    stg_open(&r, path);
    float xa[6] = { 0 }, xb[8] = { 0 };
    ASSERT_OK(rlx_program_set_input(r.p, "s0", s0, sizeof s0));
    ASSERT_OK(rlx_program_set_input(r.p, "xa", xa, sizeof xa));
    ASSERT_OK(rlx_program_set_input(r.p, "xb", xb, sizeof xb));
    ASSERT_EQ(rlx_program_run(r.p), RLX_ERR_SHAPE);
    ASSERT_CONTAINS(rlx_last_error(), "lengths 3 and 4");
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
    stg_close(&r);
}

TEST(scan_in_reverse_runs_its_body_per_slice)
{
    ox_model *x = ox_new(8, 11);
    const int64_t d32[2] = { 3, 2 };
    ox_input(x, "s0", OX_F32, 1, d2);
    ox_input(x, "xs", OX_F32, 2, d32);
    ox_model *b = ox_new(8, 11);
    ox_input(b, "s", OX_F32, 1, d2);
    ox_input(b, "xt", OX_F32, 1, d2);
    ox_node(b, "Add", N("s", "xt"), N("s2"));
    ox_node(b, "Identity", N("s2"), N("o"));
    ox_output(b, "s2", OX_F32, 1, d2);
    ox_output(b, "o", OX_F32, 1, d2);
    Onnx__NodeProto *n = ox_node(x, "Scan", N("s0", "xs"), N("sf", "ys"));
    ox_attr_graph(x, n, "body", &b->g);
    ox_attr_int(x, n, "num_scan_inputs", 1);
    const int64_t rev[1] = { 1 };
    ox_attr_ints(x, n, "scan_input_directions", 1, rev);
    ox_output(x, "sf", OX_F32, 1, d2);
    ox_output(x, "ys", OX_F32, 2, d32);
    const char *path = ox_write(x, "scan-reverse.onnx");
    ox_free(x);
    ox_free(b);
    stg_run r;
    stg_open(&r, path);
    const float s0[2] = { 0, 0 }, xs[6] = { 1, 2, 3, 4, 5, 6 };
    ASSERT_OK(rlx_program_set_input(r.p, "s0", s0, sizeof s0));
    ASSERT_OK(rlx_program_set_input(r.p, "xs", xs, sizeof xs));
    ASSERT_OK(rlx_program_run(r.p));
    const float wf[2] = { 9, 12 }, wy[6] = { 5, 6, 8, 10, 9, 12 };
    stg_expect_f(r.p, "sf", 1, d2, wf);
    stg_expect_f(r.p, "ys", 2, d32, wy);
    stg_close(&r);
}

TEST(compress_feeds_a_stage_compiled_for_its_size)
{
    /* x (batch) -> the positive entries, doubled */
    ox_model *x = ox_new(8, 13);
    const int64_t db[1] = { -1 };
    ox_input(x, "x", OX_F32, 1, db);
    float zero = 0, two = 2;
    ox_init(x, "zero", OX_F32, 0, NULL, &zero, sizeof zero);
    ox_init(x, "two", OX_F32, 0, NULL, &two, sizeof two);
    ox_node(x, "Greater", N("x", "zero"), N("pos"));
    Onnx__NodeProto *n = ox_node(x, "Compress", N("x", "pos"), N("kept"));
    ox_attr_int(x, n, "axis", 0);
    ox_node(x, "Mul", N("kept", "two"), N("y"));
    ox_output(x, "y", OX_F32, 1, db);
    const char *path = ox_write(x, "compress.onnx");
    ox_free(x);
    stg_run r;
    stg_open(&r, path);
    const int64_t d6[1] = { 6 };
    ASSERT_OK(rlx_program_set_input_shape(r.p, "x", 1, d6));
    const float a[6] = { 1, -1, 2, -2, 3, -3 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", a, sizeof a));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d3[1] = { 3 };
    const float wa[3] = { 2, 4, 6 };
    stg_expect_f(r.p, "y", 1, d3, wa);
    const float b[6] = { 1, 1, 1, 1, -1, 1 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", b, sizeof b));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d5[1] = { 5 };
    const float wb[5] = { 2, 2, 2, 2, 2 };
    stg_expect_f(r.p, "y", 1, d5, wb);
    /* a batch of 2: another program behind the same handle */
    ASSERT_OK(rlx_program_set_input_shape(r.p, "x", 1, d2));
    const float c[2] = { -5, 7 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", c, sizeof c));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d1[1] = { 1 };
    const float wc[1] = { 14 };
    stg_expect_f(r.p, "y", 1, d1, wc);
    stg_close(&r);
}

/* Range up to n + 1, n fed at run time: Range needs its limit's value,
 * so the stage computing it ends first. */
TEST(a_shape_argument_computed_from_data_ends_a_stage)
{
    ox_model *x = ox_new(8, 13);
    const int64_t dn[1] = { -1 };
    ox_input(x, "n", OX_I64, 0, NULL);
    int64_t zero = 0, one = 1;
    ox_init(x, "zero", OX_I64, 0, NULL, &zero, sizeof zero);
    ox_init(x, "one", OX_I64, 0, NULL, &one, sizeof one);
    ox_node(x, "Add", N("n", "one"), N("limit"));
    ox_node(x, "Range", N("zero", "limit", "one"), N("r"));
    ox_node(x, "Mul", N("r", "r"), N("sq"));
    ox_output(x, "sq", OX_I64, 1, dn);
    const char *path = ox_write(x, "range-of-data.onnx");
    ox_free(x);
    stg_run r;
    stg_open(&r, path);
    ASSERT(rlx_model_graph(r.m) == NULL);
    int64_t n = 3;
    ASSERT_OK(rlx_program_set_input(r.p, "n", &n, sizeof n));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d4[1] = { 4 }, w4[4] = { 0, 1, 4, 9 };
    stg_expect_i(r.p, "sq", 1, d4, w4);
    n = 1;
    ASSERT_OK(rlx_program_set_input(r.p, "n", &n, sizeof n));
    ASSERT_OK(rlx_program_run(r.p));
    const int64_t d2b[1] = { 2 }, w2[2] = { 0, 1 };
    stg_expect_i(r.p, "sq", 1, d2b, w2);
    stg_close(&r);
}

TEST(unique_of_run_time_data)
{
    ox_model *x = ox_new(8, 13);
    const int64_t d6[1] = { 6 }, dn[1] = { -1 };
    ox_input(x, "x", OX_F32, 1, d6);
    ox_node(x, "Unique", N("x"), N("y", "idx", "inv", "cnt"));
    ox_output(x, "y", OX_F32, 1, dn);
    ox_output(x, "idx", OX_I64, 1, dn);
    ox_output(x, "inv", OX_I64, 1, d6);
    ox_output(x, "cnt", OX_I64, 1, dn);
    const char *path = ox_write(x, "unique.onnx");
    ox_free(x);
    stg_run r;
    stg_open(&r, path);
    const float a[6] = { 2, 1, 2, 3, 1, 2 };
    ASSERT_OK(rlx_program_set_input(r.p, "x", a, sizeof a));
    /* submit runs a staged program at once */
    ASSERT_OK(rlx_program_submit(r.p));
    ASSERT_OK(rlx_program_wait(r.p));
    const int64_t d3[1] = { 3 };
    const float wy[3] = { 1, 2, 3 };
    const int64_t wi[3] = { 1, 0, 3 }, wv[6] = { 1, 0, 1, 2, 0, 1 },
                  wc[3] = { 2, 3, 1 };
    stg_expect_f(r.p, "y", 1, d3, wy);
    stg_expect_i(r.p, "idx", 1, d3, wi);
    stg_expect_i(r.p, "inv", 1, d6, wv);
    stg_expect_i(r.p, "cnt", 1, d3, wc);
    stg_close(&r);
}

/* sorted=0 keeps first-occurrence order; NaNs collapse into one value (as
 * NumPy's unique); a long input (20000 values, sorted in n log n) keeps
 * every count */
TEST(unique_unsorted_nan_and_long_input)
{
    enum { L = 20000 };
    ox_model *x = ox_new(8, 13);
    const int64_t dl[1] = { L }, dn[1] = { -1 };
    ox_input(x, "x", OX_F32, 1, dl);
    Onnx__NodeProto *u = ox_node(x, "Unique", N("x"),
                                 N("y", "idx", "inv", "cnt"));
    ox_attr_int(x, u, "sorted", 0);
    ox_output(x, "y", OX_F32, 1, dn);
    ox_output(x, "idx", OX_I64, 1, dn);
    ox_output(x, "inv", OX_I64, 1, dl);
    ox_output(x, "cnt", OX_I64, 1, dn);
    const char *path = ox_write(x, "unique-unsorted.onnx");
    ox_free(x);
    stg_run r;
    stg_open(&r, path);
    static float a[L];
    /* 5, NaN, 3, then 7 - i % 7 repeated; another NaN at the end */
    a[0] = 5;
    a[1] = NAN;
    a[2] = 3;
    for (int i = 3; i < L - 1; i++)
        a[i] = (float)(7 - i % 7);
    a[L - 1] = NAN;
    ASSERT_OK(rlx_program_set_input(r.p, "x", a, sizeof a));
    ASSERT_OK(rlx_program_run(r.p));
    /* first occurrences: 5 (0), NaN (1), 3 (2), then i=3: 4, i=4: 3 (seen),
     * i=5: 2, i=6: 1, i=7: 7, i=8: 6, i=9: 5 (seen) */
    const int64_t d8[1] = { 8 };
    const float wy[8] = { 5, NAN, 3, 4, 2, 1, 7, 6 };
    const int64_t wi[8] = { 0, 1, 2, 3, 5, 6, 7, 8 };
    int64_t wc[8] = { 1, 2, 1, 0, 0, 0, 0, 0 };
    for (int i = 3; i < L - 1; i++) {
        static const int slot[8] = { -1, 5, 4, 2, 3, 0, 7, 6 };
        wc[slot[7 - i % 7]]++;
    }
    stg_expect_f(r.p, "y", 1, d8, wy);
    stg_expect_i(r.p, "idx", 1, d8, wi);
    stg_expect_i(r.p, "cnt", 1, d8, wc);
    stg_close(&r);
}

RLX_TEST_LIST(TEST_ENTRY(if_with_a_constant_condition_is_inlined_at_load),
              TEST_ENTRY(if_on_a_run_time_condition_runs_in_stages),
              TEST_ENTRY(a_subgraph_reading_a_later_listed_node_comes_after_it),
              TEST_ENTRY(loop_carries_values_and_stacks_scan_outputs),
              TEST_ENTRY(loop_that_could_never_end_is_refused),
              TEST_ENTRY(malformed_loop_and_scan_are_refused),
              TEST_ENTRY(scan_in_reverse_runs_its_body_per_slice),
              TEST_ENTRY(compress_feeds_a_stage_compiled_for_its_size),
              TEST_ENTRY(a_shape_argument_computed_from_data_ends_a_stage),
              TEST_ENTRY(unique_of_run_time_data),
              TEST_ENTRY(unique_unsorted_nan_and_long_input))
