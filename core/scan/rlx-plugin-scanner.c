/*
 * rlx-plugin-scanner - opens plugin files on librlx's behalf, so that a
 * plugin that crashes, exits or hangs takes down this process only.
 *
 *   rlx-plugin-scanner FILE...      (started by librlx, report on fd 3)
 *
 * For each file it runs the loader itself (ELF checks, dlopen, the
 * host-fit score, rlx_plugin_init against the real host table, which
 * records every registration) in a fresh runtime, unloads it again, and
 * writes the record of scan_format.c, framed by the protocol lines:
 *
 *   rlx-plugin-scanner 1             once, first
 *   begin PATH                       before a file
 *   phase NAME                       before each phase that runs its code
 *   file ... end                     the record (scan_format.c)
 *   done                             after the last file
 *
 * Every line is written with one write(2) before the phase it announces
 * runs, so that the parent knows where a crash happened.
 */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/scan.h"

/* A sanitizer build must let the plugin's signal kill this process, so
 * the parent sees the real signal rather than the sanitizer's exit. The
 * runtime finds these hooks by their dynamic symbols. */
#define SANITIZER_HOOK __attribute__((visibility("default"), used))
SANITIZER_HOOK const char *__asan_default_options(void);
SANITIZER_HOOK const char *__asan_default_options(void)
{
    return "handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_abort=0:"
           "handle_sigfpe=0:detect_leaks=0";
}
SANITIZER_HOOK const char *__tsan_default_options(void);
SANITIZER_HOOK const char *__tsan_default_options(void)
{
    return "handle_segv=0:handle_sigbus=0:handle_sigill=0:handle_abort=0:"
           "handle_sigfpe=0";
}

static void emit(const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(RLX__SCAN_FD, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3); /* the parent is gone */
        buf += w;
        n -= (size_t)w;
    }
}

static void emit_phase(const char *phase)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return;
    fputs("phase ", f);
    rlx__scan_put_token(f, phase);
    fputc('\n', f);
    fclose(f);
    emit(buf, n);
    free(buf);
}

/* The f32 ops B supports, comma-separated. */
static void ops_of(const rlx_backend *b, FILE *f)
{
    int first = 1;
    for (int op = 0; op < 256; op++)
        if (rlx__op_is_known((rlx_op)op) &&
            rlx_backend_supports_op(b, (rlx_op)op, RLX_DTYPE_F32)) {
            fprintf(f, "%s%s", first ? "" : ",", rlx_op_name((rlx_op)op));
            first = 0;
        }
}

static void record(rlx_runtime *rt, const char *path, rlx_status st,
                   rlx__scan_entry *e)
{
    struct stat sb;
    e->path = rlx__strdup(path);
    if (stat(path, &sb) == 0)
        rlx__scan_key(e, path, &sb);
    e->fit = -1;
    if (st != RLX_OK) {
        e->state = RLX__SCANNED_REFUSED;
        e->status = st;
        e->error = rlx__strdup(rlx_last_error());
        for (uint32_t i = 0; rt && i < rt->n_diags; i++) {
            if (strcmp(rt->diags[i].path, path) != 0)
                continue;
            rlx__scan_diag *grown = realloc(e->diags, (e->n_diags + 1) *
                                                          sizeof *grown);
            if (!grown)
                break;
            e->diags = grown;
            e->diags[e->n_diags++] = (rlx__scan_diag){
                (int)rt->diags[i].kind, rlx__strdup(rt->diags[i].reason),
                rlx__strdup(rt->diags[i].fix)
            };
        }
        return;
    }
    e->state = RLX__SCANNED_CLEAN;
    rlx__plugin *p = rt->n_plugins ? rt->plugins[rt->n_plugins - 1] : NULL;
    if (!p)
        return;
    e->fit = p->host_fit;
    e->family = p->family ? rlx__strdup(p->family) : NULL;
    e->backends = calloc(p->n_backends ? p->n_backends : 1,
                         sizeof *e->backends);
    for (uint32_t i = 0; e->backends && i < p->n_backends; i++) {
        const rlx_backend *b = p->backends[i];
        char *ops = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&ops, &n);
        if (f) {
            ops_of(b, f);
            fclose(f);
        }
        e->backends[e->n_backends++] = (rlx__scan_backend){
            rlx__strdup(b->id), (int)b->kind, rlx__strdup(b->device_name),
            b->priority, b->flags, b->abi_version, ops
        };
    }
}

static void scan_one(const char *path)
{
    rlx__scan_entry e = { 0 };
    rlx_runtime *rt = NULL;
    rlx_status st = rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY);
    if (st == RLX_OK) {
        rt->scan->mode = RLX__SCAN_INPROCESS; /* never recurse */
        pthread_mutex_lock(&rt->lock);
        rlx__loader_phase_hook = emit_phase;
        st = rlx__loader_load(rt, path);
        pthread_mutex_unlock(&rt->lock);
        record(rt, path, st, &e);
        /* Keep the file mapped to the end: the libraries it pulled in
         * (a BLAS, a GPU driver) then stay loaded for the next files, as
         * the ISA variants of one family share them. Its destructors run
         * at exit, after "done". */
        if (st == RLX_OK)
            (void)dlopen(path, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
        /* unloading runs its backend_destroy: a crash there must blame
         * the file too, so the record waits for it */
        emit_phase(RLX__PHASE_UNLOAD);
        rlx_runtime_destroy(rt);
        rlx__loader_phase_hook = NULL;
    } else {
        record(NULL, path, st, &e);
    }
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        _exit(4);
    rlx__scan_entry_write(f, &e);
    fclose(f);
    emit(buf, n);
    free(buf);
    rlx__scan_entry_free(&e);
}

int main(int argc, char **argv)
{
    struct stat st;
    if (fstat(RLX__SCAN_FD, &st) != 0 || argc < 2) {
        fprintf(stderr,
                "rlx-plugin-scanner: librlx starts this program to open "
                "plugin files safely; it reports on fd %d.\n"
                "Fix: run `rlx devices` (or `rlx devices --rescan`) "
                "instead.\n", RLX__SCAN_FD);
        return 2;
    }
    char head[64];
    int hn = snprintf(head, sizeof head, "rlx-plugin-scanner %d\n",
                      RLX__SCAN_PROTOCOL);
    emit(head, (size_t)hn);
    for (int i = 1; i < argc; i++) {
        char *line = NULL;
        size_t n = 0;
        FILE *f = open_memstream(&line, &n);
        if (!f)
            return 4;
        fputs("begin ", f);
        rlx__scan_put_token(f, argv[i]);
        fputc('\n', f);
        fclose(f);
        emit(line, n);
        free(line);
        scan_one(argv[i]);
    }
    emit("done\n", 5);
    return 0;
}
