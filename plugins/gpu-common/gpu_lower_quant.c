/*
 * gpu_lower_quant.c - lowering of the quantization ops: quantize_linear
 * and dequantize_linear (per tensor, per axis, blocked), matmul_integer
 * and conv_integer, one step each (gk_quant.cu runs them); a
 * conv_integer with its requantization chain fused (gpu_fuse.c matches
 * it) one step at the chain's end (gk_qconv.cu). Plans follow
 * cpu-ref's (kernels_quant.c) so which scale and zero point each element
 * takes agrees with it; shapes come from the kit's matmul operand and
 * the conv window the vision lowering plans.
 */
#include <rlx/kit_names.h>
#include <rlx/kit_shape.h>

#include "gpu_compile.h"

static rlx_status bad(ctx *c, const rlx_node_view *v, const char *what)
{
    return rlx_kit_fail(c->host, RLX_ERR_INVALID_ARGUMENT,
                        RLXG_NAME " compile: %s '%s' has %s." FIX_BUG,
                        rlx_kit_op_name(v->op), v->name, what);
}

static int is_byte(rlx_dtype t)
{
    return t == RLX_DTYPE_I8 || t == RLX_DTYPE_U8;
}

static int is_half_or_f32(rlx_dtype t)
{
    return t == RLX_DTYPE_F32 || t == RLX_DTYPE_F16 || t == RLX_DTYPE_BF16;
}

int rlxg_quant_dtypes_ok(const rlx_graph_view *g, const rlx_node_view *v)
{
    rlx_dtype t[4];
    if (v->n_inputs != (v->op < RLX_OP_MATMUL_INTEGER ? 3u : 4u))
        return 0;
    for (uint32_t i = 0; i < v->n_inputs; i++)
        t[i] = g->nodes[v->inputs[i]]->dtype;
    switch (v->op) {
    case RLX_OP_QUANTIZE_LINEAR:
        return is_half_or_f32(t[0]) && t[1] == t[0] && t[2] == v->dtype &&
               is_byte(v->dtype);
    case RLX_OP_DEQUANTIZE_LINEAR:
        return (is_byte(t[0]) || t[0] == RLX_DTYPE_I32) && t[2] == t[0] &&
               t[1] == v->dtype && is_half_or_f32(v->dtype);
    case RLX_OP_MATMUL_INTEGER: case RLX_OP_CONV_INTEGER:
        return is_byte(t[0]) && is_byte(t[1]) && t[2] == t[0] &&
               t[3] == t[1] && v->dtype == RLX_DTYPE_I32;
    default:
        return 0;
    }
}

/* Which scale element each x element uses (cpu-ref's plan_scales). */
static rlx_status plan_scales(ctx *c, uint32_t i, rlxg_quant_plan *p)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *x = &c->exe->values[v->inputs[0]];
    const rlxg_value *s = &c->exe->values[v->inputs[1]];
    const rlxg_value *z = &c->exe->values[v->inputs[2]];
    int64_t axis = rlx_kit_int_attr(v, RLX_ATTR_QUANT_AXIS, 1);
    int64_t block = rlx_kit_int_attr(v, RLX_ATTR_QUANT_BLOCK_SIZE, 0);
    if (s->count != z->count || x->count != c->exe->values[i].count)
        return bad(c, v, "scale, zero point and shapes that disagree");
    p->mode = RLXG_QUANT_TENSOR;
    if (block == 0 && s->count == 1 && s->rank <= 1)
        return RLX_OK;
    if (axis < 0)
        axis += x->rank;
    if (axis < 0 || axis >= (int64_t)x->rank || block < 0)
        return bad(c, v, "an axis or block_size out of range");
    p->outer = p->inner = 1;
    for (int64_t d = 0; d < axis; d++)
        p->outer *= x->dims[d];
    for (uint32_t d = (uint32_t)axis + 1; d < x->rank; d++)
        p->inner *= x->dims[d];
    p->len = x->dims[axis];
    if (block == 0) {
        if (s->rank != 1 || s->count != p->len)
            return bad(c, v, "a per-axis scale of the wrong length");
        p->mode = RLXG_QUANT_AXIS;
        return RLX_OK;
    }
    p->mode = RLXG_QUANT_BLOCKED;
    p->block = block;
    p->n_blocks = (p->len + block - 1) / block;
    if (s->count != p->outer * p->n_blocks * p->inner)
        return bad(c, v, "a blocked scale of the wrong size");
    return RLX_OK;
}

/* A zero point of one element or LEN (a vector). */
static int zp_per(const rlxg_value *z, int64_t len, int *per)
{
    *per = z->count != 1;
    return z->count == 1 || (z->rank == 1 && z->count == len);
}

