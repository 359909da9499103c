/*
 * cpu_ref.h - entry point of the built-in reference CPU backend.
 *
 * librlx links this backend in statically and calls the function below
 * with its host table instead of dlopen-ing a plugin file, so the same
 * registration path serves built-in and external backends alike.
 */
#ifndef RLX_CPU_REF_H
#define RLX_CPU_REF_H

#include <rlx/plugin.h>

/* Register the "cpu-ref" backend with HOST. */
rlx_status rlx__cpu_ref_init(const rlx_host *host);

#endif /* RLX_CPU_REF_H */
