/*
 * vk_plan_matmul.c - numpy.matmul after optional transposes, with batch
 * broadcasting and vector sides. Row-major products whose n and k are
 * multiples of 4 may take the register-blocked sgemm shader
 * (shaders/sgemm.comp: 8x8 or 4x4 per thread, vec4 loads, k-major A
 * tile, double-buffered shared memory), in the variant measured best for
 * the shape (docs/performance-notes.md); the rest take the general
 * 16x16-tiled shader.
 *
 * matmul push words: m, n, k, a row/col strides, b row/col strides,
 * round, batch rank, batch dims[6], a batch strides[6], b batch
 * strides[6], then for matmul_integer (the general shader built with
 * INTEGER, and DOT where the device has integer dot products; zero
 * points at bindings 3 and 4) whether a's zero point is per row and b's
 * per column, and whether a and b are signed. sgemm: m, n, k, a/b/c batch strides,
 * round.
 */
#include <stdlib.h>
#include <string.h>

#include "vk_plan.h"

#define MAX_BATCH 6

/* Indexed like the pipes from RLXV_PIPE_SGEMM0; names and shapes must
 * match meson.build. */
const rlxv_sgemm_variant rlxv_sgemm_variants[RLXV_SGEMM_VARIANTS] = {
    { "sgemm_128x128x8", 128, 128, 8, 0 },
    { "sgemm_128x128x16", 128, 128, 16, 0 },
    { "sgemm_128x128x8_w2d", 128, 128, 8, 0 },
    { "sgemm_128x128x16_w2d", 128, 128, 16, 0 },
    { "sgemm_128x256x8", 128, 256, 8, 0 },
    { "sgemm_128x64x16", 128, 64, 16, 0 },
    { "sgemm_64x64x16", 64, 64, 16, 0 },
    { "sgemm_128x128x8_check", 128, 128, 8, 1 },
    { "sgemm_64x64x16_check", 64, 64, 16, 1 },
};

/* The measured choice (docs/performance-notes.md, NVIDIA H200): the
 * 128x128 tile (BK 8, warps of 4x8 threads) wherever there are enough of
 * its tiles to fill the GPU (45 TFLOP/s at 4096, 89 % of cuBLAS f32; at
 * 2048 45 against 31 for 64x64), else the 64x64 tile (BK 16: 30 TFLOP/s
 * at 1024, where 128x128 gives 20 with its 64 tiles); the checked forms
 * of the two for sizes that are not multiples of the tile (10 % slower
 * at 4096), and the general shader for products too small to fill even
 * the 64x64 tiles. The crossover of SGEMM_MIN_TILES lies between the 64
 * and 256 tiles measured. */
#define SGEMM_BIG 2         /* sgemm_128x128x8_w2d */
#define SGEMM_BIG_CHECK 7   /* sgemm_128x128x8_check */
#define SGEMM_SMALL 6       /* sgemm_64x64x16 */
#define SGEMM_SMALL_CHECK 8 /* sgemm_64x64x16_check */
#define SGEMM_MIN_TILES 96  /* of a GPU; any count on CPU devices */

int rlxv_sgemm_fits(const rlxv_sgemm_variant *v, uint64_t m,
                       uint64_t n, uint64_t k)
{
    if (n % 4 || k % 4 || m == 0 || n == 0 || k == 0)
        return 0;
    if (v->check)
        return 1;
    return m % v->bm == 0 && n % v->bn == 0 && k % v->bk == 0;
}

static uint64_t tiles(const rlxv_sgemm_variant *v, uint64_t m, uint64_t n,
                      uint64_t nbatch)
{
    return (m + v->bm - 1) / v->bm * ((n + v->bn - 1) / v->bn) * nbatch;
}

/* Shared memory of a variant: two stages of the A tile (k-major, one
 * vec4 of padding per k row) and of the B tile. */
static uint64_t shared_bytes(const rlxv_sgemm_variant *v)
{
    return 2ull * v->bk * (v->bm / 4 + 1) * 16 + 2ull * v->bk * v->bn * 4;
}

