/*
 * custom.h - custom nodes: foreign kernels called by C signature through
 * libffi (docs/custom-ops.md). graph/custom_sig.c parses and checks signatures,
 * ffi_lib.c holds the rules for which libraries may load, ffi.c owns the
 * node's spec, prepares the call at compile time and makes it per run.
 * A custom node is core-internal (RLX__OP_CUSTOM): no backend sees it.
 */
#ifndef RLX_CUSTOM_H
#define RLX_CUSTOM_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define RLX__SIG_MAX_ARGS 32

/* C types a signature may name. */
typedef enum rlx__ftype {
    RLX__FT_VOID = 0,
    RLX__FT_I8, RLX__FT_I16, RLX__FT_I32, RLX__FT_I64,
    RLX__FT_U8, RLX__FT_U16, RLX__FT_U32, RLX__FT_U64,
    RLX__FT_F32, RLX__FT_F64,
    RLX__FT_PTR
} rlx__ftype;

typedef struct rlx__sig {
    rlx__ftype ret;                       /* VOID or an integer type */
    uint32_t n;
    rlx__ftype args[RLX__SIG_MAX_ARGS];
    /* PTR args: the pointee's dtype ("f32*"), RLX_DTYPE_INVALID for an
     * untyped "ptr" / "void*" */
    rlx_dtype pointee[RLX__SIG_MAX_ARGS];
} rlx__sig;

/* ---- graph/custom_sig.c --------------------------------------------------------- */

/* Parse TEXT; on failure writes a reason naming the position to ERR. */
int rlx__sig_parse(const char *text, rlx__sig *out, char *err, size_t size);
const char *rlx__ftype_name(rlx__ftype t);
int rlx__ftype_is_int(rlx__ftype t);
int rlx__ftype_is_float(rlx__ftype t);
/* 1 when V fits integer type T. */
int rlx__ftype_fits(rlx__ftype t, int64_t v);
/* The C type of one element of DTYPE, VOID for f16/bf16/bool. */
rlx__ftype rlx__ftype_of_dtype(rlx_dtype dtype);

/* ---- ffi.c: the spec a custom node owns -------------------------------- */

typedef struct rlx__custom {
    char *library, *symbol, *signature, *base_dir;
    rlx_custom_fn fn;
    rlx__sig sig;
    uint32_t n_args;
    rlx_custom_arg *args;
    int32_t init_input;
    uint32_t flags;             /* RLX_CUSTOM_* */
} rlx__custom;

void rlx__custom_free(rlx__custom *c);
/* A deep copy of the spec; NULL on out of memory. */
rlx__custom *rlx__custom_dup(const rlx__custom *c);

/* What a compiled custom node needs per run: the resolved function, the
 * libffi call interface and argument storage (prepared once). */
typedef struct rlx__custom_call rlx__custom_call;

/* Load the library, find the symbol, prepare the cif (compile time).
 * NODE is a custom node of G; S the session being compiled (what its
 * application allowed), or NULL. */
rlx_status rlx__custom_prepare(const rlx_graph *g, uint32_t node,
                               const rlx_session *s,
                               rlx__custom_call **out);
/* Call the kernel: INPUTS are the node's inputs' host data, in order,
 * OUTPUT its output's host memory. A non-zero status fails, naming it. */
rlx_status rlx__custom_invoke(rlx__custom_call *c, const void *const *inputs,
                              void *output);
void rlx__custom_call_free(rlx__custom_call *c);

/* ---- host_ffi.c: the host kind that runs custom nodes (placement) ------ */

extern const rlx__host_kind rlx__host_kind_ffi;

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
/* What session S (NULL: none) may load: its own list, its runtime's and
 * the libraries of kernels registered on the runtime. *OUT is freed with
 * rlx__allow_free. */
rlx_status rlx__allow_snapshot(const rlx_session *s, rlx__allow **out);

/* A kernel registered for a custom domain's op. */
typedef struct rlx__custom_reg {
    char *domain, *op_type;
    rlx__custom *spec;
} rlx__custom_reg;

const rlx__custom *rlx__custom_registered(rlx_runtime *rt, const char *domain,
                                          const char *op_type);
/* Frees RT's registrations and allow list (runtime destroy). */
void rlx__custom_registry_free(rlx_runtime *rt);
/* A deep copy of OP as a spec (graph_custom.c); NULL on out of memory. */
rlx__custom *rlx__custom_from_op(const rlx_custom_op *op, const rlx__sig *sig);

/* ---- ffi_lib.c: where a library may come from --------------------------- */

/* Open LIBRARY (relative paths under BASE_DIR) if ALLOW allows it, under
 * the rules of docs/custom-ops.md, and find SYMBOL, which must be a
 * function defined by the library itself. Errors name NODE, the library,
 * the symbol and SIGNATURE, and end with a Fix. */
rlx_status rlx__custom_open(const char *node, const char *library,
                            const char *base_dir, const char *symbol,
                            const char *signature, const rlx__allow *allow,
                            void **handle, rlx_custom_fn *fn);

/* ---- elf.c: the kind of a dynamic symbol -------------------------------- */

typedef enum rlx__sym_kind {
    RLX__SYM_FUNCTION = 1,  /* STT_FUNC or STT_GNU_IFUNC */
    RLX__SYM_OTHER = 2,     /* data, TLS, section...: never called */
    RLX__SYM_ABSENT = 3,    /* not defined by the file itself */
    RLX__SYM_UNREADABLE = 4 /* not an ELF file of ours / no dynsym */
} rlx__sym_kind;

/* Look NAME up in the dynamic symbol table of the ELF file FILE;
 * *TYPE (may be NULL) gets the STT_* type of a defined symbol. */
rlx__sym_kind rlx__elf_symbol_kind(const char *file, const char *name,
                                   int *type);

#endif /* RLX_CUSTOM_H */
