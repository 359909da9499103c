/*
 * ffi.c - calling a custom node's kernel through libffi. At compile time
 * the library is loaded if the application allowed it (ffi_lib.c), the
 * symbol found, every scalar
 * argument converted to its C type and the call interface prepared
 * (ffi_prep_cif) once; a run fills in the tensor pointers and calls
 * (ffi_call). A kernel returning a non-zero status fails the run.
 */
#include <dlfcn.h>
#include <ffi.h>
#include <stdlib.h>
#include <string.h>

#include "ffi.h"

typedef union rlx__scalar {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    void *ptr;
} rlx__scalar;

struct rlx__custom_call {
    char *node;                 /* for messages */
    char *symbol;               /* or "the application's function" */
    char *signature;
    void *lib;                  /* dlopen handle, NULL for an application fn */
    rlx_custom_fn fn;
    rlx__ftype ret;
    ffi_cif cif;
    ffi_type *types[RLX__SIG_MAX_ARGS];
    void *values[RLX__SIG_MAX_ARGS];
    rlx__scalar store[RLX__SIG_MAX_ARGS];
    uint32_t n_args;
    /* per argument: the input index of a pointer arg, RLX_CUSTOM_OUTPUT
     * for the output, UINT32_MAX - 1 for a scalar */
    uint32_t source[RLX__SIG_MAX_ARGS];
    int32_t init_input;
    size_t out_bytes;
    /* elementwise: called per output element */
    int each;
    int64_t out_numel;
    rlx_dtype out_dtype;
    rlx_dtype arg_dtype[RLX__SIG_MAX_ARGS]; /* tensor args' dtypes */
    int arg_scalar[RLX__SIG_MAX_ARGS];      /* one element: broadcast */
};

#define SCALAR (UINT32_MAX - 1)

static ffi_type *ffi_type_of(rlx__ftype t)
{
    switch (t) {
    case RLX__FT_I8: return &ffi_type_sint8;
    case RLX__FT_I16: return &ffi_type_sint16;
    case RLX__FT_I32: return &ffi_type_sint32;
    case RLX__FT_I64: return &ffi_type_sint64;
    case RLX__FT_U8: return &ffi_type_uint8;
    case RLX__FT_U16: return &ffi_type_uint16;
    case RLX__FT_U32: return &ffi_type_uint32;
    case RLX__FT_U64: return &ffi_type_uint64;
    case RLX__FT_F32: return &ffi_type_float;
    case RLX__FT_F64: return &ffi_type_double;
    case RLX__FT_PTR: return &ffi_type_pointer;
    default: return &ffi_type_void;
    }
}

/* Store integer V (checked to fit when the node was added) as type T. */
static void store_int(rlx__scalar *s, rlx__ftype t, int64_t v)
{
    switch (t) {
    case RLX__FT_I8: s->i8 = (int8_t)v; break;
    case RLX__FT_I16: s->i16 = (int16_t)v; break;
    case RLX__FT_I32: s->i32 = (int32_t)v; break;
    case RLX__FT_I64: s->i64 = v; break;
    case RLX__FT_U8: s->u8 = (uint8_t)v; break;
    case RLX__FT_U16: s->u16 = (uint16_t)v; break;
    case RLX__FT_U32: s->u32 = (uint32_t)v; break;
    case RLX__FT_U64: s->u64 = (uint64_t)v; break;
    case RLX__FT_F32: s->f32 = (float)v; break;
    case RLX__FT_F64: s->f64 = (double)v; break;
    default: break;
    }
}

void rlx__custom_call_free(rlx__custom_call *c)
{
    if (!c)
        return;
    if (c->lib)
        dlclose(c->lib);
    free(c->node);
    free(c->symbol);
    free(c->signature);
    free(c);
}

static const rlx__node *tensor_of(const rlx_graph *g, const rlx__node *n,
                                  uint32_t index)
{
    return index == RLX_CUSTOM_OUTPUT ? n : &g->nodes[n->inputs[index]];
}

