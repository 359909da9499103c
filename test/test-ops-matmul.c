/*
 * test-ops-matmul.c - matmul on the reference CPU backend, through the
 * public API, against numpy.matmul written out by its definition in
 * double: transposes, broadcast batches, rank-1 operands, empty dims.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "ops-util.h"

/*
 * numpy.matmul by its definition: every output element unravelled to
 * its index, each operand element located by its own (transposed) index,
 * batch dims of size 1 pinned to 0.
 */
static void ref_matmul(const tensor *a, int ta, const tensor *b, int tb,
                       const tensor *y, double *out)
{
    uint32_t ra = a->rank, rb = b->rank, ry = y->rank;
    int64_t k = ra == 1 ? a->dims[0] : a->dims[ra - (ta ? 2 : 1)];
    uint32_t batch = ry - (ra >= 2) - (rb >= 2);
    size_t n = count_of(ry, y->dims);
    for (size_t e = 0; e < n; e++) {
        int64_t idx[MAX_RANK];
        size_t rest = e;
        for (uint32_t d = ry; d-- > 0;) {
            idx[d] = (int64_t)(rest % (size_t)y->dims[d]);
            rest /= (size_t)y->dims[d];
        }
        int64_t i = ra >= 2 ? idx[batch] : 0;
        int64_t j = rb >= 2 ? idx[ry - 1] : 0;
        double acc = 0;
        for (int64_t p = 0; p < k; p++) {
            int64_t ia[MAX_RANK], ib[MAX_RANK];
            if (ra == 1) {
                ia[0] = p;
            } else {
                for (uint32_t d = 0; d + 2 < ra; d++)
                    ia[d] = a->dims[d] == 1 ? 0 : idx[batch - (ra - 2) + d];
                ia[ra - 2] = ta ? p : i;
                ia[ra - 1] = ta ? i : p;
            }
            if (rb == 1) {
                ib[0] = p;
            } else {
                for (uint32_t d = 0; d + 2 < rb; d++)
                    ib[d] = b->dims[d] == 1 ? 0 : idx[batch - (rb - 2) + d];
                ib[rb - 2] = tb ? j : p;
                ib[rb - 1] = tb ? p : j;
            }
            size_t oa = 0, ob = 0;
            for (uint32_t d = 0; d < ra; d++)
                oa = oa * (size_t)a->dims[d] + (size_t)ia[d];
            for (uint32_t d = 0; d < rb; d++)
                ob = ob * (size_t)b->dims[d] + (size_t)ib[d];
            acc += (double)a->data[oa] * (double)b->data[ob];
        }
        out[e] = acc;
    }
}

static void check_matmul(int ta, int tb, uint32_t ra, const int64_t *da,
                         uint32_t rb, const int64_t *db, uint32_t ry,
                         const int64_t *dy)
{
    static float a_data[512], b_data[512];
    static double expect[512];
    size_t na = count_of(ra, da), nb = count_of(rb, db);
    ASSERT(na <= 512 && nb <= 512 && count_of(ry, dy) <= 512);
    float *pa = pattern(na, 2.0f, 1), *pb = pattern(nb, 1.5f, 2);
    memcpy(a_data, pa, na * sizeof *pa);
    memcpy(b_data, pb, nb * sizeof *pb);
    free(pa);
    free(pb);

    int64_t flags[2] = { ta, tb };
    rlx_attrs attrs = { 2, flags, 0, NULL };
    tensor ins[2] = { make(ra, da, a_data), make(rb, db, b_data) }, out;
    /* b is a param, as a weight would be */
    const float *y = run_op_kinds(RLX_OP_MATMUL, "ip", 2, ins,
                                  ta || tb ? &attrs : NULL, &out);
    ASSERT_EQ(out.rank, ry);
    for (uint32_t i = 0; i < ry; i++)
        ASSERT_EQ(out.dims[i], dy[i]);
    tensor want = make(ry, dy, NULL);
    ref_matmul(&ins[0], ta, &ins[1], tb, &want, expect);
    check_values("matmul", y, expect, count_of(ry, dy), REL_TOL, 1e-5);
}

TEST(matmul_2d)
{
    check_matmul(0, 0, 2, DIMS(2, 3), 2, DIMS(3, 4), 2, DIMS(2, 4));
    check_matmul(0, 0, 2, DIMS(1, 1), 2, DIMS(1, 1), 2, DIMS(1, 1));
    check_matmul(0, 0, 2, DIMS(7, 5), 2, DIMS(5, 3), 2, DIMS(7, 3));
}

TEST(matmul_transpose)
{
    /* a stored [3,2] used as [2,3] */
    check_matmul(1, 0, 2, DIMS(3, 2), 2, DIMS(3, 4), 2, DIMS(2, 4));
    /* b stored [4,3] used as [3,4] */
    check_matmul(0, 1, 2, DIMS(2, 3), 2, DIMS(4, 3), 2, DIMS(2, 4));
    check_matmul(1, 1, 2, DIMS(3, 2), 2, DIMS(4, 3), 2, DIMS(2, 4));
}

TEST(matmul_batched)
{
    check_matmul(0, 0, 3, DIMS(2, 3, 4), 2, DIMS(4, 5), 3, DIMS(2, 3, 5));
    check_matmul(0, 0, 2, DIMS(3, 4), 3, DIMS(2, 4, 5), 3, DIMS(2, 3, 5));
    check_matmul(0, 0, 4, DIMS(2, 1, 3, 4), 3, DIMS(3, 4, 2), 4,
                 DIMS(2, 3, 3, 2));
    check_matmul(1, 1, 4, DIMS(2, 1, 4, 3), 3, DIMS(3, 2, 4), 4,
                 DIMS(2, 3, 3, 2));
    check_matmul(1, 0, 3, DIMS(2, 4, 3), 3, DIMS(1, 4, 5), 3,
                 DIMS(2, 3, 5));
}

TEST(matmul_vectors)
{
    check_matmul(0, 0, 1, DIMS(3), 2, DIMS(3, 4), 1, DIMS(4));
    check_matmul(0, 0, 2, DIMS(2, 3), 1, DIMS(3), 1, DIMS(2));
    check_matmul(0, 0, 1, DIMS(3), 1, DIMS(3), 0, NULL);
    check_matmul(0, 0, 3, DIMS(2, 3, 4), 1, DIMS(4), 2, DIMS(2, 3));
    check_matmul(0, 0, 1, DIMS(4), 3, DIMS(2, 4, 3), 2, DIMS(2, 3));
    /* a transposed matrix times a vector */
    check_matmul(1, 0, 2, DIMS(3, 2), 1, DIMS(3), 1, DIMS(2));
}

TEST(matmul_empty)
{
    /* k = 0: a result of zeros */
    check_matmul(0, 0, 2, DIMS(2, 0), 2, DIMS(0, 3), 2, DIMS(2, 3));
    /* an empty batch and an empty m */
    check_matmul(0, 0, 3, DIMS(0, 2, 3), 2, DIMS(3, 4), 3, DIMS(0, 2, 4));
    check_matmul(0, 0, 2, DIMS(0, 3), 2, DIMS(3, 4), 2, DIMS(0, 4));
}

RLX_TEST_LIST(TEST_ENTRY(matmul_2d), TEST_ENTRY(matmul_transpose),
              TEST_ENTRY(matmul_batched), TEST_ENTRY(matmul_vectors),
              TEST_ENTRY(matmul_empty))
