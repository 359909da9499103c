/*
 * pjrt_golden.h - the golden-file check the bridge's StableHLO tests
 * share (test_pjrt.c, test_pjrt_ops14.c): compile a graph on the bridge
 * with the fake PJRT plugin, take the module it dumped, check its
 * structure (mlir_check.c) and compare it with golden/NAME.mlir.
 * RLX_PJRT_GOLDEN_UPDATE=1 rewrites the golden files.
 */
#ifndef RLX_PJRT_GOLDEN_H
#define RLX_PJRT_GOLDEN_H

#include "mlir_check.h"
#include "pjrt_test_util.h"

/* The one module in the dump directory. */
static inline char *dumped(void)
{
    DIR *d = opendir(dump_dir);
    struct dirent *e;
    char *text = NULL;
    while (d && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        /* modules only: a failed test may leave folders behind */
        if (e->d_name[0] == '.' || len < 6 ||
            strcmp(e->d_name + len - 5, ".mlir") != 0)
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dump_dir, e->d_name);
        text = read_file(p);
    }
    if (d)
        closedir(d);
    return text;
}

/* Compile G on the bridge (fake plugin), check the text, compare it with
 * golden/NAME.mlir; returns 0 or fills WHY. */
static inline int golden(rlx_runtime *rt, const char *name, const rlx_graph *g,
                  char *why, size_t why_size)
{
    rlx_session *s = NULL;
    if (rlx_session_create(rt, "pjrt", &s) != RLX_OK)
        return snprintf(why, why_size, "session: %s", rlx_last_error()), -1;
    clear_dump();
    rlx_program *p = NULL;
    rlx_status st = rlx_session_compile(s, g, &p);
    if (st != RLX_OK) {
        snprintf(why, why_size, "%s: compile: %s", name, rlx_last_error());
        rlx_session_destroy(s);
        return -1;
    }
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    char *text = dumped();
    if (!text)
        return snprintf(why, why_size, "%s: no module dumped", name), -1;
    char problem[512];
    if (mlir_check(text, problem, sizeof problem) != 0) {
        snprintf(why, why_size, "%s: malformed StableHLO: %s", name,
                 problem);
        free(text);
        return -1;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/%s.mlir", golden_dir, name);
    const char *upd = getenv("RLX_PJRT_GOLDEN_UPDATE");
    if (upd && upd[0] == '1') {
        FILE *f = fopen(path, "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
    }
    char *want = read_file(path);
    int rc = 0;
    if (!want) {
        snprintf(why, why_size, "%s: no golden %s (run with "
                 "RLX_PJRT_GOLDEN_UPDATE=1 to write it)", name, path);
        rc = -1;
    } else if (strcmp(want, text) != 0) {
        size_t i = 0;
        while (want[i] && want[i] == text[i])
            i++;
        snprintf(why, why_size, "%s: differs from %s at byte %zu: got "
                 "'%.60s'", name, path, i, text + i);
        rc = -1;
    }
    free(want);
    free(text);
    return rc;
}

#endif
