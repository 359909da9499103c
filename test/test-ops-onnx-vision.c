/*
 * test-ops-onnx-vision.c - cpu-ref's conv, conv_transpose, pools, resize
 * and channel norms against the ONNX backend node tests of those
 * operators: ONNX's own inputs and expected outputs, lowered onto rlx's
 * attributes by test/onnx-node/gen-vision-cases.py (built into the
 * fixture RLX_TEST_VISION_CASES names), so every expectation comes from
 * outside rlx.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

#define MAX_IN 5

typedef struct vtensor {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[MAX_RANK];
    size_t n;
    double *v;
} vtensor;

static int read_tensor(FILE *f, const char *kind, vtensor *t)
{
    char word[32];
    int dt;
    unsigned rank;
    if (fscanf(f, "%31s %d %u", word, &dt, &rank) != 3 ||
        strcmp(word, kind) != 0 || rank > MAX_RANK)
        return -1;
    t->dtype = (rlx_dtype)dt;
    t->rank = rank;
    for (unsigned i = 0; i < rank; i++)
        if (fscanf(f, "%lld", (long long *)&t->dims[i]) != 1)
            return -1;
    if (fscanf(f, "%zu", &t->n) != 1)
        return -1;
    t->v = malloc((t->n ? t->n : 1) * sizeof *t->v);
    for (size_t i = 0; t->v && i < t->n; i++)
        if (fscanf(f, "%lf", &t->v[i]) != 1)
            return -1;
    return t->v ? 0 : -1;
}

/* TEST's bytes in its dtype (f32, i8 or u8). */
static void *bytes_of(const vtensor *t)
{
    size_t es = t->dtype == RLX_DTYPE_F32 ? 4 : 1;
    unsigned char *b = malloc((t->n ? t->n : 1) * es);
    for (size_t i = 0; b && i < t->n; i++) {
        if (t->dtype == RLX_DTYPE_F32) {
            float x = (float)t->v[i];
            memcpy(b + 4 * i, &x, 4);
        } else if (t->dtype == RLX_DTYPE_I8) {
            b[i] = (unsigned char)(signed char)t->v[i];
        } else {
            b[i] = (unsigned char)t->v[i];
        }
    }
    return b;
}

static double value_at(const result *r, size_t i)
{
    if (r->dtype == RLX_DTYPE_F32) {
        float x;
        memcpy(&x, (const unsigned char *)r->data + 4 * i, 4);
        return x;
    }
    if (r->dtype == RLX_DTYPE_I8)
        return ((const signed char *)r->data)[i];
    return ((const unsigned char *)r->data)[i];
}

/* Run every case of the fixture whose op is one of OPS; returns how many
 * ran, and counts failures in *BAD (each described on stderr). */
