/*
 * conformance.h - what the files of `rlx conformance` share: the op list
 * with a generator of random valid cases per op, the tolerances and the
 * comparison, running one case on a session, and the result records the
 * report is printed from.
 */
#ifndef RLX_TOOLS_CONFORMANCE_H
#define RLX_TOOLS_CONFORMANCE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <rlx/rlx.h>

#include "tensor.h"

#define CONF_MAX_INPUTS 5
#define CONF_MAX_CASES 4
#define CONF_MAX_INTS 32
#define CONF_MAX_FLOATS 16

/* One one-op graph: its inputs (fed as graph inputs) and attributes. */
typedef struct conf_case {
    rlx_op op;
    uint32_t n_inputs;
    cli_tensor inputs[CONF_MAX_INPUTS];
    uint32_t n_ints, n_floats;
    int64_t ints[CONF_MAX_INTS];
    double floats[CONF_MAX_FLOATS];
    int exact;            /* data movement: results must be identical */
    double reduce_len;    /* elements summed per output (scales atol) */
    char desc[200];       /* "[2, 3] + [3]": for the report */
} conf_case;

/* One op of the op set and how its cases are made. */
typedef struct conf_op {
    rlx_op op;
    int movement;         /* data movement: also i32/i64, compared exactly */
    /* Fills C for case WHICH (0 .. CONF_MAX_CASES-1) of DTYPE from RNG.
     * Returns 0, 1 when the op has no such case, -1 out of memory. */
    int (*make)(const struct conf_op *o, rlx_dtype dtype, int which,
                uint64_t *rng, conf_case *c);
    double lo, hi;        /* range of the (first) input's values */
    rlx_dtype result;     /* a fixed result dtype (topk, non_zero: i64),
                             asked of supports_op; 0: the case's dtype */
    unsigned dtypes;      /* CONF_DT_* of the inputs; 0: floats, or the
                             movement dtypes with MOVEMENT */
} conf_op;

/* Case makers of the 1.4 data movement and indexing ops
 * (conformance_index.c), with the signature of conf_op.make. */
#define CLI_CONF_MAKER(name)                                                \
    int cli_conf_make_##name(const conf_op *o, rlx_dtype dtype, int which,  \
                             uint64_t *rng, conf_case *c)
CLI_CONF_MAKER(pad);
CLI_CONF_MAKER(expand);
CLI_CONF_MAKER(tile);
CLI_CONF_MAKER(strided_slice);
CLI_CONF_MAKER(trilu);
CLI_CONF_MAKER(cumsum);
CLI_CONF_MAKER(topk);
CLI_CONF_MAKER(range);
CLI_CONF_MAKER(gather_elements);
CLI_CONF_MAKER(scatter_elements);
CLI_CONF_MAKER(gather_nd);
CLI_CONF_MAKER(scatter_nd);
CLI_CONF_MAKER(one_hot);
CLI_CONF_MAKER(non_zero);

/* conformance_quant.c: the quantization ops. */
CLI_CONF_MAKER(quantize);
CLI_CONF_MAKER(dequantize);
CLI_CONF_MAKER(matmul_integer);
CLI_CONF_MAKER(conv_integer);

const conf_op *cli_conf_ops(size_t *count);

/* conformance_vision.c: the makers of conv, conv_transpose, the pools,
 * resize and the channel norms. */
int cli_conf_make_conv(const conf_op *o, rlx_dtype dtype, int which,
                       uint64_t *rng, conf_case *c);
int cli_conf_make_pool(const conf_op *o, rlx_dtype dtype, int which,
                       uint64_t *rng, conf_case *c);
int cli_conf_make_resize(const conf_op *o, rlx_dtype dtype, int which,
                         uint64_t *rng, conf_case *c);
int cli_conf_make_chnorm(const conf_op *o, rlx_dtype dtype, int which,
                         uint64_t *rng, conf_case *c);
int cli_conf_make_grid_sample(const conf_op *o, rlx_dtype dtype, int which,
                              uint64_t *rng, conf_case *c);
int cli_conf_make_roi_align(const conf_op *o, rlx_dtype dtype, int which,
                            uint64_t *rng, conf_case *c);
/* Nonzero for the float ops also checked on i8 and u8 (max_pool and
 * resize, which only pick input values). */
int cli_conf_takes_bytes(rlx_op op);

/* Input dtype sets of conf_op.dtypes (ABI 1.4 ops and integer math). */
#define CONF_DT_FLOAT 1u  /* f32, f16, bf16 */
#define CONF_DT_INT 2u    /* i8 to i64, u8 to u64 */
#define CONF_DT_SIGNED 4u /* i8, i16, i32, i64 */
#define CONF_DT_BOOL 8u
#define CONF_DT_UNSIGNED 16u /* u8, u16, u32, u64 */
#define CONF_DT_F64 32u
#define CONF_DT_BYTE 64u     /* i8, u8 (quantized data) */
#define CONF_DT_I32 128u     /* i32 */

