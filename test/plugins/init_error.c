/* init_error.c - init fails with a reported reason and remedy. */
#include <rlx/plugin.h>

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    return rlx_host_report(host, RLX_ERR_UNAVAILABLE,
                           "simulated device failure during init. Fix: "
                           "plug in the test device");
}
