/*
 * onnx-util.c - see onnx-util.h.
 */
#include "onnx-util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

void *ox_keep(ox_model *x, void *p)
{
    void **grown = realloc(x->allocs, (x->n_allocs + 1) * sizeof *grown);
    if (!grown || !p) {
        fprintf(stderr, "onnx-util: out of memory\n");
        abort();
    }
    x->allocs = grown;
    x->allocs[x->n_allocs++] = p;
    return p;
}

static void *zalloc(ox_model *x, size_t n)
{
    return ox_keep(x, calloc(1, n ? n : 1));
}

static char *dup(ox_model *x, const char *s)
{
    return strcpy(zalloc(x, strlen(s) + 1), s);
}

/* Append P to the array *ARR of *N pointers. */
static void push(ox_model *x, void ***arr, size_t *n, void *p)
{
    void **grown = zalloc(x, (*n + 1) * sizeof *grown);
    if (*n)
        memcpy(grown, *arr, *n * sizeof *grown);
    grown[(*n)++] = p;
    *arr = grown;
}

ox_model *ox_new(int64_t ir_version, int64_t opset)
{
    ox_model *x = calloc(1, sizeof *x);
    if (!x)
        abort();
    onnx__model_proto__init(&x->m);
    onnx__graph_proto__init(&x->g);
    x->m.has_ir_version = 1;
    x->m.ir_version = ir_version;
    x->m.graph = &x->g;
    x->g.name = "test";
    Onnx__OperatorSetIdProto *o = zalloc(x, sizeof *o);
    onnx__operator_set_id_proto__init(o);
    o->domain = "";
    o->has_version = 1;
    o->version = opset;
    push(x, (void ***)&x->m.opset_import, &x->m.n_opset_import, o);
    return x;
}

void ox_free(ox_model *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->n_allocs; i++)
        free(x->allocs[i]);
    free(x->allocs);
    free(x);
}

static Onnx__ValueInfoProto *value_info(ox_model *x, const char *name,
                                        int32_t type, uint32_t rank,
                                        const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = zalloc(x, sizeof *vi);
    Onnx__TypeProto *tp = zalloc(x, sizeof *tp);
    Onnx__TypeProto__Tensor *tt = zalloc(x, sizeof *tt);
    Onnx__TensorShapeProto *sp = zalloc(x, sizeof *sp);
    onnx__value_info_proto__init(vi);
    onnx__type_proto__init(tp);
    onnx__type_proto__tensor__init(tt);
    onnx__tensor_shape_proto__init(sp);
    for (uint32_t i = 0; i < rank; i++) {
        Onnx__TensorShapeProto__Dimension *d = zalloc(x, sizeof *d);
        onnx__tensor_shape_proto__dimension__init(d);
        if (dims[i] < 0) {
            d->value_case =
                ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
            d->dim_param = "batch";
        } else {
            d->value_case =
                ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            d->dim_value = dims[i];
        }
        push(x, (void ***)&sp->dim, &sp->n_dim, d);
    }
    tt->has_elem_type = 1;
    tt->elem_type = type;
    tt->shape = sp;
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    vi->name = dup(x, name);
    vi->type = tp;
    return vi;
}

void ox_input(ox_model *x, const char *name, int32_t type, uint32_t rank,
              const int64_t *dims)
{
    push(x, (void ***)&x->g.input, &x->g.n_input,
         value_info(x, name, type, rank, dims));
}

void ox_output(ox_model *x, const char *name, int32_t type, uint32_t rank,
               const int64_t *dims)
{
    push(x, (void ***)&x->g.output, &x->g.n_output,
         value_info(x, name, type, rank, dims));
}

Onnx__NodeProto *ox_node(ox_model *x, const char *op, const char *const *ins,
                         const char *const *outs)
{
    Onnx__NodeProto *n = zalloc(x, sizeof *n);
    onnx__node_proto__init(n);
    n->op_type = dup(x, op);
    for (; ins && *ins; ins++)
        push(x, (void ***)&n->input, &n->n_input, dup(x, *ins));
    for (; outs && *outs; outs++)
        push(x, (void ***)&n->output, &n->n_output, dup(x, *outs));
    n->name = n->n_output ? n->output[0] : "";
    push(x, (void ***)&x->g.node, &x->g.n_node, n);
    return n;
}

static Onnx__AttributeProto *attr(ox_model *x, Onnx__NodeProto *n,
                                  const char *name,
                                  Onnx__AttributeProto__AttributeType t)
{
    Onnx__AttributeProto *a = zalloc(x, sizeof *a);
    onnx__attribute_proto__init(a);
    a->name = dup(x, name);
    a->has_type = 1;
    a->type = t;
    push(x, (void ***)&n->attribute, &n->n_attribute, a);
    return a;
}

void ox_attr_int(ox_model *x, Onnx__NodeProto *n, const char *name,
                 int64_t v)
{
    Onnx__AttributeProto *a =
        attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
}

