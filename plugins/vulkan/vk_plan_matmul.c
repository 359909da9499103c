/*
 * vk_plan_matmul.c - numpy.matmul after optional transposes, with batch
 * broadcasting and vector sides. Large row-major products whose sizes
 * are multiples of the tile may take the register-blocked sgemm shader
 * (128x128 tiles, 8x8 per thread, vec4 loads, double-buffered shared
 * memory; see the measured choice below);
 * the rest take the general 16x16-tiled shader.
 *
 * matmul push words: m, n, k, a row/col strides, b row/col strides,
 * round, batch rank, batch dims[6], a batch strides[6], b batch
 * strides[6]. sgemm: m, n, k, a/b/c batch strides, round.
 */
#include "vk_plan.h"

#define MAX_BATCH 6

/* The sgemm variant used by default (BK 8 or 16); bench/vulkan measures
 * both. */
#define SGEMM_DEFAULT RLX_VK_PIPE_SGEMM
#define SGEMM_TILE 128u

typedef struct side {
    uint64_t rows, cols, row, col, size;
    uint32_t batch_rank;
    const int64_t *batch;
} side;

static void side_init(const rlx_node_view *s, int transpose, int is_b,
                      side *o)
{
    if (s->rank == 1) {
        uint64_t k = (uint64_t)s->shape[0];
        o->rows = is_b ? k : 1;
        o->cols = is_b ? 1 : k;
        o->row = is_b ? 1 : 0;
        o->col = is_b ? 0 : 1;
        o->size = k;
        o->batch_rank = 0;
        o->batch = s->shape;
        return;
    }
    uint64_t r = (uint64_t)s->shape[s->rank - 2],
             c = (uint64_t)s->shape[s->rank - 1];
    o->rows = transpose ? c : r;
    o->cols = transpose ? r : c;
    o->row = transpose ? 1 : c;
    o->col = transpose ? c : 1;
    o->size = r * c;
    o->batch_rank = s->rank - 2;
    o->batch = s->shape;
}

static void batch_strides(const side *x, uint32_t br, uint64_t *stride)
{
    uint64_t step = x->size;
    for (uint32_t d = br; d-- > 0;) {
        uint32_t from_right = br - 1 - d;
        if (from_right >= x->batch_rank) {
            stride[d] = 0;
            continue;
        }
        uint64_t di = (uint64_t)x->batch[x->batch_rank - 1 - from_right];
        stride[d] = di == 1 ? 0 : step;
        step *= di;
    }
}

rlx_status rlx__vk_plan_matmul(rlx__vk_plan_ctx *pc)
{
    const rlx_node_view *v = pc->v, *a = rlx__vk_input(pc, 0),
                        *b = rlx__vk_input(pc, 1);
    if (v->dtype != RLX_DTYPE_F32 && v->dtype != RLX_DTYPE_F16 &&
        v->dtype != RLX_DTYPE_BF16)
        return rlx__vk_unsupported(pc, "float ops take f32, f16 or bf16");
    if (a->dtype != v->dtype || b->dtype != v->dtype)
        return rlx__vk_unsupported(pc, "operands of mixed dtypes");
    int64_t ta = rlx__vk_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_A, 0);
    int64_t tb = rlx__vk_int_attr(v, RLX_ATTR_MATMUL_TRANSPOSE_B, 0);
    if ((ta != 0 && ta != 1) || (tb != 0 && tb != 1))
        return rlx__vk_fail(pc->host, RLX_ERR_INVALID_ARGUMENT,
                            "vulkan compile: matmul '%s' has transpose "
                            "flags %lld, %lld. Fix: use 0 or 1", pc->name,
                            (long long)ta, (long long)tb);
    if (a->rank == 0 || b->rank == 0)
        return rlx__vk_unsupported(pc, "a scalar operand");
    side sa, sb;
    side_init(a, ta != 0, 0, &sa);
    side_init(b, tb != 0, 1, &sb);
    if (sa.cols != sb.rows)
        return rlx__vk_fail(pc->host, RLX_ERR_SHAPE,
                            "vulkan compile: matmul '%s' inner dims differ."
                            RLX_VK_FIX_REPORT, pc->name);
    uint32_t br = sa.batch_rank > sb.batch_rank ? sa.batch_rank
                                                : sb.batch_rank;
    if (br > 14 || v->rank < br)
        return rlx__vk_unsupported(pc, "too many batch dims");
    uint64_t dims[16], as[16], bs[16], cs[16];
    uint64_t m = sa.rows, n = sb.cols, k = sa.cols, nbatch = 1;
    for (uint32_t d = 0; d < br; d++) {
        dims[d] = (uint64_t)v->shape[d];
        nbatch *= dims[d];
    }
    batch_strides(&sa, br, as);
    batch_strides(&sb, br, bs);
    uint64_t step = m * n;
    for (uint32_t d = br; d-- > 0;) {
        cs[d] = step;
        step *= dims[d];
    }
    uint32_t r = rlx__vk_collapse(br, dims, as, bs, cs);
    if (pc->exe->values[pc->i].count == 0)
        return RLX_OK;
    if (nbatch > 65535 || r > MAX_BATCH)
        return rlx__vk_unsupported(pc, "more than 65535 batches or 6 "
                                       "batch dims after merging");

    /* Measured (bench/vulkan/RESULTS.md): the sgemm shader is 17x faster
     * than the general one on llvmpipe but 3x slower on an H100 with
     * NVIDIA's driver, so for now it serves CPU implementations only. */
    int fast = pc->ctx->info->props.deviceType ==
                   VK_PHYSICAL_DEVICE_TYPE_CPU &&
               a->rank >= 2 && b->rank >= 2 && sa.col == 1 && sb.col == 1 &&
               m % SGEMM_TILE == 0 && n % SGEMM_TILE == 0 && k % 16 == 0 &&
               r <= 1;
    rlx__vk_dispatch *d = rlx__vk_dispatch_add(
        pc->host, pc->exe, fast ? SGEMM_DEFAULT : RLX_VK_PIPE_MATMUL);
    if (!d)
        return RLX_ERR_OUT_OF_MEMORY;
    d->bind[0] = pc->i;
    d->bind[1] = v->inputs[0];
    d->bind[2] = v->inputs[1];
    if (fast) {
        d->push[0] = (uint32_t)m;
        d->push[1] = (uint32_t)n;
        d->push[2] = (uint32_t)k;
        d->push[3] = r ? (uint32_t)as[0] : 0;
        d->push[4] = r ? (uint32_t)bs[0] : 0;
        d->push[5] = r ? (uint32_t)cs[0] : 0;
        d->push[6] = pc->round;
        d->groups[0] = (uint32_t)(n / SGEMM_TILE);
        d->groups[1] = (uint32_t)(m / SGEMM_TILE);
        d->groups[2] = (uint32_t)nbatch;
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
    d->groups[0] = (uint32_t)((n + 15) / 16);
    d->groups[1] = (uint32_t)((m + 15) / 16);
    d->groups[2] = (uint32_t)nbatch;
    if (d->groups[0] > 65535 || d->groups[1] > 65535)
        return rlx__vk_unsupported(pc, "a matrix side above 1048560");
    return RLX_OK;
}
