/*
 * model-util.h - what the model-file tests share (model-util.c), used by
 * test-model.c and test-model-errors.c: fixture files in the harness's
 * fixture directory (rlx_test_path, removed at exit), safetensors files
 * written valid or byte by byte, loading a model that must load or must
 * fail with the model path and a Fix, and the MLP's weights.
 */
#ifndef RLX_TEST_MODEL_UTIL_H
#define RLX_TEST_MODEL_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/rlx.h>

void write_bytes(const char *name, const void *data, size_t n);
void write_text(const char *name, const char *text);

/* A safetensors file: the header length (LEN_OVERRIDE if nonzero), the
 * header text as given, then DATA. */
void write_st_raw(const char *name, const char *header,
                  uint64_t len_override, const void *data, size_t n);

typedef struct st_tensor {
    const char *name;
    int rank;
    int64_t dims[4];
    const float *data; /* numel floats */
} st_tensor;

/* A valid F32 safetensors file holding TENSORS, packed in order. */
void write_st(const char *name, const st_tensor *t, int n);

/* Load YAML (written as NAME); it must load. */
rlx_model *load_ok(const char *name, const char *yaml);

/* Load YAML (written as NAME); expect STATUS; return the message, which
 * must start with the model path and hold a Fix. */
const char *load_fail(const char *name, const char *yaml,
                      rlx_status status);

/* The MLP's weights (test-model.c's valid_mlp_runs), and a safetensors
 * file NAME holding them as w1, b1, w2, b2. */
extern const float W1[6], B1[3], W2[6], B2[2];
void write_mlp_weights(const char *name);

#endif
