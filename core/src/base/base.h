/*
 * base.h - the core's first room (prefix rlx__): messages and errors, the
 * environment, files, names, hashing, JSON, YAML and ELF headers. Every
 * other room builds on it; it includes no other room
 * (docs/architecture.md).
 */
#ifndef RLX__BASE_H
#define RLX__BASE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include <rlx/plugin.h>
#include <rlx/rlx.h>
#include "base/hash.h"

#define RLX_MAX_RANK 8
#define RLX_MAX_ID 63
#define RLX_MSG_MAX 2048
/* MSG into DST (SIZE bytes): whole when it fits, else with quoted user
 * text cut short and, if need be, its middle, never its Fix (message.c). */
void rlx__message_fit(char *dst, size_t size, const char *msg);

#if defined(__GNUC__)
#define RLX__PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RLX__PRINTF(f, a)
#endif

/* ---- error.c: this thread's last error, plugin reports ---------------- */

/* Set the message rlx_last_error() returns; returns STATUS. */
rlx_status rlx__error(rlx_status status, const char *fmt, ...) RLX__PRINTF(2, 3);
void rlx__error_clear(void);
/* Plugin reports: cleared before a call into a plugin, read after it. */
void rlx__report_clear(void);
void rlx__report_set(const char *message);
const char *rlx__report_get(void); /* NULL when the plugin said nothing */
/* Copy of "reason" and "fix" parts of a message split at "Fix:". */
void rlx__split_fix(const char *msg, char **reason, char **fix);
char *rlx__strdup(const char *s);
char *rlx__printf_alloc(const char *fmt, ...) RLX__PRINTF(1, 2);

/* ---- env.c: the environment, ignored in privileged processes ------- */

/* 1 in a set-ID process, or one the kernel marked AT_SECURE (file
 * capabilities, LSM transitions): the environment is the caller's. */
int rlx__env_untrusted(void);
/* The environment variable NAME, or NULL when rlx__env_untrusted().
 * Every variable the core and the tool read goes through here. */
const char *rlx__env(const char *name);
/* Warn on stderr, once per process for NAME, that its VALUE is not valid,
 * saying what was USED instead and the VALID values. */
void rlx__env_warn(const char *name, const char *value, const char *used,
                   const char *valid);

/* ---- file.c: files named by users ---------------------------------- */

struct stat;
/* Open PATH (a WHAT: "model file") for reading without blocking; refuse
 * anything but a regular file (a FIFO would hang the process). */
rlx_status rlx__file_open_regular(const char *path, const char *what,
                                  int *fd, struct stat *st);
/* The whole of PATH, NUL-terminated, at most MAX_BYTES. */
rlx_status rlx__file_read_all(const char *path, const char *what,
                              size_t max_bytes, char **out, size_t *len);

/* ---- names.c ---------------------------------------------------------- */

/* A custom node (graph/graph.h): an op code of the core's own, outside the
 * ABI's rlx_op range, so no backend is ever asked about it or shown it. */
#define RLX__OP_CUSTOM ((rlx_op)0x40000001)

int rlx__op_is_known(rlx_op op);
#define RLX__OP_UNKNOWN (-2)
/* Inputs OP takes: RLX_OP_VARIADIC (-1) for one or more, RLX__OP_UNKNOWN
 * for an op this core does not know. */
int rlx__op_arity(rlx_op op);
int rlx__dtype_is_known(rlx_dtype t);
int rlx__device_kind_is_known(rlx_device_kind k);
/* "[2,3,4]" into BUF. */
const char *rlx__shape_str(char *buf, size_t size, uint32_t rank,
                           const int64_t *dims);


/* Inspect an ELF header before dlopen: 0 when it may be loadable, else
 * -1 with a reason and fix (malloc'd). */
int rlx__elf_check(int fd, long long file_size, char **reason, char **fix);

/* ---- json.c: a strict JSON parser (RFC 8259) for safetensors headers - */

#define RLX__JSON_MAX_DEPTH 64

typedef enum rlx__json_kind {
    RLX__JSON_NULL = 1,
    RLX__JSON_BOOL,
    RLX__JSON_NUMBER,
    RLX__JSON_STRING,
    RLX__JSON_ARRAY,
    RLX__JSON_OBJECT
} rlx__json_kind;

typedef struct rlx__json {
    rlx__json_kind kind;
    size_t offset;          /* byte offset of the value in the text */
    int boolean;            /* BOOL */
    /* NUMBER: is_uint when it is a plain non-negative integer that fits
     * in uint64_t (then u holds it); uint_overflow when it is a plain
     * non-negative integer too large for uint64_t. */
    int is_uint, uint_overflow;
    uint64_t u;
    char *string;           /* STRING (NUL-free UTF-8) */
    uint32_t n;             /* ARRAY, OBJECT: number of items */
    struct rlx__json *items;
    char **keys;            /* OBJECT: keys, unique */
} rlx__json;

/* Parse TEXT[0..LEN) as one JSON value. On failure returns NULL and
 * writes a one-line reason with the byte offset into ERR. */
rlx__json *rlx__json_parse(const char *text, size_t len, char *err,
                           size_t err_size);
void rlx__json_free(rlx__json *v);
/* Member KEY of an object, or NULL. */
const rlx__json *rlx__json_get(const rlx__json *obj, const char *key);

/* ---- base/yaml.c: YAML text -> a document tree with marks ----------- */

typedef enum rlx__ykind {
    RLX__Y_SCALAR = 1,
    RLX__Y_SEQ,
    RLX__Y_MAP
} rlx__ykind;

typedef struct rlx__ynode {
    rlx__ykind kind;
    uint32_t line, col;     /* 1-based start of the node */
    char *text;             /* SCALAR */
    int quoted;             /* SCALAR written in quotes or as a block */
    uint32_t n;             /* SEQ: items; MAP: pairs */
    uint32_t n_items;       /* entries of ITEMS (2 * pairs for a MAP) */
    struct rlx__ynode **items; /* MAP: key, value, key, value, ... */
} rlx__ynode;

/* Parse the YAML file PATH into a tree (one document, keys of every
 * mapping unique scalars, no aliases). Errors name PATH:LINE:COL. */
rlx_status rlx__yaml_load(const char *path, rlx__ynode **out);
/* The same for any YAML file (WHAT: "config file") of at most MAX_BYTES;
 * an empty one gives a NULL or null root. Nesting is capped (64 levels),
 * so parsing stays linear in the file's size. */
rlx_status rlx__yaml_parse(const char *path, const char *what,
                           size_t max_bytes, rlx__ynode **out);
void rlx__ynode_free(rlx__ynode *n);
/* Value of KEY in mapping MAP, or NULL. */
const rlx__ynode *rlx__ynode_get(const rlx__ynode *map, const char *key);
/* A plain null scalar: empty, "~" or "null". */
int rlx__ynode_is_null(const rlx__ynode *n);
const char *rlx__ykind_name(rlx__ykind k);

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

#endif /* RLX__BASE_H */