static int run_cases(const rlx_op *ops, size_t n_ops, int *bad)
{
    const char *path = getenv("RLX_TEST_VISION_CASES");
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        FAIL("cannot read the ONNX node cases '%s'. Fix: build them "
             "(needs /usr/bin/python3 with numpy and onnx: apt-get install "
             "python3-onnx)", path ? path : "(RLX_TEST_VISION_CASES unset)");
    int total = 0, ran = 0;
    ASSERT(fscanf(f, "cases %d", &total) == 1);
    for (int k = 0; k < total; k++) {
        char name[128];
        int op, n_ints, n_floats;
        int64_t ints[64];
        double floats[64];
        ASSERT(fscanf(f, " case %127s %d", name, &op) == 2);
        ASSERT(fscanf(f, " ints %d", &n_ints) == 1 && n_ints <= 64);
        for (int i = 0; i < n_ints; i++)
            ASSERT(fscanf(f, "%lld", (long long *)&ints[i]) == 1);
        ASSERT(fscanf(f, " floats %d", &n_floats) == 1 && n_floats <= 64);
        for (int i = 0; i < n_floats; i++)
            ASSERT(fscanf(f, "%lf", &floats[i]) == 1);
        vtensor in[MAX_IN], want;
        uint32_t n_in = 0;
        for (;;) {
            long pos = ftell(f);
            char word[16];
            ASSERT(fscanf(f, " %15s", word) == 1);
            fseek(f, pos, SEEK_SET);
            if (strcmp(word, "output") == 0)
                break;
            ASSERT(n_in < MAX_IN);
            ASSERT(read_tensor(f, "input", &in[n_in]) == 0);
            n_in++;
        }
        ASSERT(read_tensor(f, "output", &want) == 0);

        int wanted = 0;
        for (size_t i = 0; i < n_ops; i++)
            wanted |= (int)ops[i] == op;
        if (wanted) {
            source s[MAX_IN];
            void *raw[MAX_IN];
            for (uint32_t i = 0; i < n_in; i++) {
                raw[i] = bytes_of(&in[i]);
                s[i] = src('i', in[i].dtype, in[i].rank, in[i].dims, raw[i]);
            }
            rlx_attrs attrs = { (uint32_t)n_ints, ints, (uint32_t)n_floats,
                                floats };
            result r = { 0 };
            rlx_status st = run_any_try((rlx_op)op, n_in, s, &attrs, &r);
            ran++;
            if (st != RLX_OK) {
                fprintf(stderr, "# %s: %s\n", name, run_error);
                (*bad)++;
            } else {
                int shape_ok = r.rank == want.rank;
                for (uint32_t i = 0; shape_ok && i < r.rank; i++)
                    shape_ok = r.dims[i] == want.dims[i];
                size_t wrong = 0, worst = 0;
                double worst_err = 0;
                for (size_t i = 0; shape_ok && i < want.n; i++) {
                    double got = value_at(&r, i), w = want.v[i];
                    double err = fabs(got - w);
                    if (err > 1e-5 + 1e-5 * fabs(w) || isnan(got) != isnan(w)) {
                        if (!wrong || err > worst_err) {
                            worst = i;
                            worst_err = err;
                        }
                        wrong++;
                    }
                }
                if (!shape_ok || wrong) {
                    fprintf(stderr, "# %s: %s, %zu of %zu values wrong "
                            "(element %zu: %.9g, want %.9g)\n", name,
                            shape_ok ? "shape ok" : "shape differs", wrong,
                            want.n, worst,
                            shape_ok && want.n ? value_at(&r, worst) : 0.0,
                            want.n ? want.v[worst] : 0.0);
                    (*bad)++;
                }
            }
            free(r.data);
            for (uint32_t i = 0; i < n_in; i++)
                free(raw[i]);
        }
        for (uint32_t i = 0; i < n_in; i++)
            free(in[i].v);
        free(want.v);
    }
    fclose(f);
    return ran;
}

static void check_family(const rlx_op *ops, size_t n, int at_least)
{
    int bad = 0;
    int ran = run_cases(ops, n, &bad);
    ASSERT_EQ(bad, 0);
    ASSERT(ran >= at_least);
}

TEST(onnx_conv)
{
    static const rlx_op ops[] = { RLX_OP_CONV };
    check_family(ops, N_OF(ops), 6);
}

TEST(onnx_conv_transpose)
{
    static const rlx_op ops[] = { RLX_OP_CONV_TRANSPOSE };
    check_family(ops, N_OF(ops), 10);
}

TEST(onnx_pools)
{
    static const rlx_op ops[] = { RLX_OP_MAX_POOL, RLX_OP_AVG_POOL,
                                  RLX_OP_LP_POOL };
    check_family(ops, N_OF(ops), 25);
}

TEST(onnx_resize)
{
    static const rlx_op ops[] = { RLX_OP_RESIZE };
    check_family(ops, N_OF(ops), 20);
}

TEST(onnx_norms)
{
    static const rlx_op ops[] = { RLX_OP_BATCH_NORM, RLX_OP_INSTANCE_NORM };
    check_family(ops, N_OF(ops), 4);
}

RLX_TEST_LIST(TEST_ENTRY(onnx_conv), TEST_ENTRY(onnx_conv_transpose),
              TEST_ENTRY(onnx_pools), TEST_ENTRY(onnx_resize),
              TEST_ENTRY(onnx_norms))
