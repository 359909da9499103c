/* session.h - the session record, shared by session.c and program.c. */
#ifndef RLX_SESSION_H
#define RLX_SESSION_H

#include "exec.h"

struct rlx_session {
    rlx_runtime *rt;
    const rlx_backend *backend;     /* candidates[0] until a fallback */
    uint32_t device_index;
    rlx_precision precision;        /* handed to every compile */
    rlx_fallback fallback;          /* when the backend lacks nodes */
    int explicit_device;            /* the caller named the device */
    const rlx_backend *candidates[32]; /* available, best first */
    uint32_t n_candidates;
    char *explain;
    struct rlx__option *options;    /* rlx_session_set_option */
    uint32_t n_options;
    const rlx__probe_batch *probes; /* automatic choice: answers ahead */
    struct rlx__allow *custom_allow; /* rlx_session_allow_custom_ops */
};

void rlx__session_options_free(rlx_session *s);

/* Append a line to the session's explanation. */
void rlx__session_note(rlx_session *s, const char *fmt, ...)
    RLX__PRINTF(2, 3);

#endif /* RLX_SESSION_H */
