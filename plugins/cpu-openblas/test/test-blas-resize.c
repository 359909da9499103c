/* test-blas-resize.c - cpu-openblas's nearest resize (kernels_resize.c)
 * against cpu-ref, exactly: 2x upsampling (the detector's feature
 * pyramid), odd factors up and down under each coordinate transform and
 * rounding mode, rank 3 and 5, batch and channel axes resized too; each
 * on the plugin's kernel (0 steps through cpu-ref), while linear and
 * tf_crop_and_resize's extrapolation stay with cpu-ref. */
#include <fcntl.h>
#include <math.h>
#include <unistd.h>

#include "blas-test-util.h"

typedef struct graph {
    rlx_graph *g;
    size_t nx, ny;
} graph;

/* resize x [IN] -> [OUT] with MODE, COORD, NEAREST (rounding); CROP: a
 * roi that reaches outside the input (extrapolated outputs) */
static graph build(uint32_t r, const int64_t *in, const int64_t *out,
                   int64_t mode, int64_t coord, int64_t nearest, int crop)
{
    graph b = { 0 };
    ASSERT_OK(rlx_graph_create(&b.g));
    rlx_value x, y;
    ASSERT_OK(rlx_graph_input(b.g, "x", RLX_DTYPE_F32, r, in, &x));
    int64_t ints[4 + 8] = { mode, coord, nearest, 0 };
    double fl[2 + 3 * 8] = { -0.75, -7.0 };
    b.nx = b.ny = 1;
    for (uint32_t d = 0; d < r; d++) {
        ints[4 + d] = out[d];
        fl[2 + d] = (double)out[d] / (double)in[d];
        fl[2 + r + d] = crop ? -0.2 : 0.0;
        fl[2 + 2 * r + d] = crop ? 1.3 : 1.0;
        b.nx *= (size_t)in[d];
        b.ny *= (size_t)out[d];
    }
    rlx_attrs a = { .n_ints = 4 + r, .ints = ints, .n_floats = 2 + 3 * r,
                    .floats = fl };
    if (rlx_graph_add_node(b.g, "up", RLX_OP_RESIZE, 1, &x, &a, &y) !=
        RLX_OK)
        FAIL("resize: %s", rlx_last_error());
    ASSERT_OK(rlx_graph_output(b.g, "y", y));
    return b;
}

/* The case on the best variant and on cpu-ref; the plugin's own kernel
 * when OWN. Nearest copies, so the outputs must be identical. */
static void check(uint32_t r, const int64_t *in, const int64_t *out,
                  int64_t mode, int64_t coord, int64_t nearest, int crop,
                  int own)
{
    graph b = build(r, in, out, mode, coord, nearest, crop);
    rlx_runtime *rt = blas_runtime();
    const char *best = blas_expected_suffix(&(int){ 0 });
    ASSERT_OK(rlx_runtime_load_plugin(rt, blas_variant_path(best)));
    rlx_session *sb = NULL, *sr = NULL;
    static char log[1 << 16];
    rlx_program *pb = blas_compile(rt, "cpu-openblas", &sb, b.g,
                                   log, sizeof log);
    rlx_program *pr = blas_compile(rt, "cpu-ref", &sr, b.g, NULL, 0);
    ASSERT_CONTAINS(log, own ? " 0 through cpu-ref" : " 1 through cpu-ref");
    float *x = malloc(b.nx * sizeof *x);
    ASSERT(x);
    for (size_t i = 0; i < b.nx; i++)
        x[i] = (float)sin(0.7311 * (double)i + 0.3);
    ASSERT_OK(rlx_program_set_input(pb, "x", x, b.nx * sizeof *x));
    ASSERT_OK(rlx_program_set_input(pr, "x", x, b.nx * sizeof *x));
    ASSERT_OK(rlx_program_run(pb));
    ASSERT_OK(rlx_program_run(pr));
    float *got = blas_output(pb, b.ny), *want = blas_output(pr, b.ny);
    for (size_t i = 0; i < b.ny; i++)
        if (memcmp(&got[i], &want[i], sizeof *got))
            FAIL("element %zu is %.8g, cpu-ref has %.8g", i,
                 (double)got[i], (double)want[i]);
    free(x);
    free(got);
    free(want);
    rlx_program_destroy(pb);
    rlx_program_destroy(pr);
    rlx_session_destroy(sb);
    rlx_session_destroy(sr);
    rlx_runtime_destroy(rt);
    rlx_graph_destroy(b.g);
}

#define DIMS(...) (int64_t[]){ __VA_ARGS__ }

TEST(nearest_2x_asymmetric_floor)
{
    check(4, DIMS(1, 16, 20, 24), DIMS(1, 16, 40, 48), RLX_RESIZE_NEAREST,
          RLX_RESIZE_ASYMMETRIC, RLX_RESIZE_FLOOR, 0, 1);
}

TEST(nearest_4x_and_8x_half_pixel_large)
{
    check(4, DIMS(2, 3, 40, 40), DIMS(2, 3, 160, 320), RLX_RESIZE_NEAREST,
          RLX_RESIZE_HALF_PIXEL, RLX_RESIZE_ROUND_PREFER_FLOOR, 0, 1);
}

TEST(nearest_odd_factors_every_mode)
{
    for (int64_t c = RLX_RESIZE_HALF_PIXEL; c <= RLX_RESIZE_ASYMMETRIC; c++)
        for (int64_t m = RLX_RESIZE_ROUND_PREFER_FLOOR;
             m <= RLX_RESIZE_CEIL; m++) {
            check(4, DIMS(1, 2, 7, 9), DIMS(1, 2, 17, 4),
                  RLX_RESIZE_NEAREST, c, m, 0, 1);
            check(4, DIMS(1, 2, 11, 5), DIMS(1, 2, 3, 13),
                  RLX_RESIZE_NEAREST, c, m, 0, 1);
        }
}

TEST(nearest_rank_3_and_5_all_axes)
{
    check(3, DIMS(3, 5, 7), DIMS(6, 2, 15), RLX_RESIZE_NEAREST,
          RLX_RESIZE_HALF_PIXEL, RLX_RESIZE_ROUND_PREFER_CEIL, 0, 1);
    check(5, DIMS(2, 2, 3, 4, 5), DIMS(3, 2, 6, 2, 10), RLX_RESIZE_NEAREST,
          RLX_RESIZE_ALIGN_CORNERS, RLX_RESIZE_ROUND_PREFER_FLOOR, 0, 1);
}

TEST(linear_and_crop_extrapolation_go_to_cpu_ref)
{
    check(4, DIMS(1, 2, 5, 6), DIMS(1, 2, 10, 12), RLX_RESIZE_LINEAR,
          RLX_RESIZE_HALF_PIXEL, 0, 0, 0);
    check(4, DIMS(1, 2, 5, 6), DIMS(1, 2, 10, 12), RLX_RESIZE_NEAREST,
          RLX_RESIZE_TF_CROP_AND_RESIZE, 0, 1, 0);
}

RLX_TEST_LIST(
    TEST_ENTRY(nearest_2x_asymmetric_floor),
    TEST_ENTRY(nearest_4x_and_8x_half_pixel_large),
    TEST_ENTRY(nearest_odd_factors_every_mode),
    TEST_ENTRY(nearest_rank_3_and_5_all_axes),
    TEST_ENTRY(linear_and_crop_extrapolation_go_to_cpu_ref),
)
