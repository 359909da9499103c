/* missing_dep.c - linked against a library whose SONAME exists nowhere:
 * dlopen fails with "cannot open shared object file". */
#include <rlx/plugin.h>

extern int rlx_test_dep_value(void);

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    (void)host;
    return rlx_test_dep_value() ? RLX_OK : RLX_ERR_PLUGIN;
}
