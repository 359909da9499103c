/*
 * pjrt_emit_compare.c - the ABI 1.4 comparisons (bool result, NaN
 * unequal to everything as StableHLO's FLOAT compare has it), the
 * logical and bitwise ops (and, or, xor, not on i1 or the integers;
 * bit_shift on the unsigned ones) and
 * where (select over three broadcast operands, bytes copied as they
 * are, so NaN payloads and signed zeros survive).
 */
#include "pjrt_emit.h"

static uint32_t in(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    return e->node_val[n->inputs[i]];
}

/* Input I broadcast to the node's shape, in its own dtype. */
static uint32_t in_bcast(rlxp_emit *e, const rlx_node_view *n, uint32_t i)
{
    rlxp_val to = rlxp_val_of_node(n);
    return rlxp_broadcast_to(e, in(e, n, i), &to);
}

static uint32_t compare(rlxp_emit *e, const rlx_node_view *n)
{
    const char *dir;
    switch (n->op) {
    case RLX_OP_EQUAL: dir = "EQ"; break;
    case RLX_OP_LESS: dir = "LT"; break;
    case RLX_OP_LESS_EQUAL: dir = "LE"; break;
    case RLX_OP_GREATER: dir = "GT"; break;
    default: dir = "GE"; break;
    }
    /* exact in the inputs' own dtype: no rounding through a float */
    return rlxp_compare(e, in_bcast(e, n, 0), in_bcast(e, n, 1), dir);
}

static uint32_t bitwise(rlxp_emit *e, const rlx_node_view *n)
{
    const char *name;
    switch (n->op) {
    case RLX_OP_LOGICAL_AND: case RLX_OP_BITWISE_AND:
        name = "stablehlo.and"; break;
    case RLX_OP_LOGICAL_OR: case RLX_OP_BITWISE_OR:
        name = "stablehlo.or"; break;
    case RLX_OP_LOGICAL_XOR: case RLX_OP_BITWISE_XOR:
        name = "stablehlo.xor"; break;
    case RLX_OP_BIT_SHIFT:
        /* unsigned only; a shift past the width gives 0 in StableHLO as
         * in rlx (bits shifted out are dropped) */
        name = n->n_int_attrs > RLX_ATTR_BIT_SHIFT_DIRECTION &&
                       n->int_attrs[RLX_ATTR_BIT_SHIFT_DIRECTION] ==
                           RLX_BIT_SHIFT_RIGHT
                   ? "stablehlo.shift_right_logical"
                   : "stablehlo.shift_left";
        break;
    default: /* logical_not, bitwise_not */
        return rlxp_un(e, "stablehlo.not", in(e, n, 0));
    }
    return rlxp_bin(e, name, in_bcast(e, n, 0), in_bcast(e, n, 1));
}

uint32_t rlxp_emit_compare(rlxp_emit *e, const rlx_node_view *n)
{
    switch (n->op) {
    case RLX_OP_EQUAL: case RLX_OP_LESS: case RLX_OP_LESS_EQUAL:
    case RLX_OP_GREATER: case RLX_OP_GREATER_EQUAL:
        return compare(e, n);
    case RLX_OP_WHERE:
        return rlxp_select(e, in_bcast(e, n, 0), in_bcast(e, n, 1),
                           in_bcast(e, n, 2));
    default:
        return bitwise(e, n);
    }
}
