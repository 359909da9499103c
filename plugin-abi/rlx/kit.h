/*
 * rlx/kit.h - the plugin kit: helpers every backend needs, over the ABI
 * types, so in-tree and out-of-tree backends share one copy (as Lua's
 * luaL_ helpers sit over lua_):
 *
 *   kit_error.h  printf-style rlx_kit_fail / rlx_kit_log through the host
 *   kit_args.h   execute-argument checks, bound device-I/O buffers
 *   kit_attrs.h  node attributes with defaults, struct_size-aware
 *   kit_names.h  op and dtype names, op arity and families
 *   kit_shape.h  counts, axes, broadcast strides, dim collapsing
 *   kit_spatial.h conv and pool attributes and output sizes
 *   kit_plan.h   the liveness memory planner
 *   kit_half.h   f16 / bf16 conversions
 *   kit_index.h  slice bounds with steps, negative indices
 *   kit_match.h  the fused patterns: attention chain, epilogue adds
 *
 * The kit is NOT part of the ABI: everything is static inline, prefixed
 * rlx_kit_ (rlx_kit__ for its internals), and compiles into the plugin
 * that includes it. It exports no symbol and adds no binary interface,
 * so a plugin built with the kit of ABI 1.3 runs in any 1.x core, and
 * the kit may change between releases as long as it keeps compiling.
 * Include this header or only the kit_*.h files a backend needs.
 */
#ifndef RLX_KIT_H
#define RLX_KIT_H

#include "kit_args.h"
#include "kit_attrs.h"
#include "kit_error.h"
#include "kit_half.h"
#include "kit_index.h"
#include "kit_match.h"
#include "kit_names.h"
#include "kit_plan.h"
#include "kit_shape.h"
#include "kit_spatial.h"

#endif /* RLX_KIT_H */
