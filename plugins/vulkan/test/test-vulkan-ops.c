/*
 * test-vulkan-ops.c - checks the Vulkan backend through the public API
 * where `rlx conformance` does not reach: the tiled sgemm path (sizes of
 * multiples of 128, and every sgemm variant forced through
 * RLX_VULKAN_SGEMM, ragged sizes too) and a batched matmul against
 * cpu-ref, a gather index
 * out of range failing the run, params re-bound between runs (the
 * command buffer is recorded again), u8 and f64 data movement, and
 * RLX_VULKAN_DEVICE. Each test is skipped when no Vulkan device exists.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"

/* COND, or the test fails naming WHAT and the last error. */
static void ok(int cond, const char *what)
{
    if (!cond)
        FAIL("%s (last error: %s)", what, rlx_last_error());
}

static float frand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (float)((*s >> 8) & 0xffff) / 32768.0f - 1.0f;
}

/* y = a @ b on DEVICE; returns 0 on success. */
static int run_matmul(rlx_runtime *rt, const char *device, uint32_t rank,
                      uint32_t rank_b, const int64_t *da, const int64_t *db,
                      const float *a, const float *b, float *y, size_t ny)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value va, vb, vy;
    int rc = -1;
    if (rlx_graph_create(&g) || rlx_graph_input(g, "a", RLX_DTYPE_F32, rank,
                                                da, &va) ||
        rlx_graph_param(g, "b", RLX_DTYPE_F32, rank_b, db, &vb) ||
        rlx_graph_add_node(g, "y", RLX_OP_MATMUL, 2,
                           (rlx_value[]){ va, vb }, NULL, &vy) ||
        rlx_graph_output(g, "y", vy) ||
        rlx_session_create(rt, device, &s) || rlx_session_compile(s, g, &p))
        goto done;
    size_t na = 1, nb = 1;
    for (uint32_t d = 0; d < rank; d++)
        na *= (size_t)da[d];
    for (uint32_t d = 0; d < rank_b; d++)
        nb *= (size_t)db[d];
    if (rlx_program_set_param(p, "b", b, nb * 4) ||
        rlx_program_set_input(p, "a", a, na * 4) || rlx_program_run(p))
        goto done;
    memcpy(y, rlx_program_output_data(p, 0, NULL), ny * 4);
    rc = 0;
done:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
    return rc;
}

static void check_matmul2(rlx_runtime *rt, uint32_t rank, uint32_t rank_b,
                         const int64_t *da, const int64_t *db, size_t na,
                         size_t nb, size_t ny, const char *what)
{
    unsigned seed = 7;
    float *a = malloc(na * 4), *b = malloc(nb * 4), *y0 = malloc(ny * 4),
          *y1 = malloc(ny * 4);
    for (size_t i = 0; i < na; i++)
        a[i] = frand(&seed);
    for (size_t i = 0; i < nb; i++)
        b[i] = frand(&seed);
    for (size_t i = 0; i < ny; i++)
        y1[i] = NAN;
    int r0 = run_matmul(rt, "cpu-ref", rank, rank_b, da, db, a, b, y0, ny);
    int r1 = run_matmul(rt, "vulkan", rank, rank_b, da, db, a, b, y1, ny);
    double worst = 0, mag = 0;
    for (size_t i = 0; !r0 && !r1 && i < ny; i++) {
        double e = fabs((double)y0[i] - y1[i]);
        if (!(e <= worst))
            worst = e;
        if (fabs(y0[i]) > mag)
            mag = fabs(y0[i]);
    }
    worst = isnan(worst) ? 1 : worst / (mag > 0 ? mag : 1);
    printf("# %s: max error / max |ref| = %.3g\n", what, worst);
    ok(!r0 && !r1 && worst < 1e-5, what);
    free(a);
    free(b);
    free(y0);
    free(y1);
}

static void check_matmul(rlx_runtime *rt, uint32_t rank, const int64_t *da,
                        const int64_t *db, size_t na, size_t nb, size_t ny,
                        const char *what)
{
    check_matmul2(rt, rank, rank, da, db, na, nb, ny, what);
}

/* Every sgemm variant, forced through RLX_VULKAN_SGEMM: a product of
 * sizes every unchecked variant fits, batched with B broadcast, and
 * ragged sizes (n, k multiples of 4) for the checked ones. A variant
 * whose shared memory exceeds the device's limit (the 128x128x16 ones
 * on lavapipe's 32 KiB) falls back to the general shader. */