int rlxv_sgemm_pick(const rlxv_ctx *ctx,
                       const rlx_compile_options *options, uint64_t m,
                       uint64_t n, uint64_t k, uint64_t nbatch)
{
    const rlxv_sgemm_variant *v = rlxv_sgemm_variants;
    uint64_t shmem = ctx->info->props.limits.maxComputeSharedMemorySize;
    /* setting vulkan.sgemm (RLX_VULKAN_SGEMM), read from the compile */
    char env[32];
    if (rlx_compile_get_option(options, ctx->vk->host, "vulkan.sgemm", env,
                               sizeof env) == RLX_OK &&
        *env && strcmp(env, "auto") != 0) {
        for (int i = 0; i < RLXV_SGEMM_VARIANTS; i++)
            if (strcmp(env, v[i].name) == 0)
                return rlxv_sgemm_fits(&v[i], m, n, k) &&
                               shared_bytes(&v[i]) <= shmem
                           ? i
                           : -1;
        return -1; /* "general" (or an unknown name) */
    }
    uint64_t need = ctx->info->props.deviceType ==
                            VK_PHYSICAL_DEVICE_TYPE_CPU
                        ? 1
                        : SGEMM_MIN_TILES;
    static const int order[] = { SGEMM_BIG, SGEMM_BIG_CHECK, SGEMM_SMALL,
                                 SGEMM_SMALL_CHECK };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (rlxv_sgemm_fits(&v[order[i]], m, n, k) &&
            shared_bytes(&v[order[i]]) <= shmem &&
            tiles(&v[order[i]], m, n, nbatch) >= need)
            return order[i];
    return -1;
}

