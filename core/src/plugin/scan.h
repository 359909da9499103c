/*
 * scan.h - out-of-process plugin scanning and the registry cache
 * (docs/scanner.md). Internal to librlx and the rlx-plugin-scanner
 * executable, which is built from the same objects.
 */
#ifndef RLX_SCAN_H
#define RLX_SCAN_H

#include <stdio.h>
#include <sys/stat.h>

#include "plugin.h"

/* The line protocol the scanner speaks on fd 3, and the cache format:
 * bump either when its lines change meaning. */
#define RLX__SCAN_PROTOCOL 2
#define RLX__SCAN_CACHE_VERSION 2
#define RLX__SCAN_FD 3
#define RLX__SCAN_TIMEOUT_DEFAULT_MS 5000

typedef enum rlx__scan_mode {
    RLX__SCAN_INPROCESS = 0,
    RLX__SCAN_SUBPROCESS = 1,
    RLX__SCAN_RESCAN = 2 /* subprocess, ignoring what the cache holds */
} rlx__scan_mode;

typedef enum rlx__scan_state {
    RLX__SCANNED_CLEAN = 1,      /* load it in-process */
    RLX__SCANNED_REFUSED = 2,    /* the loader refused it: replay why */
    RLX__SCANNED_BLACKLISTED = 3 /* it killed, stopped or hung the scanner */
} rlx__scan_state;

typedef struct rlx__scan_backend {
    char *id;
    int kind;
    char *device_name;
    int32_t priority;
    uint32_t flags;
    uint32_t abi;
    char *ops;               /* supported ops (f32), comma-separated */
} rlx__scan_backend;

typedef struct rlx__scan_diag {
    int kind;
    char *reason, *fix;
} rlx__scan_diag;

typedef struct rlx__scan_entry {
    char *path;
    /* the key: a file rewritten in place with its size and mtime put
     * back still has a new change time (and, where the file system
     * keeps one, a new inode generation) */
    unsigned long long dev, ino, gen;
    long long size, mtime_ns, ctime_ns, scanned; /* scanned: Unix time */
    int state;
    int32_t fit;             /* host-fit score, -1: none */
    char *family;            /* variant family, NULL: none */
    int status;              /* REFUSED: the rlx_status */
    char *error;             /* REFUSED: the error; BLACKLISTED: reason */
    char *fix;               /* BLACKLISTED */
    rlx__scan_backend *backends;
    uint32_t n_backends;
    rlx__scan_diag *diags;
    uint32_t n_diags;
} rlx__scan_entry;

typedef struct rlx__scan_cache {
    rlx__scan_entry *entries;
    uint32_t n;
    int dirty;               /* write it back */
} rlx__scan_cache;

/* A reader of entry lines, shared by the cache file and the protocol. */
typedef struct rlx__scan_parser {
    rlx__scan_entry cur;
    int open;                /* inside file ... end */
} rlx__scan_parser;

/* scan_format.c: escaping, writing and parsing entries. */
void rlx__scan_entry_free(rlx__scan_entry *e);
void rlx__scan_entry_write(FILE *f, const rlx__scan_entry *e);
void rlx__scan_put_token(FILE *f, const char *s);
/* Split LINE (modified) into at most MAX unescaped tokens; -1: malformed. */
int rlx__scan_tokens(char *line, char **tok, int max);
/* Feed one line; 1: an entry is complete (moved to *DONE), 0: more
 * lines needed, -1: malformed. */
int rlx__scan_parse_line(rlx__scan_parser *ps, char *line,
                         rlx__scan_entry *done);
void rlx__scan_parser_free(rlx__scan_parser *ps);
/* Put E (moved) in CACHE, replacing an entry of the same path. */
int rlx__scan_cache_put(rlx__scan_cache *c, rlx__scan_entry *e);
void rlx__scan_cache_free(rlx__scan_cache *c);

/* scan_cache.c: the registry cache file. */
char *rlx__scan_cache_file(void); /* NULL: no usable cache location */
void rlx__scan_cache_read(rlx__scan_cache *c, const char *file);
void rlx__scan_cache_write(const rlx__scan_cache *c, const char *file);

/* scan.c: the parent side. */
typedef struct rlx__scan {
    rlx__scan_mode mode;
    char *scanner;           /* the executable */
    char *cache_file;        /* NULL: no cache */
    int timeout_ms;
    int cache_loaded;
    rlx__scan_cache cache;
} rlx__scan;

/* Set up rt->scan from the environment (runtime creation). */
void rlx__scan_setup(rlx_runtime *rt);
void rlx__scan_free(rlx_runtime *rt);
/* Scan those of PATHS (each with its STS) that the cache lacks. */
void rlx__scan_files(rlx_runtime *rt, char *const *paths,
                     const struct stat *sts, uint32_t n);
/* scan_run.c: one scanner process over PATHS; how many files it settled
 * (scanned or blacklisted), or -1 when the scanner itself is broken. */
int rlx__scan_run(rlx_runtime *rt, char *const *paths,
                  const struct stat *sts, uint32_t n);
/* The entry for PATH as it is now (ST), scanning it if needed; NULL
 * when scanning is off or failed (load in-process). */
const rlx__scan_entry *rlx__scan_lookup(rlx_runtime *rt, const char *path,
                                        const struct stat *st);
/* Record blacklisted E: a diagnostic and the error; returns the status. */
rlx_status rlx__scan_blacklisted(rlx_runtime *rt, const rlx__scan_entry *e);
/* The key of file PATH (ST from stat) into E: device, inode, size, mtime,
 * ctime and inode generation. */
void rlx__scan_key(rlx__scan_entry *e, const char *path,
                   const struct stat *st);
/* The inode generation of PATH (FS_IOC_GETVERSION), 0 where the file
 * system keeps none. */
unsigned long long rlx__file_generation(const char *path);
/* 1 when E's key is that of PATH as it is now (ST). */
int rlx__scan_entry_matches(const rlx__scan_entry *e, const char *path,
                            const struct stat *st);

/* Called by the loader as it enters each phase of loading a file; set
 * only in the scanner, which reports the phase before it runs. */
extern void (*rlx__loader_phase_hook)(const char *phase);
#define RLX__PHASE_ELF "the ELF check"
#define RLX__PHASE_DLOPEN "dlopen (the plugin's constructors)"
#define RLX__PHASE_FIT "rlx_plugin_host_fit"
#define RLX__PHASE_INIT "rlx_plugin_init"
#define RLX__PHASE_UNLOAD "unloading (backend_destroy)"

#endif