static rlx_status plan_matmul(ctx *c, uint32_t i, rlxg_quant_plan *p)
{
    const rlx_node_view *v = c->g->nodes[i];
    const rlxg_value *a = &c->exe->values[v->inputs[0]];
    const rlxg_value *b = &c->exe->values[v->inputs[1]];
    const rlxg_value *y = &c->exe->values[i];
    if (a->rank < 1 || b->rank < 1)
        return bad(c, v, "a scalar operand");
    rlx_kit_matmul_operand oa, ob;
    rlx_kit_matmul_operand_init(a->rank, a->dims, 0, 0, &oa);
    rlx_kit_matmul_operand_init(b->rank, b->dims, 0, 1, &ob);
    if (oa.cols != ob.rows)
        return bad(c, v, "operands whose inner dims differ");
    p->m = oa.rows;
    p->k = oa.cols;
    p->n = ob.cols;
    p->a_row = oa.row;
    p->a_col = oa.col;
    p->b_row = ob.row;
    p->b_col = ob.col;
    uint32_t drop = (a->rank >= 2) + (b->rank >= 2);
    if (y->rank < drop || y->rank - drop > RLXG_MAX_RANK)
        return bad(c, v, "a result rank matmul never gives");
    p->brank = y->rank - drop;
    int64_t total = p->m * p->n;
    for (uint32_t d = 0; d < p->brank; d++) {
        p->bdims[d] = y->dims[d];
        total *= y->dims[d];
    }
    if (total != y->count)
        return bad(c, v, "a result size its operands do not give");
    rlx_kit_matmul_batch_strides(&oa, p->brank, p->a_bstride);
    rlx_kit_matmul_batch_strides(&ob, p->brank, p->b_bstride);
    int za, zb;
    if (!zp_per(&c->exe->values[v->inputs[2]], p->m, &za) ||
        !zp_per(&c->exe->values[v->inputs[3]], p->n, &zb))
        return bad(c, v, "a zero point of the wrong size");
    p->za_per = za;
    p->zb_per = zb;
    return RLX_OK;
}

static rlx_status plan_conv(ctx *c, uint32_t i, rlxg_step *s)
{
    const rlx_node_view *v = c->g->nodes[i];
    rlx_status st = rlxg_plan_window(c, i, &s->win);
    if (st != RLX_OK)
        return st;
    const rlxg_win_plan *w = &s->win;
    const rlxg_value *wv = &c->exe->values[v->inputs[1]];
    int zx, zw;
    if (w->s < 1 || wv->dims[0] != w->m || wv->dims[1] * w->group != w->c ||
        !zp_per(&c->exe->values[v->inputs[2]], 1, &zx) ||
        !zp_per(&c->exe->values[v->inputs[3]], w->m, &zw))
        return bad(c, v, "weights or zero points that do not fit x");
    s->q.zb_per = zw;
    return RLX_OK;
}

rlx_status rlxg_node_quant(ctx *c, uint32_t i)
{
    const rlx_node_view *v = c->g->nodes[i];
    if (!rlxg_quant_dtypes_ok(c->g, v))
        return bad(c, v, "inputs whose count or dtypes do not fit the op");
    rlxg_step *s = rlxg_step_push(c, RLXG_STEP_QUANT, (int)i);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < v->n_inputs; j++)
        s->in[j] = (int)v->inputs[j];
    rlxg_quant_plan *p = &s->q;
    p->op = v->op;
    p->x_dtype = (int32_t)c->exe->values[v->inputs[0]].dtype;
    p->w_dtype = (int32_t)c->exe->values[v->inputs[1]].dtype;
    p->y_dtype = (int32_t)c->exe->values[i].dtype;
    p->count = c->exe->values[i].count;
    switch (v->op) {
    case RLX_OP_MATMUL_INTEGER: return plan_matmul(c, i, p);
    case RLX_OP_CONV_INTEGER: return plan_conv(c, i, s);
    default: return plan_scales(c, i, p);
    }
}

rlx_status rlxg_node_qchain(ctx *c, uint32_t end)
{
    uint32_t i = (uint32_t)c->qchain[end];
    const rlx_node_view *v = c->g->nodes[i];
    int extra[8], mid[5];
    if (rlxg_qchain_match(c, i, 1, extra, mid) != (int)end ||
        !rlxg_quant_dtypes_ok(c->g, v))
        return bad(c, v, "a fused chain that no longer matches");
    rlxg_step *s = rlxg_step_push(c, RLXG_STEP_QUANT, (int)end);
    if (!s)
        return RLX_ERR_OUT_OF_MEMORY;
    for (uint32_t j = 0; j < 4; j++)
        s->in[j] = (int)v->inputs[j];
    memcpy(s->extra, extra, sizeof s->extra);
    rlxg_quant_plan *p = &s->q;
    const rlxg_value *vals = c->exe->values;
    p->op = RLX_OP_CONV_INTEGER;
    p->chain = 1;
    p->x_dtype = (int32_t)vals[v->inputs[0]].dtype;
    p->w_dtype = (int32_t)vals[v->inputs[1]].dtype;
    p->y_dtype = (int32_t)vals[end].dtype;
    p->count = vals[end].count;
    p->bias_per = extra[RLXG_QC_BIAS] >= 0 &&
                  vals[extra[RLXG_QC_BIAS]].count != 1;
    p->mult_per = vals[extra[RLXG_QC_MULT]].count != 1;
    rlx_status st = plan_conv(c, i, s);
    if (st != RLX_OK)
        return st;
    if (vals[i].count != p->count)
        return bad(c, v, "a chain whose result size differs from its "
                         "accumulators'");
    /* the vendor's int8 conv where it takes it (cuDNN), else our kernel */
    return rlxg_dnn_qconv_plan(c->exe, s);
}