rlx_status rlxv_plan_matmul(rlxv_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *a = rlxv_input(pc, 0),
                        *b = rlxv_input(pc, 1);
    int integer = v->op == RLX_OP_MATMUL_INTEGER;
    if (integer) {
        /* i8/u8 operands, each zero point of its operand's dtype:
         * scalar, or per row of a and per column of b */
        const rlx_node_view *za = rlxv_input(pc, 2), *zb = rlxv_input(pc, 3);
        if (v->dtype != RLX_DTYPE_I32 ||
            (a->dtype != RLX_DTYPE_I8 && a->dtype != RLX_DTYPE_U8) ||
            (b->dtype != RLX_DTYPE_I8 && b->dtype != RLX_DTYPE_U8) ||
            za->dtype != a->dtype || zb->dtype != b->dtype)
            return rlxv_unsupported(pc, "matmul_integer takes i8 or u8 "
                                           "operands and gives i32");
    } else {
        if (v->dtype != RLX_DTYPE_F32 && v->dtype != RLX_DTYPE_F16 &&
            v->dtype != RLX_DTYPE_BF16)
            return rlxv_unsupported(pc, "float ops take f32, f16 or bf16");
        if (a->dtype != v->dtype || b->dtype != v->dtype)
            return rlxv_unsupported(pc, "operands of mixed dtypes");
    }
    int64_t ta = rlx_kit_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    int64_t tb = rlx_kit_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
        return rlx_kit_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: matmul '%s' has transpose "
                            "flags %lld, %lld. Fix: use 0 or 1", pc->name,
                            (long long)ta, (long long)tb);
    if (a->rank == 0 || b->rank == 0)
        return rlxv_unsupported(pc, "a scalar operand");
    rlx_kit_matmul_operand sa, sb;
    rlx_kit_matmul_operand_init(a->rank, a->shape, ta != 0, 0, &sa);
    rlx_kit_matmul_operand_init(b->rank, b->shape, tb != 0, 1, &sb);
    if (sa.cols != sb.rows)
        return rlx_kit_fail(pc->host, RLX_ERR_SHAPE,
                            "vulkan compile: matmul '%s' inner dims differ."
                            RLXV_FIX_REPORT, pc->name);
    uint32_t br = sa.batch_rank > sb.batch_rank ? sa.batch_rank
                                                : sb.batch_rank;
    if (br > 14 || v->rank < br)
        return rlxv_unsupported(pc, "too many batch dims");
    int64_t dims[16], as[16], bs[16], cs[16];
    uint64_t m = (uint64_t)sa.rows, n = (uint64_t)sb.cols,
             k = (uint64_t)sa.cols, nbatch = 1;
    for (uint32_t d = 0; d < br; d++) {
        dims[d] = v->shape[d];
        nbatch *= (uint64_t)dims[d];
    }
    rlx_kit_matmul_batch_strides(&sa, br, as);
    rlx_kit_matmul_batch_strides(&sb, br, bs);
    uint64_t step = m * n;
    for (uint32_t d = br; d-- > 0;) {
        cs[d] = (int64_t)step;
        step *= (uint64_t)dims[d];
    }
    int64_t *const strides[] = { as, bs, cs };
    uint32_t r = rlx_kit_collapse(br, dims, strides, 3);
    if (pc->exe->values[pc->i].count == 0)
        return RLX_OK;
    if (nbatch > 65535 || r > MAX_BATCH)
        return rlxv_unsupported(pc, "more than 65535 batches or 6 "
                                       "batch dims after merging");

    int sv = -1;
    if (!integer && a->rank >= 2 && b->rank >= 2 && sa.col == 1 && sb.col == 1 &&
        r <= 1 && (!r || (as[0] % 4 == 0 && bs[0] % 4 == 0 &&
                          cs[0] % 4 == 0)))
        sv = rlxv_sgemm_pick(pc->ctx, pc->exe->options, m, n, k, nbatch);
    rlxv_dispatch *d = rlxv_dispatch_add(
        pc->host, pc->exe,
        sv >= 0 ? (rlxv_pipe)(RLXV_PIPE_SGEMM0 + sv)
        : integer ? (rlxv_int_dot(pc) ? RLXV_PIPE_MATMUL_DOT
                                 : RLXV_PIPE_MATMUL_INT)
                  : RLXV_PIPE_MATMUL);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    if (sv >= 0) {
        const rlxv_sgemm_variant *sg = &rlxv_sgemm_variants[sv];
        d->push[0] = (uint32_t)m;
        d->push[1] = (uint32_t)n;
        d->push[2] = (uint32_t)k;
        d->push[3] = r ? (uint32_t)as[0] : 0;
        d->push[4] = r ? (uint32_t)bs[0] : 0;
        d->push[5] = r ? (uint32_t)cs[0] : 0;
        d->push[6] = pc->round;
        d->groups[0] = (uint32_t)((n + sg->bn - 1) / sg->bn);
        d->groups[1] = (uint32_t)((m + sg->bm - 1) / sg->bm);
        d->groups[2] = (uint32_t)nbatch;
        if (d->groups[0] > 65535 || d->groups[1] > 65535)
            return rlxv_unsupported(pc, "a matrix side above 4194240");
        return RLX_OK;
    }
    d->push[0] = (uint32_t)m;
    d->push[1] = (uint32_t)n;
    d->push[2] = (uint32_t)k;
    d->push[3] = (uint32_t)sa.row;
    d->push[4] = (uint32_t)sa.col;
    d->push[5] = (uint32_t)sb.row;
    d->push[6] = (uint32_t)sb.col;
    d->push[7] = pc->round;
    d->push[8] = r;
    for (uint32_t q = 0; q < r; q++) {
        d->push[9 + q] = (uint32_t)dims[q];
        d->push[15 + q] = (uint32_t)as[q];
        d->push[21 + q] = (uint32_t)bs[q];
    }
    if (integer) {
        d->push[29] = a->dtype == RLX_DTYPE_I8;
        d->push[30] = b->dtype == RLX_DTYPE_I8;
        d->bind[3] = v->inputs[2];
        d->bind[4] = v->inputs[3];
        d->push[27] = pc->exe->values[v->inputs[2]].count > 1;
        d->push[28] = pc->exe->values[v->inputs[3]].count > 1;
        if ((d->push[27] && pc->exe->values[v->inputs[2]].count != m) ||
            (d->push[28] && pc->exe->values[v->inputs[3]].count != n))
            return rlxv_unsupported(pc, "a zero point is neither a scalar "
                                           "nor one per row (a) or column "
                                           "(b)");
    }
    d->groups[0] = (uint32_t)((n + 15) / 16);
    d->groups[1] = (uint32_t)((m + 15) / 16);
    d->groups[2] = (uint32_t)nbatch;
    if (d->groups[0] > 65535 || d->groups[1] > 65535)
        return rlxv_unsupported(pc, "a matrix side above 1048560");
    return RLX_OK;
}
