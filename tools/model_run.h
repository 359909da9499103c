/*
 * model_run.h - what `rlx run` and `rlx conformance --models` share: load
 * a YAML model, compile it on a device with its weights, feed inputs
 * (from files or made up from a seed), run, and copy the outputs out.
 * Errors are printed here, once, in the tool's "rlx: ..." form.
 */
#ifndef RLX_TOOLS_MODEL_RUN_H
#define RLX_TOOLS_MODEL_RUN_H

#include <stdint.h>

#include <rlx/rlx.h>

#include "tensor.h"

/* Loads PATH; on failure prints rlx_model_load's message as it is. */
int cli_model_open(const char *path, rlx_model **out);

/* rlx_model_destroy and rlx_model_name, through this file's checks. */
void cli_model_close(rlx_model *m);
const char *cli_model_name(const rlx_model *m);

/* A compiled model on one backend. */
typedef struct cli_model_exec {
    rlx_session *session;
    rlx_program *program;
    double compile_ms; /* compile plus setting the params */
    rlx_status status; /* the failed call's status, when create failed */
    char error[512];   /* and its message (rlx_last_error()) */
} cli_model_exec;

/* Opens a session on DEVICE (NULL: the best available), compiles the
 * model's graph and sets its params. CLI_EXIT_* with the error printed. */
int cli_model_exec_create(rlx_runtime *rt, const rlx_model *m,
                          const char *device, cli_model_exec *x);
/* The same with a fallback policy (an rlx_fallback, or -1: the
 * session's default). */
int cli_model_exec_create_ex(rlx_runtime *rt, const rlx_model *m,
                             const char *device, int fallback,
                             cli_model_exec *x);
void cli_model_exec_destroy(cli_model_exec *x);
/* "split", "whole", "none" -> rlx_fallback; -1 for anything else. */
int cli_fallback_parse(const char *s);
/* `--shape NAME=d0,d1,...`: give an input of M concrete dims (ONNX
 * models with symbolic dimensions). CLI exit code. */
int cli_model_shape(rlx_model *m, const char *spec);

/* Input I of P filled from SEED: floats uniform in [-1, 1), ints in
 * {0, 1}, independent of the other inputs and of their order. */
int cli_input_seeded(const rlx_program *p, uint32_t i, uint64_t seed,
                     cli_tensor *out);
/* Sets input NAME from T (whose shape and dtype were checked). */
int cli_input_set(rlx_program *p, const char *name, const cli_tensor *t);
/* Copies output I of the last run into OUT (caller frees). */
int cli_output_copy(const rlx_program *p, uint32_t i, cli_tensor *out);

double cli_now_ms(void);

/* --allow-custom-ops LIB|DIR (repeatable): a model's custom ops load only
 * the libraries the user allows (docs/security.md). */
#define CLI_ALLOW_MAX 16
typedef struct cli_allow {
    const char *paths[CLI_ALLOW_MAX];
    int n;
} cli_allow;
/* Takes ARGV[*I] when it is --allow-custom-ops: 1 taken, 0 not that
 * option, or a usage error's exit code (negated) for CMD. */
int cli_allow_option(int argc, char **argv, int *i, const char *cmd,
                     cli_allow *a);
/* rlx_runtime_allow_custom_ops for each; CLI_EXIT_* with the error
 * printed. */
int cli_allow_apply(rlx_runtime *rt, const cli_allow *a);

#endif
