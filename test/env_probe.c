/* env_probe.c - prints the plugin search directories a runtime used, so
 * test-hardening can run it with file capabilities (AT_SECURE) and see
 * that RLX_PLUGIN_PATH was ignored. Linked with an absolute RUNPATH: a
 * secure process ignores $ORIGIN. */
#include <stdio.h>

#include <rlx/rlx.h>

int main(void)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, 0) != RLX_OK) {
        fprintf(stderr, "%s\n", rlx_last_error());
        return 1;
    }
    const char *dir, *source;
    for (uint32_t i = 0; (dir = rlx_runtime_search_dir(rt, i, &source));
         i++)
        printf("%s %s\n", source, dir);
    rlx_runtime_destroy(rt);
    return 0;
}