rlx_status rlx__custom_prepare(const rlx_graph *g, uint32_t node,
                               const rlx__allow *own, rlx_runtime *rt,
                               rlx__custom_call **out)
{
    const rlx__node *n = &g->nodes[node];
    const rlx__custom *spec = n->custom;
    *out = NULL;
    rlx__custom_call *c = calloc(1, sizeof *c);
    if (!c)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    c->node = rlx__strdup(n->name);
    c->symbol = rlx__strdup(spec->symbol ? spec->symbol
                                         : "the application's function");
    c->signature = rlx__strdup(spec->signature);
    if (!c->node || !c->symbol || !c->signature) {
        rlx__custom_call_free(c);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    c->fn = spec->fn;
    if (spec->library) {
        /* what the application allowed the session being compiled */
        rlx__allow *allow = NULL;
        rlx_status st = rlx__allow_snapshot(own, rt, &allow);
        if (st == RLX_OK)
            st = rlx__custom_open(n->name, spec->library, spec->base_dir,
                                  spec->symbol, spec->signature, allow,
                                  &c->lib, &c->fn);
        rlx__allow_free(allow);
        if (st != RLX_OK) {
            rlx__custom_call_free(c);
            return st;
        }
    }
    c->ret = spec->sig.ret;
    c->n_args = spec->n_args;
    c->init_input = spec->init_input;
    c->out_numel = rlx__shape_elements(n->rank, n->shape);
    c->out_bytes = (size_t)c->out_numel * rlx_dtype_size(n->dtype);
    c->out_dtype = n->dtype;
    c->each = (spec->flags & RLX_CUSTOM_ELEMENTWISE) != 0;
    for (uint32_t i = 0; i < spec->n_args; i++) {
        const rlx_custom_arg *a = &spec->args[i];
        rlx__ftype t = spec->sig.args[i];
        const rlx__node *ten;
        int64_t axis;
        c->types[i] = ffi_type_of(t);
        c->values[i] = &c->store[i];
        c->source[i] = SCALAR;
        switch (a->kind) {
        case RLX_CUSTOM_ARG_TENSOR:
            c->source[i] = a->index;
            ten = tensor_of(g, n, a->index);
            c->arg_dtype[i] = ten->dtype;
            c->arg_scalar[i] = rlx__shape_elements(ten->rank,
                                                   ten->shape) == 1;
            break;
        case RLX_CUSTOM_ARG_NUMEL:
            ten = tensor_of(g, n, a->index);
            store_int(&c->store[i], t,
                      rlx__shape_elements(ten->rank, ten->shape));
            break;
        case RLX_CUSTOM_ARG_DIM:
            ten = tensor_of(g, n, a->index);
            axis = a->axis < 0 ? (int64_t)a->axis + ten->rank : a->axis;
            store_int(&c->store[i], t, ten->shape[axis]);
            break;
        case RLX_CUSTOM_ARG_INT:
            store_int(&c->store[i], t, a->i);
            break;
        case RLX_CUSTOM_ARG_FLOAT:
            if (t == RLX__FT_F32)
                c->store[i].f32 = (float)a->f;
            else
                c->store[i].f64 = a->f;
            break;
        }
    }
    ffi_status fst = ffi_prep_cif(&c->cif, FFI_DEFAULT_ABI, c->n_args,
                                  ffi_type_of(c->ret), c->types);
    if (fst != FFI_OK) {
        rlx_status st = rlx__error(RLX_ERR_UNSUPPORTED,
                                   "custom node '%s' (%s, signature "
                                   "\"%s\"): libffi cannot prepare this "
                                   "call (ffi_prep_cif status %d). Fix: use "
                                   "a simpler signature, or wrap the kernel",
                                   c->node, c->symbol, c->signature,
                                   (int)fst);
        rlx__custom_call_free(c);
        return st;
    }
    *out = c;
    return RLX_OK;
}

/* Element I of DTYPE at BASE into S (the types elementwise allows). */
static void load(rlx__scalar *s, rlx_dtype dtype, const void *base,
                 int64_t i)
{
    size_t es = rlx_dtype_size(dtype);
    memcpy(s, (const char *)base + (size_t)i * es, es);
}

/* The result RV of an elementwise call into element I of OUTPUT. Narrow
 * integers come back widened to an ffi_arg. */
static void store(const rlx__custom_call *c, const void *rv, void *output,
                  int64_t i)
{
    char *dst = (char *)output + (size_t)i * rlx_dtype_size(c->out_dtype);
    ffi_sarg w;
    switch (c->out_dtype) {
    case RLX_DTYPE_F32: memcpy(dst, rv, sizeof(float)); break;
    case RLX_DTYPE_F64: memcpy(dst, rv, sizeof(double)); break;
    case RLX_DTYPE_I64: memcpy(dst, rv, sizeof(int64_t)); break;
    case RLX_DTYPE_I32:
        memcpy(&w, rv, sizeof w);
        *(int32_t *)(void *)dst = (int32_t)w;
        break;
    case RLX_DTYPE_I8:
        memcpy(&w, rv, sizeof w);
        *(int8_t *)dst = (int8_t)w;
        break;
    case RLX_DTYPE_U8:
        memcpy(&w, rv, sizeof w);
        *(uint8_t *)dst = (uint8_t)w;
        break;
    default: break;
    }
}

static void invoke_each(rlx__custom_call *c, const void *const *inputs,
                        void *output)
{
    union {
        ffi_arg a;
        double d;
        float f;
        int64_t i;
    } rv;
    for (int64_t e = 0; e < c->out_numel; e++) {
        for (uint32_t i = 0; i < c->n_args; i++)
            if (c->source[i] != SCALAR)
                load(&c->store[i], c->arg_dtype[i], inputs[c->source[i]],
                     c->arg_scalar[i] ? 0 : e);
        ffi_call(&c->cif, c->fn, &rv, c->values);
        store(c, &rv, output, e);
    }
}

rlx_status rlx__custom_invoke(rlx__custom_call *c, const void *const *inputs,
                              void *output)
{
    if (c->each) {
        invoke_each(c, inputs, output);
        return RLX_OK;
    }
    if (c->init_input >= 0 && c->out_bytes)
        memcpy(output, inputs[c->init_input], c->out_bytes);
    for (uint32_t i = 0; i < c->n_args; i++) {
        uint32_t s = c->source[i];
        if (s == RLX_CUSTOM_OUTPUT)
            c->store[i].ptr = output;
        else if (s != SCALAR)
            /* inputs are read-only by contract (docs/custom-ops.md) */
            c->store[i].ptr = (void *)(uintptr_t)inputs[s];
    }
    /* libffi widens integer results to a full ffi_arg */
    union {
        ffi_arg u;
        ffi_sarg s;
        uint64_t u64;
    } rv = { 0 };
    ffi_call(&c->cif, c->fn, &rv, c->values);
    int64_t status = 0;
    switch (c->ret) {
    case RLX__FT_VOID: break;
    case RLX__FT_I8: status = (int8_t)rv.s; break;
    case RLX__FT_I16: status = (int16_t)rv.s; break;
    case RLX__FT_I32: status = (int32_t)rv.s; break;
    case RLX__FT_I64: status = (int64_t)rv.u64; break;
    case RLX__FT_U8: status = (uint8_t)rv.u; break;
    case RLX__FT_U16: status = (uint16_t)rv.u; break;
    case RLX__FT_U32: status = (uint32_t)rv.u; break;
    case RLX__FT_U64: status = rv.u64 != 0; break;
    default: break;
    }
    if (status != 0)
        return rlx__error(RLX_ERR_BACKEND,
                          "custom node '%s': %s (signature \"%s\") returned "
                          "status %lld. Fix: see that function's "
                          "documentation for what the status means; its "
                          "output is not used",
                          c->node, c->symbol, c->signature,
                          (long long)(c->ret == RLX__FT_U64 ? (int64_t)rv.u64
                                                            : status));
    return RLX_OK;
}
