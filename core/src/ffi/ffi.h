/*
 * ffi.h - the custom-op room (prefix rlx__): foreign kernels called by C
 * signature through libffi (docs/custom-ops.md). ffi_lib.c holds the
 * rules for which libraries may load, custom_allow.c what the application
 * allowed and registered, ffi.c prepares the call at compile time and
 * makes it per run. Signatures and specs live in graph/graph.h. It builds
 * on base/, graph/ and plugin/ (docs/architecture.md).
 */
#ifndef RLX__FFI_H
#define RLX__FFI_H

#include <stddef.h>
#include <stdint.h>

#include "graph/graph.h"
#include "plugin/plugin.h"

/* What a compiled custom node needs per run: the resolved function, the
 * libffi call interface and argument storage (prepared once). */
typedef struct rlx__custom_call rlx__custom_call;
struct rlx__allow;
typedef struct rlx__allow rlx__allow;

/* Load the library, find the symbol, prepare the cif (compile time).
 * NODE is a custom node of G; OWN and RT what the application allowed
 * the session being compiled (its list and its runtime; each may be
 * NULL). */
rlx_status rlx__custom_prepare(const rlx_graph *g, uint32_t node,
                               const rlx__allow *own, rlx_runtime *rt,
                               rlx__custom_call **out);
/* Call the kernel: INPUTS are the node's inputs' host data, in order,
 * OUTPUT its output's host memory. A non-zero status fails, naming it. */
rlx_status rlx__custom_invoke(rlx__custom_call *c, const void *const *inputs,
                              void *output);
void rlx__custom_call_free(rlx__custom_call *c);

/* ---- custom_allow.c: what the application allowed ---------------------- */

typedef enum rlx__allow_kind {
    RLX__ALLOW_FILE = 1,   /* a library file, by its real path */
    RLX__ALLOW_DIR = 2,    /* every library in a directory (real path) */
    RLX__ALLOW_SONAME = 3  /* a bare soname, loaded by the system loader */
} rlx__allow_kind;

typedef struct rlx__allow_item {
    rlx__allow_kind kind;
    char *path;
} rlx__allow_item;

typedef struct rlx__allow {
    rlx__allow_item *items;
    uint32_t n;
} rlx__allow;

void rlx__allow_free(rlx__allow *a);
/* Add PATH to *LIST (WHO names the API call in errors). */
rlx_status rlx__allow_add(rlx__allow **list, const char *path,
                          const char *who);
/* What a session may load: OWN (its own list, may be NULL), and when RT
 * is given, its runtime's and the libraries of kernels registered on the
 * runtime. *OUT is freed with rlx__allow_free. */
rlx_status rlx__allow_snapshot(const rlx__allow *own, rlx_runtime *rt,
                               rlx__allow **out);

/* A kernel registered for a custom domain's op. */
typedef struct rlx__custom_reg {
    char *domain, *op_type;
    rlx__custom *spec;
} rlx__custom_reg;

const rlx__custom *rlx__custom_registered(rlx_runtime *rt, const char *domain,
                                          const char *op_type);
/* Frees RT's registrations and allow list (runtime destroy). */
void rlx__custom_registry_free(rlx_runtime *rt);

/* ---- ffi_lib.c: where a library may come from --------------------------- */

/* Open LIBRARY (relative paths under BASE_DIR) if ALLOW allows it, under
 * the rules of docs/custom-ops.md, and find SYMBOL, which must be a
 * function defined by the library itself. Errors name NODE, the library,
 * the symbol and SIGNATURE, and end with a Fix. */
rlx_status rlx__custom_open(const char *node, const char *library,
                            const char *base_dir, const char *symbol,
                            const char *signature, const rlx__allow *allow,
                            void **handle, rlx_custom_fn *fn);

#endif /* RLX__FFI_H */
