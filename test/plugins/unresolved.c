/* unresolved.c - needs a symbol nothing provides: dlopen(RTLD_NOW) fails. */
#include <rlx/plugin.h>

extern int rlx_test_symbol_nobody_defines(void);

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    (void)host;
    return rlx_test_symbol_nobody_defines() ? RLX_OK : RLX_ERR_PLUGIN;
}
