/*
 * tensor.h - a host tensor the tool owns (inputs it reads or makes up,
 * outputs it copies out), element access as double for any dtype, and a
 * seeded generator, so `rlx run` and `rlx conformance` produce the same
 * numbers on every machine.
 */
#ifndef RLX_TOOLS_TENSOR_H
#define RLX_TOOLS_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/rlx.h>

#define CLI_TENSOR_MAX_RANK 8

typedef struct cli_tensor {
    rlx_dtype dtype;
    uint32_t rank;
    int64_t dims[CLI_TENSOR_MAX_RANK];
    size_t count;  /* elements */
    size_t nbytes;
    void *data;    /* malloc'd, never NULL once allocated (count 0: 1 byte) */
} cli_tensor;

/* Element count of a shape; -1 when a dim is negative or it overflows. */
int64_t cli_shape_count(uint32_t rank, const int64_t *dims);
/* Zero-filled. -1 on a bad shape, unknown dtype or no memory. */
int cli_tensor_alloc(cli_tensor *t, rlx_dtype dtype, uint32_t rank,
                     const int64_t *dims);
void cli_tensor_free(cli_tensor *t);

/* Element I as a double; bool and ints exactly. */
double cli_tensor_get(const cli_tensor *t, size_t i);
double cli_element_get(rlx_dtype dtype, const void *data, size_t i);
/* Element I from a double: rounds to nearest even for floats, truncates
 * and saturates for ints. */
void cli_tensor_set(cli_tensor *t, size_t i, double v);

/* splitmix64: a seed per (seed, name) keeps inputs independent of their
 * order; uniform draws in [0, 1). */
uint64_t cli_rng_seed(uint64_t seed, const char *name);
uint64_t cli_rng_next(uint64_t *state);
double cli_rng_uniform(uint64_t *state);

/* Floats uniform in [lo, hi); ints uniform over the integers in [lo, hi). */
void cli_tensor_fill_uniform(cli_tensor *t, uint64_t *state, double lo,
                             double hi);

/* "[2, 3]"; "[]" for a scalar. Truncates to N. */
void cli_shape_format(char *buf, size_t n, uint32_t rank,
                      const int64_t *dims);
/* The multi-index of flat element I of a shape, as "[1, 0, 2]". */
void cli_index_format(char *buf, size_t n, uint32_t rank,
                      const int64_t *dims, size_t i);

#endif
