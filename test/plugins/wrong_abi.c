/* wrong_abi.c - claims plugin ABI 2.0: the core must refuse it with both
 * versions named, before reading anything else it passes. */
#include <rlx/plugin.h>

RLX_PLUGIN_EXPORT rlx_status rlx_plugin_init(const rlx_host *host)
{
    /* Only the frozen head of the host table is used. The info pointer
     * is garbage on purpose: the core must not read it. */
    return host->register_backend(host, RLX_ABI_VERSION_MAKE(2, 0),
                                  (const rlx_backend_info *)(uintptr_t)16);
}
