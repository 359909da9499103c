/*
 * conformance_edge.h - one edge case of docs/ops.md as `rlx conformance`
 * runs it (conformance_edge.c) and the helpers that build it, shared by
 * the files that hold the cases: conformance_edge.c and
 * conformance_edge14.c (the ABI 1.4 elementwise ops and integer math).
 */
#ifndef RLX_TOOLS_CONFORMANCE_EDGE_H
#define RLX_TOOLS_CONFORMANCE_EDGE_H

#include <string.h>

#include "cli.h"
#include "conformance.h"

#define EDGE_MAX_OUT 256

typedef struct edge {
    const char *name;     /* "relu of NaN and -0" */
    const char *section;  /* anchor in ops.md */
    conf_case c;
    uint32_t rank;        /* expected result */
    int64_t dims[CLI_TENSOR_MAX_RANK];
    double want[EDGE_MAX_OUT];
    int check_sign;       /* the sign of a zero result matters */
    double tol;           /* relative and absolute */
    rlx_dtype out;        /* the result's dtype: f32 unless set */
} edge;

/* An input of dtype DT; V NULL gives 0, 1, 2, ... */
static inline int input_of(edge *e, rlx_dtype dt, uint32_t rank,
                           const int64_t *dims, const double *v)
{
    cli_tensor *t = &e->c.inputs[e->c.n_inputs];
    if (cli_tensor_alloc(t, dt, rank, dims) != 0)
        return -1;
    e->c.n_inputs++;
    for (size_t i = 0; i < t->count; i++)
        cli_tensor_set(t, i, v ? v[i] : (double)i);
    return 0;
}

static inline int input(edge *e, uint32_t rank, const int64_t *dims,
                        const double *v)
{
    return input_of(e, RLX_DTYPE_F32, rank, dims, v);
}

static inline void begin(edge *e, const char *name, const char *section,
                         rlx_op op)
{
    memset(e, 0, sizeof *e);
    e->name = name;
    e->section = section;
    e->c.op = op;
    e->tol = 1e-6;
    e->out = RLX_DTYPE_F32;
    cli_format(e->c.desc, sizeof e->c.desc, "%s", name);
}

static inline void result(edge *e, uint32_t rank, const int64_t *dims,
                          const double *want, size_t n)
{
    e->rank = rank;
    memcpy(e->dims, dims, rank * sizeof *dims);
    if (n) /* an empty result passes no values */
        memcpy(e->want, want, n * sizeof *want);
}

static inline void ints(edge *e, uint32_t n, const int64_t *v)
{
    e->c.n_ints = n;
    memcpy(e->c.ints, v, n * sizeof *v);
}

/* The ABI 1.4 cases: case I into E, 0; 1 past the last; -1 out of
 * memory. */
#define CONF_EDGE14_COUNT 17
int cli_conf_edge14_make(int i, edge *e);
/* The quantization cases (conformance_edge_quant.c), likewise. */
#define CONF_EDGE_QUANT_COUNT 6
int cli_conf_edge_quant_make(int i, edge *e);

#endif
