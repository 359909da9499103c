/*
 * fuzz_config.c - libFuzzer harness: the config file (RLX_CONFIG) on any
 * bytes, read the way every process that creates a runtime reads it;
 * then what it decided is queried: its diagnostics, the selection policy
 * and a device choice under it.
 */
#include <rlx/rlx.h>

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
    setenv("RLX_CONFIG", fuzz_file("config.yaml", data, size), 1);
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        return 0;
    for (uint32_t i = 0; i < rlx_runtime_diag_count(rt); i++) {
        const char *path = NULL, *reason = NULL, *fix = NULL;
        if (rlx_runtime_diag(rt, i, NULL, &path, &reason, &fix) != RLX_OK ||
            !path || !reason || !fix)
            abort(); /* every complaint names the file, a reason, a fix */
    }
    const rlx_backend *b = rlx_runtime_find_backend(rt, "cpu-ref");
    if (b)
        (void)rlx_runtime_backend_allowed(rt, b, NULL);
    rlx_session *s = NULL;
    if (rlx_session_create(rt, NULL, &s) == RLX_OK)
        rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    return 0;
}