/* The ops of values 100-149 (conformance_ops14.c). */
const conf_op *cli_conf_ops14(size_t *count);
/* Case makers conformance_ops14.c shares with conformance_ops.c:
 * elementwise of two inputs, of one, and the reductions. */
int cli_conf_make_binary(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c);
int cli_conf_make_unary(const conf_op *o, rlx_dtype dt, int which,
                        uint64_t *rng, conf_case *c);
int cli_conf_make_reduce(const conf_op *o, rlx_dtype dt, int which,
                         uint64_t *rng, conf_case *c);
/* The range of random values for an input of DT: the op's own for
 * floats, a wide one (wrapping arithmetic included) for integers. */
void cli_conf_range(const conf_op *o, rlx_dtype dt, double *lo, double *hi);
/* Fills C for case WHICH of O on DTYPE, with its description; 0, 1 when
 * the op has no such case, -1 out of memory. */
int cli_conf_case_make(const conf_op *o, rlx_dtype dtype, int which,
                       uint64_t *rng, conf_case *c);
void cli_conf_case_free(conf_case *c);

/* ---- comparison ------------------------------------------------------ */

typedef struct conf_tol {
    double rtol, atol;
    int exact;
} conf_tol;

/* Per dtype: f32 1e-5 relative + 1e-6 absolute, f16 1e-3 + 1e-3, bf16
 * 1e-2 + 1e-2, exact for ints and data movement. The absolute part grows
 * with REDUCE_LEN (>= 1); SCALE widens both (whole models). */
conf_tol cli_conf_tolerance(rlx_dtype dtype, int exact, double reduce_len,
                            double scale);

typedef struct conf_diff {
    size_t n_bad;      /* elements outside the tolerance */
    double max_err;    /* largest |got - want| */
    size_t where;      /* flat index of the worst element */
    double got, want;  /* at WHERE */
    int shape_differs;
} conf_diff;

/* GOT (backend under test) against WANT (reference). NaN matches NaN,
 * an infinity matches the same infinity. */
void cli_conf_compare(const cli_tensor *got, const cli_tensor *want,
                      conf_tol tol, conf_diff *d);

/* ---- running --------------------------------------------------------- */

/* Builds C's one-op graph. RLX_OK, or the core's error in ERR. */
rlx_status cli_conf_graph(const conf_case *c, rlx_graph **out, char *err,
                          size_t n);
/* Compiles G on S, feeds C's inputs, runs, copies output 0 into OUT.
 * On failure returns the status, with the message in ERR; *AT_COMPILE
 * says whether compile was the step that failed. */
rlx_status cli_conf_run(rlx_session *s, const rlx_graph *g,
                        const conf_case *c, cli_tensor *out,
                        int *at_compile, char *err, size_t n);

/* ---- results --------------------------------------------------------- */

typedef enum conf_verdict {
    CONF_PASS,
    CONF_FAIL,
    CONF_UNSUPPORTED, /* the backend says it cannot take it */
    CONF_SKIPPED      /* the reference could not run it: nothing to judge */
} conf_verdict;

const char *cli_conf_verdict_name(conf_verdict v);

typedef struct conf_result {
    const char *what;    /* op name, or the model path */
    const char *dtype;   /* "f32"; for a model, the output name */
    int is_model;
    int is_edge;         /* an edge case of docs/ops.md */
    const char *section; /* its anchor in ops.md */
    char name[128];      /* storage for a model's output name */
    conf_verdict verdict;
    int n_cases, n_pass;
    double max_err;
    char detail[600];
} conf_result;

typedef struct conf_report {
    const char *backend, *device, *plugin;
    uint64_t seed;
    char error[1024];     /* set when nothing could be tested: why */
    conf_result *results;
    size_t n, cap;
} conf_report;

/* Appends an entry; NULL when out of memory. */
conf_result *cli_conf_report_add(conf_report *r);
void cli_conf_report_free(conf_report *r);
/* 1 when R shows conformance: something passed and nothing failed. A
 * backend that passes nothing (every op unsupported, or no session) is
 * not conformant. */
int cli_conf_report_conformant(const conf_report *r);
void cli_conf_report_print_text(const conf_report *r, FILE *out);
void cli_conf_report_print_json(const conf_report *r, FILE *out);

/* Op-by-op checks of backend TEST against REF; results go into R. */
int cli_conf_ops_check(rlx_runtime *rt, const rlx_backend *test,
                       rlx_session *ts, rlx_session *rs, uint64_t seed,
                       conf_report *r);
/* The edge cases of docs/ops.md on TS, with the values the doc gives. */
int cli_conf_edge_check(const rlx_backend *test, rlx_session *ts,
                        conf_report *r);
/* The model at PATH on both sessions with the same seeded inputs. */
int cli_conf_model_check(rlx_runtime *rt, const char *path,
                         const char *test_id, uint64_t seed,
                         conf_report *r);

#endif