void ox_attr_float(ox_model *x, Onnx__NodeProto *n, const char *name,
                   float v)
{
    Onnx__AttributeProto *a =
        attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
}

void ox_attr_ints(ox_model *x, Onnx__NodeProto *n, const char *name,
                  size_t count, const int64_t *v)
{
    Onnx__AttributeProto *a =
        attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    a->n_ints = count;
    a->ints = zalloc(x, count * sizeof *v);
    memcpy(a->ints, v, count * sizeof *v);
}

void ox_attr_str_same(ox_model *x, Onnx__NodeProto *n)
{
    Onnx__AttributeProto *a =
        attr(x, n, "auto_pad", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.data = (uint8_t *)"SAME_UPPER";
    a->s.len = 10;
}

void ox_attr_string(ox_model *x, Onnx__NodeProto *n, const char *name,
                    const char *v)
{
    Onnx__AttributeProto *a =
        attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s.data = (uint8_t *)dup(x, v);
    a->s.len = strlen(v);
}

void ox_attr_graph(ox_model *x, Onnx__NodeProto *n, const char *name,
                   Onnx__GraphProto *g)
{
    Onnx__AttributeProto *a =
        attr(x, n, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = g;
}

Onnx__TensorProto *ox_init(ox_model *x, const char *name, int32_t type,
                           uint32_t rank, const int64_t *dims,
                           const void *data, size_t nbytes)
{
    Onnx__TensorProto *t = zalloc(x, sizeof *t);
    onnx__tensor_proto__init(t);
    t->name = dup(x, name);
    t->has_data_type = 1;
    t->data_type = type;
    t->n_dims = rank;
    t->dims = zalloc(x, rank * sizeof *dims);
    if (rank) /* a scalar passes no dims */
        memcpy(t->dims, dims, rank * sizeof *dims);
    t->has_raw_data = 1;
    t->raw_data.len = nbytes;
    t->raw_data.data = zalloc(x, nbytes);
    if (nbytes)
        memcpy(t->raw_data.data, data, nbytes);
    push(x, (void ***)&x->g.initializer, &x->g.n_initializer, t);
    return t;
}

uint8_t *ox_pack(ox_model *x, size_t *len)
{
    *len = onnx__model_proto__get_packed_size(&x->m);
    uint8_t *buf = malloc(*len ? *len : 1);
    if (!buf)
        abort();
    onnx__model_proto__pack(&x->m, buf);
    return buf;
}

const char *ox_write(ox_model *x, const char *name)
{
    size_t len;
    uint8_t *buf = ox_pack(x, &len);
    const char *path = rlx_test_path(name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "onnx-util: cannot write %s\n", path);
        abort();
    }
    free(buf);
    return path;
}

void ox_expect_fail(const char *path, rlx_status st, const char *needle)
{
    rlx_model *m = NULL;
    rlx_status got = rlx_model_load(path, &m);
    if (got == RLX_OK)
        rlx_model_destroy(m);
    ASSERT_EQ(got, st);
    ASSERT(m == NULL);
    ASSERT_CONTAINS(rlx_last_error(), needle);
    ASSERT_CONTAINS(rlx_last_error(), "Fix:");
}

void run_open(run *r, ox_model *x, const char *file)
{
    memset(r, 0, sizeof *r);
    const char *path = ox_write(x, file);
    ox_free(x);
    ASSERT_OK(rlx_model_load(path, &r->m));
    ASSERT_OK(rlx_runtime_create(&r->rt, RLX_RUNTIME_NO_DISCOVERY));
    ASSERT_OK(rlx_session_create(r->rt, "cpu-ref", &r->s));
    ASSERT_OK(rlx_model_compile(r->m, r->s, &r->p));
}

void run_close(run *r)
{
    rlx_program_destroy(r->p);
    rlx_session_destroy(r->s);
    rlx_runtime_destroy(r->rt);
    rlx_model_destroy(r->m);
}

const void *ox_out(rlx_program *p, const char *name, rlx_dtype dt,
                   size_t count)
{
    for (uint32_t i = 0; i < rlx_program_output_count(p); i++) {
        const char *nm;
        rlx_dtype d;
        rlx_program_slot(p, RLX_SLOT_OUTPUT, i, &nm, &d, NULL, NULL);
        if (strcmp(nm, name) != 0)
            continue;
        size_t nb;
        const void *data = rlx_program_output_data(p, i, &nb);
        ASSERT_EQ(d, dt);
        ASSERT_EQ(nb, count * rlx_dtype_size(dt));
        return data;
    }
    FAIL("no output '%s'", name);
}

const void *out(run *r, const char *name, rlx_dtype dt, size_t count)
{
    return ox_out(r->p, name, dt, count);
}

void expect(const float *got, const float *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i] &&
            !(fabsf(got[i] - want[i]) <= 1e-5f + 1e-5f * fabsf(want[i])))
            FAIL("element %zu: %.7g, expected %.7g", i, got[i], want[i]);
}
