/*
 * npy.h - NumPy .npy files (format versions 1.0, 2.0 and 3.0), the way
 * `rlx run` takes inputs and hands back outputs without any other
 * dependency.
 *
 * Supported descriptors: '<f4' '<f2' '<f8' '<i2' '<i4' '<i8' '|i1' '|u1'
 * '<u2' '<u4' '<u8' '|b1', C order only. bf16 has no NumPy type: it
 * travels as '<u2' holding the raw bits, which the reader reports as
 * CLI_NPY_U16 (u16) for the caller to take as bf16 where a bf16 tensor
 * is expected.
 */
#ifndef RLX_TOOLS_NPY_H
#define RLX_TOOLS_NPY_H

#include <stddef.h>

#include "tensor.h"

/* The dtype the reader gives a '<u2' array: u16, or bf16's raw bits. */
#define CLI_NPY_U16 RLX_DTYPE_U16

/* Reads PATH into T (T->dtype may be CLI_NPY_U16, with 2-byte elements).
 * On failure returns -1 and writes a message ending in "Fix: ..." to ERR. */
int cli_npy_read(const char *path, cli_tensor *t, char *err, size_t n);
/* Writes T as a version 1.0 file ('<u2' for bf16). -1 and ERR on failure. */
int cli_npy_write(const char *path, const cli_tensor *t, char *err,
                  size_t n);
/* The descriptor for DTYPE ("<f4"), NULL when it has none. */
const char *cli_npy_descr(rlx_dtype dtype);

#endif
