/*
 * onnx-util.h - the ONNX tests' model builder: a ModelProto assembled
 * with the protobuf-c code generated from onnx.proto (the same the
 * loader uses), written to the harness's fixture directory, plus helpers
 * that load a model and run it on cpu-ref.
 */
#ifndef RLX_TEST_ONNX_UTIL_H
#define RLX_TEST_ONNX_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <rlx/rlx.h>

#include "onnx.pb-c.h"

typedef struct ox_model {
    Onnx__ModelProto m;
    Onnx__GraphProto g;
    void **allocs;
    size_t n_allocs;
} ox_model;

/* ONNX element types used by the tests */
#define OX_F32 ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT
#define OX_I64 ONNX__TENSOR_PROTO__DATA_TYPE__INT64
#define OX_BOOL ONNX__TENSOR_PROTO__DATA_TYPE__BOOL

ox_model *ox_new(int64_t ir_version, int64_t opset);
void ox_free(ox_model *x);
/* Graph input/output NAME; a dim of -1 is the symbolic "batch". */
void ox_input(ox_model *x, const char *name, int32_t type, uint32_t rank,
              const int64_t *dims);
void ox_output(ox_model *x, const char *name, int32_t type, uint32_t rank,
               const int64_t *dims);
/* A node OP; INS and OUTS are NULL-terminated lists ("" for an empty
 * optional input). */
Onnx__NodeProto *ox_node(ox_model *x, const char *op, const char *const *ins,
                         const char *const *outs);
void ox_attr_int(ox_model *x, Onnx__NodeProto *n, const char *name,
                 int64_t v);
void ox_attr_float(ox_model *x, Onnx__NodeProto *n, const char *name,
                   float v);
void ox_attr_ints(ox_model *x, Onnx__NodeProto *n, const char *name,
                  size_t count, const int64_t *v);
void ox_attr_string(ox_model *x, Onnx__NodeProto *n, const char *name,
                    const char *v);
/* auto_pad = SAME_UPPER */
void ox_attr_str_same(ox_model *x, Onnx__NodeProto *n);
void ox_attr_graph(ox_model *x, Onnx__NodeProto *n, const char *name,
                   Onnx__GraphProto *g);
/* Initializer NAME with raw data (COUNT elements of ELEM_SIZE bytes). */
Onnx__TensorProto *ox_init(ox_model *x, const char *name, int32_t type,
                           uint32_t rank, const int64_t *dims,
                           const void *data, size_t nbytes);
/* Track P for ox_free; returns it. */
void *ox_keep(ox_model *x, void *p);
/* Serialize to the fixture file NAME; returns its path. */
const char *ox_write(ox_model *x, const char *name);
/* Serialized bytes (malloc'd). */
uint8_t *ox_pack(ox_model *x, size_t *len);

/* Load PATH, which must fail with status ST and a message containing
 * NEEDLE (and "Fix:"). */
void ox_expect_fail(const char *path, rlx_status st, const char *needle);

/* A model compiled on cpu-ref, as the lowering tests run them. */
typedef struct run {
    rlx_runtime *rt;
    rlx_session *s;
    rlx_model *m;
    rlx_program *p;
} run;

/* Write X to the fixture FILE (freeing X), load it and compile it. */
void run_open(run *r, ox_model *x, const char *file);
void run_close(run *r);
/* Output NAME of P's last run, which must hold COUNT elements of DT. */
const void *ox_out(rlx_program *p, const char *name, rlx_dtype dt,
                   size_t count);
/* The same for the program of R. */
const void *out(run *r, const char *name, rlx_dtype dt, size_t count);
/* GOT[i] equals WANT[i], or lies within 1e-5 + 1e-5 * |WANT[i]|. */
void expect(const float *got, const float *want, size_t n);

#endif