static void check_sgemm_variants(rlx_runtime *rt)
{
    static const char *const names[] = {
        "sgemm_128x128x8", "sgemm_128x128x16", "sgemm_128x128x8_w2d",
        "sgemm_128x128x16_w2d", "sgemm_128x256x8", "sgemm_128x64x16",
        "sgemm_64x64x16", "sgemm_128x128x8_check", "sgemm_64x64x16_check",
    };
    char what[160];
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        setenv("RLX_VULKAN_SGEMM", names[i], 1);
        snprintf(what, sizeof what,
                 "%s: 2x128x48 @ 48x256 (B broadcast) matches cpu-ref",
                 names[i]);
        check_matmul2(rt, 3, 2, (int64_t[]){ 2, 128, 48 },
                     (int64_t[]){ 48, 256 }, 2 * 128 * 48, 48 * 256,
                     2 * 128 * 256, what);
        if (strstr(names[i], "_check")) {
            snprintf(what, sizeof what,
                     "%s: ragged 3x67x132 @ 3x132x260 matches cpu-ref",
                     names[i]);
            check_matmul(rt, 3, (int64_t[]){ 3, 67, 132 },
                        (int64_t[]){ 3, 132, 260 }, 3 * 67 * 132,
                        3 * 132 * 260, 3 * 67 * 260, what);
        }
    }
    unsetenv("RLX_VULKAN_SGEMM");
}

static void check_gather_range(rlx_runtime *rt)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value vd, vi, vy;
    const float data[6] = { 1, 2, 3, 4, 5, 6 };
    int32_t idx[2] = { 1, 0 };
    int good = !rlx_graph_create(&g) &&
               !rlx_graph_input(g, "d", RLX_DTYPE_F32, 2,
                                (int64_t[]){ 3, 2 }, &vd) &&
               !rlx_graph_input(g, "i", RLX_DTYPE_I32, 1, (int64_t[]){ 2 },
                                &vi) &&
               !rlx_graph_add_node(g, "y", RLX_OP_GATHER, 2,
                                   (rlx_value[]){ vd, vi }, NULL, &vy) &&
               !rlx_graph_output(g, "y", vy) &&
               !rlx_session_create(rt, "vulkan", &s) &&
               !rlx_session_compile(s, g, &p) &&
               !rlx_program_set_input(p, "d", data, sizeof data) &&
               !rlx_program_set_input(p, "i", idx, sizeof idx) &&
               !rlx_program_run(p);
    const float *y = good ? rlx_program_output_data(p, 0, NULL) : NULL;
    ok(y && y[0] == 3 && y[1] == 4 && y[2] == 1 && y[3] == 2,
       "gather of in-range indices");
    idx[1] = 3;
    rlx_status st = p ? rlx_program_set_input(p, "i", idx, sizeof idx) : 1;
    st = st ? st : rlx_program_run(p);
    ok(st == RLX_ERR_INVALID_ARGUMENT &&
           strstr(rlx_last_error(), "Fix:") != NULL,
       "gather index out of range fails the run with a Fix");
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
}

/* x (u8/bool/f64) -> transpose -> y; and a param set twice. */
static void check_movement(rlx_runtime *rt, rlx_dtype t, size_t esz,
                          const char *what)
{
    rlx_graph *g = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    rlx_value vx, vw, vt, vc;
    unsigned char x[6 * 8], w[6 * 8], y[12 * 8];
    for (size_t i = 0; i < sizeof x; i++) {
        x[i] = (unsigned char)(i * 7 + 1);
        w[i] = (unsigned char)(i * 3 + 2);
    }
    if (t == RLX_DTYPE_BOOL)
        for (size_t i = 0; i < sizeof x; i++) {
            x[i] &= 1;
            w[i] &= 1;
        }
    int good = !rlx_graph_create(&g) &&
               !rlx_graph_input(g, "x", t, 2, (int64_t[]){ 2, 3 }, &vx) &&
               !rlx_graph_param(g, "w", t, 2, (int64_t[]){ 3, 2 }, &vw) &&
               !rlx_graph_add_node(g, "t", RLX_OP_TRANSPOSE, 1, &vx, NULL,
                                   &vt) &&
               !rlx_graph_add_node(g, "c", RLX_OP_CONCAT, 2,
                                   (rlx_value[]){ vt, vw }, NULL, &vc) &&
               !rlx_graph_output(g, "c", vc) &&
               !rlx_session_create(rt, "vulkan", &s) &&
               !rlx_session_compile(s, g, &p);
    int right = good;
    for (int round = 0; round < 2 && right; round++) {
        if (round == 1)
            for (size_t i = 0; i < sizeof w; i++)
                w[i] = x[i];
        right = !rlx_program_set_param(p, "w", w, 6 * esz) &&
                !rlx_program_set_input(p, "x", x, 6 * esz) &&
                !rlx_program_run(p);
        if (!right)
            break;
        memcpy(y, rlx_program_output_data(p, 0, NULL), 12 * esz);
        for (size_t r = 0; r < 3 && right; r++)
            for (size_t c = 0; c < 2; c++) /* t[r][c] = x[c][r] */
                right = right &&
                        !memcmp(y + (r * 2 + c) * esz,
                                x + (c * 3 + r) * esz, esz);
        right = right && !memcmp(y + 6 * esz, w, 6 * esz);
    }
    ok(right, what);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_graph_destroy(g);
}

