/*
 * fuzz_probe_cache.c - libFuzzer harness: the probe cache
 * ($XDG_CACHE_HOME/rlx/probe-cache-v2: remembered availability answers
 * and their probe keys) on any bytes, read as automatic device choice
 * reads it for a plugin not loaded yet: entries for the backend id
 * "fuzz" have their keys replayed (env, file, dir and opt items are
 * evaluated again).
 */
#include <sys/stat.h>

#include "plugin/plugin.h"

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rlx_runtime *rt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_env_isolate();
    setenv("RLX_PROBE_CACHE", "1", 1);
    char dir[512];
    snprintf(dir, sizeof dir, "%s/rlx", fuzz_dir());
    mkdir(dir, 0700);
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_file("rlx/probe-cache-v2", data, size);
    rlx__probe_answer ans;
    rlx__replay_memo memo;
    memset(&ans, 0, sizeof ans);
    memset(&memo, 0, sizeof memo);
    if (rlx__probe_cache_offline(rt, "fuzz", "/nonexistent/plugin.so", &ans,
                                 &memo) &&
        !memchr(ans.message, '\0', sizeof ans.message))
        abort(); /* the cached message must come back terminated */
    rlx__error_clear();
    return 0;
}
