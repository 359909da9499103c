/*
 * placement_host.c - the kinds of node the core runs itself, on the host,
 * between backend pieces (see "host-run nodes" in exec.h). Each kind
 * claims its nodes before any backend is asked about them.
 */
#include "exec.h"

/* Add a host kind's address here (before the NULL). */
const rlx__host_kind *const rlx__host_kinds[] = {
    &rlx__host_kind_ffi, /* custom ops (host_ffi.c) */
    NULL,
};

const rlx__host_kind *rlx__host_kind_for(const rlx_graph_view *v,
                                         uint32_t node)
{
    if (rlx__op_is_source(v->nodes[node]->op))
        return NULL;
    for (size_t i = 0; rlx__host_kinds[i]; i++)
        if (rlx__host_kinds[i]->claims(v, node))
            return rlx__host_kinds[i];
    return NULL;
}