static int vulkan_available(rlx_runtime *rt, uint32_t *count)
{
    const rlx_backend *b = rlx_runtime_find_backend(rt, "vulkan");
    return b && rlx_backend_probe(b, count) == RLX_OK;
}

static void check_device_env(void)
{
    rlx_runtime *rt = NULL;
    uint32_t n = 0;
    setenv("RLX_VULKAN_DEVICE", "0", 1);
    ok(!rlx_runtime_create(&rt, 0) && vulkan_available(rt, &n),
       "RLX_VULKAN_DEVICE=0 keeps the backend available");
    rlx_runtime_destroy(rt);
    setenv("RLX_VULKAN_DEVICE", "no-such-device-name", 1);
    rt = NULL;
    int avail = !rlx_runtime_create(&rt, 0) && vulkan_available(rt, &n);
    ok(!avail && strstr(rlx_last_error(), "RLX_VULKAN_DEVICE") &&
           strstr(rlx_last_error(), "Fix:"),
       "RLX_VULKAN_DEVICE matching nothing: unavailable, with a Fix");
    rlx_runtime_destroy(rt);
    unsetenv("RLX_VULKAN_DEVICE");
}

/* A runtime with a usable Vulkan device; the test is skipped without. */
static rlx_runtime *vulkan_runtime(void)
{
    rlx_runtime *rt = NULL;
    uint32_t n = 0;
    unsetenv("RLX_VULKAN_DEVICE");
    unsetenv("RLX_VULKAN_SGEMM");
    if (rlx_runtime_create(&rt, 0) != RLX_OK || !vulkan_available(rt, &n)) {
        rlx_runtime_destroy(rt);
        SKIP("no usable Vulkan device: %s", rlx_last_error());
    }
    return rt;
}

TEST(matmul_tiled_sizes)
{
    rlx_runtime *rt = vulkan_runtime();
    check_matmul(rt, 2, (int64_t[]){ 128, 64 }, (int64_t[]){ 64, 256 },
                128 * 64, 64 * 256, 128 * 256,
                "matmul 128x64 @ 64x256 (tiled sgemm sizes) matches cpu-ref");
    rlx_runtime_destroy(rt);
}

TEST(matmul_batched)
{
    rlx_runtime *rt = vulkan_runtime();
    check_matmul(rt, 3, (int64_t[]){ 2, 128, 32 }, (int64_t[]){ 2, 32, 128 },
                2 * 128 * 32, 2 * 32 * 128, 2 * 128 * 128,
                "batched matmul 2x128x32 @ 2x32x128 matches cpu-ref");
    rlx_runtime_destroy(rt);
}

TEST(matmul_ragged)
{
    rlx_runtime *rt = vulkan_runtime();
    check_matmul(rt, 2, (int64_t[]){ 33, 70 }, (int64_t[]){ 70, 19 },
                33 * 70, 70 * 19, 33 * 19,
                "ragged matmul 33x70 @ 70x19 matches cpu-ref");
    rlx_runtime_destroy(rt);
}

TEST(sgemm_variants)
{
    rlx_runtime *rt = vulkan_runtime();
    check_sgemm_variants(rt);
    rlx_runtime_destroy(rt);
}

TEST(gather_range)
{
    rlx_runtime *rt = vulkan_runtime();
    check_gather_range(rt);
    rlx_runtime_destroy(rt);
}

TEST(movement_u8)
{
    rlx_runtime *rt = vulkan_runtime();
    check_movement(rt, RLX_DTYPE_U8, 1, "u8 transpose + concat, param reset");
    rlx_runtime_destroy(rt);
}

TEST(movement_f64)
{
    rlx_runtime *rt = vulkan_runtime();
    check_movement(rt, RLX_DTYPE_F64, 8,
                   "f64 transpose + concat, param reset");
    rlx_runtime_destroy(rt);
}

TEST(device_setting)
{
    rlx_runtime_destroy(vulkan_runtime());
    check_device_env();
}

RLX_TEST_LIST(TEST_ENTRY(matmul_tiled_sizes), TEST_ENTRY(matmul_batched),
              TEST_ENTRY(matmul_ragged), TEST_ENTRY(sgemm_variants),
              TEST_ENTRY(gather_range), TEST_ENTRY(movement_u8),
              TEST_ENTRY(movement_f64), TEST_ENTRY(device_setting));
