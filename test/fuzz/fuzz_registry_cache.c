/*
 * fuzz_registry_cache.c - libFuzzer harness: the plugin registry cache
 * ($XDG_CACHE_HOME/rlx/plugin-registry: what each scanned plugin file
 * registered, or why it was refused or blacklisted) on any bytes. What
 * it accepts is written back and read again: the same entries must come
 * back (the writer escapes whatever the reader took), less those whose
 * file is gone, which the writer drops.
 */
#include <sys/stat.h>

#include "plugin/scan.h"

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_env_isolate();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rlx__scan_cache c;
    memset(&c, 0, sizeof c);
    rlx__scan_cache_read(&c, fuzz_file("plugin-registry", data, size));
    if (c.n > 0) {
        /* The writer keeps only entries whose file is unchanged: give
         * each entry naming an existing file (the seeds name /bin/sh)
         * that file's identity, so its text makes the round trip. */
        uint32_t kept = 0;
        for (uint32_t i = 0; i < c.n; i++) {
            rlx__scan_entry *e = &c.entries[i];
            struct stat st;
            if (stat(e->path, &st) != 0)
                continue;
            rlx__scan_key(e, e->path, &st);
            kept += rlx__scan_entry_matches(e, e->path, &st) != 0;
        }
        char again[512];
        snprintf(again, sizeof again, "%s/again/plugin-registry", fuzz_dir());
        rlx__scan_cache_write(&c, again);
        rlx__scan_cache back;
        memset(&back, 0, sizeof back);
        rlx__scan_cache_read(&back, again);
        if (back.n != kept)
            abort(); /* the writer lost or changed an entry */
        for (uint32_t i = 0, j = 0; i < c.n && j < back.n; i++) {
            const rlx__scan_entry *e = &c.entries[i];
            if (strcmp(back.entries[j].path, e->path) != 0)
                continue; /* dropped: its file is gone */
            if (back.entries[j].n_backends != e->n_backends ||
                back.entries[j].state != e->state ||
                back.entries[j].n_diags != e->n_diags ||
                (!e->error) != (!back.entries[j].error) ||
                (e->error && strcmp(e->error, back.entries[j].error) != 0))
                abort();
            j++;
        }
        rlx__scan_cache_free(&back);
    }
    rlx__scan_cache_free(&c);
    return 0;
}
