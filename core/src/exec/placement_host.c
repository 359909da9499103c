/*
 * placement_host.c - the kinds of node the core runs itself, on the host,
 * between backend pieces (see "host-run nodes" in internal.h). Each kind
 * claims its nodes before any backend is asked about them.
 */
#include "custom.h"
#include "internal.h"

/* Add a host kind's address here (before the NULL). */
const rlx__host_kind *const rlx__host_kinds[] = {
    &rlx__host_kind_ffi, /* custom ops (host_ffi.c) */
    NULL,
};
