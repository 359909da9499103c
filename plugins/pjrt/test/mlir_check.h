/*
 * mlir_check.h - a structural checker for the StableHLO text the bridge
 * writes (there is no StableHLO parser packaged for Debian: mlir-opt
 * does not know the dialect). It checks what a parser would reject
 * first: balanced brackets, every %value defined once and before use,
 * operand types equal to the types their values were defined with,
 * result counts, and that func.return matches the function's results.
 */
#ifndef RLX_PJRT_MLIR_CHECK_H
#define RLX_PJRT_MLIR_CHECK_H

#include <stddef.h>

/* 0 when TEXT is well formed, else -1 with the first problem in WHY. */
int mlir_check(const char *text, char *why, size_t why_size);

#endif
