/*
 * host_ffi.c - custom nodes as a host kind of the placement pass: every
 * custom node becomes a host piece the core runs itself, on host memory,
 * between the backend pieces, whatever the device. The call is prepared
 * (library loaded, symbol found, cif built) when the piece is built.
 */
#include "exec.h"
#include "session.h"

static int ffi_claims(const rlx_graph_view *v, uint32_t node)
{
    return v->nodes[node]->op == RLX__OP_CUSTOM;
}

static rlx_status ffi_prepare(const rlx_graph *g, uint32_t gnode,
                              const rlx_session *s, void **state)
{
    rlx__custom_call *c = NULL;
    rlx_status st = rlx__custom_prepare(g, gnode, s ? s->custom_allow : NULL,
                                        s ? s->rt : NULL, &c);
    *state = c;
    return st;
}

static rlx_status ffi_run(void *state, const rlx_graph_view *v,
                          uint32_t node, const void *const *inputs,
                          void *output)
{
    (void)v;
    (void)node;
    return rlx__custom_invoke(state, inputs, output);
}

static void ffi_release(void *state)
{
    rlx__custom_call_free(state);
}

const rlx__host_kind rlx__host_kind_ffi = {
    .name = "ffi",
    .claims = ffi_claims,
    .run = ffi_run,
    .prepare = ffi_prepare,
    .release = ffi_release,
};
