/*
 * model.c - rlx_model: a graph loaded from an ONNX file (model_onnx.c)
 * or from a YAML model file plus its memory-mapped safetensors weights.
 * Loading is all-or-nothing; the weights stay mapped until the model is
 * destroyed.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

int rlx__model_is_onnx(const char *path)
{
    /* by content (model_sniff.c), or by name for a file too damaged to
     * sniff, so the ONNX loader names what is wrong with it */
    if (rlx__model_format_sniff(path) == RLX__MODEL_FORMAT_ONNX)
        return 1;
    size_t len = strlen(path);
    return len > 5 && strcmp(path + len - 5, ".onnx") == 0;
}

static rlx_status not_a_yaml_model(const char *path);

static rlx_status load_yaml(rlx_model *m)
{
    rlx_status st = not_a_yaml_model(m->path);
    if (st != RLX_OK)
        return st;
    rlx__ynode *root = NULL;
    st = rlx__yaml_load(m->path, &root);
    if (st != RLX_OK)
        return st;
    rlx__model_parts parts;
    st = rlx__model_build(m->path, root, &parts);
    rlx__ynode_free(root);
    if (st != RLX_OK)
        return st;
    m->name = parts.name;
    m->graph = parts.graph;
    m->weights = parts.weights;
    return RLX_OK;
}

/* A file of another kind named as such, not parsed as YAML (whose error
 * about control characters would say nothing useful). */
static rlx_status not_a_yaml_model(const char *path)
{
    switch (rlx__model_format_sniff(path)) {
    case RLX__MODEL_FORMAT_ONNX:
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: this is an ONNX model, but it was not read "
                          "as one. Fix: load it through rlx_model_load "
                          "(docs/model-format.md)", path);
    case RLX__MODEL_FORMAT_SAFETENSORS:
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: this is a safetensors weights file, not a "
                          "model. Fix: pass the YAML model file that names "
                          "it in its 'weights:' key", path);
    case RLX__MODEL_FORMAT_NPY:
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: this is a NumPy .npy array, not a model. Fix: "
                          "pass the YAML model file, and give the array as "
                          "an input (rlx run --input NAME=FILE.npy)", path);
    case RLX__MODEL_FORMAT_UNKNOWN:
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: not a model file (binary data, neither an rlx "
                          "YAML model nor a format rlx recognises). Fix: "
                          "pass an rlx YAML model (docs/model-format.md)",
                          path);
    case RLX__MODEL_FORMAT_YAML:
        break;
    }
    return RLX_OK;
}

rlx_status rlx_model_load(const char *path, rlx_model **out)
{
    if (out)
        *out = NULL;
    if (!path || !*path || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_load: %s is NULL%s. Fix: pass the path "
                          "of a model file and a place for the model",
                          !out ? "OUT" : "PATH",
                          path && !*path ? " or empty" : "");
    rlx_model *m = calloc(1, sizeof *m);
    if (m)
        m->path = rlx__strdup(path);
    if (!m || !m->path) {
        free(m);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    rlx_status st;
    if (rlx__model_is_onnx(path)) {
#ifdef RLX_HAVE_ONNX
        st = rlx__model_onnx_load(m);
#else
        st = rlx__error(RLX_ERR_UNSUPPORTED,
                        "%s is an ONNX model, but this rlx was built "
                        "without ONNX support. Fix: rebuild rlx with "
                        "protobuf-c and libonnx-dev installed (meson "
                        "option onnx)", path);
#endif
    } else {
        st = load_yaml(m);
    }
    if (st != RLX_OK) {
        rlx_model_destroy(m);
        return st;
    }
    *out = m;
    return RLX_OK;
}

void rlx_model_destroy(rlx_model *m)
{
    if (!m)
        return;
#ifdef RLX_HAVE_ONNX
    rlx__model_onnx_free(m);
#endif
    rlx_graph_destroy(m->graph);
    rlx__safetensors_close(m->weights);
    free(m->name);
    free(m->path);
    free(m);
}

const rlx_graph *rlx_model_graph(const rlx_model *m)
{
    if (m && !m->graph && m->pending) /* why, for rlx_last_error */
        rlx__error(m->pending_status, "%s", m->pending);
    else if (m && !m->graph && m->staged)
        rlx__error(RLX_ERR_UNSUPPORTED,
                   "%s: the model has no single graph: it needs run-time "
                   "data between stages (control flow or data-dependent "
                   "shapes). Fix: compile it with rlx_model_compile",
                   m->path);
    return m ? m->graph : NULL;
}

const char *rlx_model_name(const rlx_model *m)
{
    return m ? m->name : NULL;
}

const char *rlx_model_format(const rlx_model *m)
{
    return !m ? NULL : m->onnx ? "onnx" : "rlx";
}

uint32_t rlx_model_source_node_count(const rlx_model *m)
{
    return m ? m->n_report : 0;
}

rlx_status rlx_model_source_node(const rlx_model *m, uint32_t index,
                                 const char **name, const char **op_type,
                                 const char **output, const char **lowered)
{
#ifdef RLX_HAVE_ONNX
    if (m && m->onnx && index < m->n_report)
        return rlx__model_onnx_node(m, index, name, op_type, output,
                                    lowered);
#else
    (void)name, (void)op_type, (void)output, (void)lowered;
#endif
    return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                      "rlx_model_source_node: index %u is out of range (the "
                      "model has %u source nodes). Fix: iterate below "
                      "rlx_model_source_node_count", index,
                      m ? m->n_report : 0);
}

uint32_t rlx_model_input_count(const rlx_model *m)
{
    if (!m)
        return 0;
#ifdef RLX_HAVE_ONNX
    if (m->onnx)
        return rlx__model_onnx_input_count(m);
#endif
    uint32_t n = 0;
    for (rlx_value v = 0; v < rlx_graph_node_count(m->graph); v++) {
        rlx_op op;
        if (rlx_graph_node(m->graph, v, NULL, &op) == RLX_OK &&
            op == RLX_OP_INPUT)
            n++;
    }
    return n;
}

rlx_status rlx_model_input(const rlx_model *m, uint32_t index,
                           const char **name, rlx_dtype *dtype,
                           uint32_t *rank, const int64_t **dims,
                           const char *const **symbols)
{
    if (symbols)
        *symbols = NULL;
    if (!m || index >= rlx_model_input_count(m))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_input: index %u is out of range. Fix: "
                          "iterate below rlx_model_input_count", index);
#ifdef RLX_HAVE_ONNX
    if (m->onnx)
        return rlx__model_onnx_input(m, index, name, dtype, rank, dims,
                                     symbols, NULL);
#endif
    uint32_t k = 0;
    for (rlx_value v = 0; v < rlx_graph_node_count(m->graph); v++) {
        rlx_op op;
        const char *nm;
        if (rlx_graph_node(m->graph, v, &nm, &op) != RLX_OK ||
            op != RLX_OP_INPUT || k++ != index)
            continue;
        rlx_dtype dt;
        uint32_t r;
        const int64_t *d;
        rlx_status st = rlx_graph_value_shape(m->graph, v, &dt, &r, &d);
        if (name)
            *name = nm;
        if (dtype)
            *dtype = dt;
        if (rank)
            *rank = r;
        if (dims)
            *dims = d;
        return st;
    }
    return rlx__error(RLX_ERR_INTERNAL, "rlx_model_input: lost input %u",
                      index);
}

rlx_status rlx_model_set_input_shape(rlx_model *m, const char *name,
                                     uint32_t rank, const int64_t *dims)
{
    if (!m || !name || (rank && !dims))
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_set_input_shape: model, name or dims "
                          "is NULL. Fix: pass all three");
#ifdef RLX_HAVE_ONNX
    if (m->onnx) {
        int done;
        rlx_status ust = rlx__model_onnx_unread_shape(m, name, rank, dims,
                                                      &done);
        if (done || ust != RLX_OK)
            return ust;
        uint32_t n = rlx__model_onnx_input_count(m);
        for (uint32_t i = 0; i < n; i++) {
            const char *nm;
            uint32_t r;
            const int64_t *decl;
            int64_t *cur;
            rlx__model_onnx_input(m, i, &nm, NULL, &r, &decl, NULL, &cur);
            if (strcmp(nm, name) != 0)
                continue;
            if (r != rank)
                return rlx__error(RLX_ERR_SHAPE,
                                  "%s: input '%s' has rank %u; the shape "
                                  "given has rank %u. Fix: give %u dims",
                                  m->path, name, r, rank, r);
            for (uint32_t k = 0; k < r; k++)
                if (dims[k] < 0 || (decl[k] >= 0 && decl[k] != dims[k]))
                    return rlx__error(RLX_ERR_SHAPE,
                                      "%s: input '%s' dimension %u cannot "
                                      "be %lld (declared %lld). Fix: only "
                                      "symbolic dimensions may change",
                                      m->path, name, k, (long long)dims[k],
                                      (long long)decl[k]);
            int64_t old[RLX_MAX_RANK];
            memcpy(old, cur, r * sizeof *old);
            if (memcmp(old, dims, r * sizeof *old) == 0 && m->graph)
                return RLX_OK; /* without a graph: say why again */
            memcpy(cur, dims, r * sizeof *cur);
            rlx_status st = rlx__model_onnx_relower(m);
            if (st != RLX_OK)
                memcpy(cur, old, r * sizeof *old);
            return st;
        }
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "%s: the model has no input named '%s'. Fix: "
                          "see rlx_model_input for its inputs", m->path,
                          name);
    }
#endif
    /* A YAML model's shapes are fixed: only its own shape is accepted. */
    for (rlx_value v = 0; v < rlx_graph_node_count(m->graph); v++) {
        rlx_op op;
        const char *nm;
        rlx_dtype dt;
        uint32_t r;
        const int64_t *d;
        if (rlx_graph_node(m->graph, v, &nm, &op) != RLX_OK ||
            op != RLX_OP_INPUT || strcmp(nm, name) != 0 ||
            rlx_graph_value_shape(m->graph, v, &dt, &r, &d) != RLX_OK)
            continue;
        if (r == rank && memcmp(d, dims, r * sizeof *d) == 0)
            return RLX_OK;
        return rlx__error(RLX_ERR_UNSUPPORTED,
                          "%s: input '%s' of a YAML model has a fixed "
                          "shape. Fix: feed the declared shape, or edit the "
                          "model", m->path, name);
    }
    return rlx__error(RLX_ERR_NOT_FOUND,
                      "%s: the model has no input named '%s'. Fix: see "
                      "rlx_model_input for its inputs", m->path, name);
}

rlx_status rlx__model_set_shapes(rlx_model *m, uint32_t n,
                                 const char *const *names,
                                 const int64_t *sig)
{
#ifdef RLX_HAVE_ONNX
    if (m->onnx) {
        /* every input's dims first, then one lowering: inputs that share
         * a symbolic dimension never meet half-changed */
        uint32_t ni = rlx__model_onnx_input_count(m);
        int64_t (*old)[RLX_MAX_RANK] = calloc(ni ? ni : 1, sizeof *old);
        if (!old)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t i = 0; i < ni; i++) {
            int64_t *cur;
            rlx__model_onnx_input(m, i, NULL, NULL, NULL, NULL, NULL, &cur);
            memcpy(old[i], cur, sizeof old[i]);
        }
        rlx_status st = RLX_OK;
        int changed = 0;
        size_t k = 0;
        for (uint32_t j = 0; j < n && st == RLX_OK; j++) {
            uint32_t rank = (uint32_t)sig[k++];
            const int64_t *dims = sig + k;
            k += rank;
            uint32_t i;
            for (i = 0; i < ni; i++) {
                const char *nm;
                uint32_t r;
                const int64_t *decl;
                int64_t *cur;
                rlx__model_onnx_input(m, i, &nm, NULL, &r, &decl, NULL, &cur);
                if (strcmp(nm, names[j]) != 0)
                    continue;
                for (uint32_t d = 0; d < r && st == RLX_OK; d++)
                    if (r != rank || dims[d] < 0 ||
                        (decl[d] >= 0 && decl[d] != dims[d]))
                        st = rlx__error(RLX_ERR_SHAPE,
                                        "%s: input '%s' cannot take that "
                                        "shape (dimension %u declared "
                                        "%lld). Fix: only symbolic "
                                        "dimensions may change", m->path,
                                        nm, d, (long long)decl[d]);
                if (st == RLX_OK && memcmp(cur, dims, r * sizeof *cur)) {
                    memcpy(cur, dims, r * sizeof *cur);
                    changed = 1;
                }
                break;
            }
        }
        if (st == RLX_OK && changed)
            st = rlx__model_onnx_relower(m);
        if (st != RLX_OK)
            for (uint32_t i = 0; i < ni; i++) {
                int64_t *cur;
                rlx__model_onnx_input(m, i, NULL, NULL, NULL, NULL, NULL,
                                      &cur);
                memcpy(cur, old[i], sizeof old[i]);
            }
        free(old);
        return st;
    }
#endif
    size_t k = 0;
    for (uint32_t j = 0; j < n; j++) {
        uint32_t rank = (uint32_t)sig[k++];
        rlx_status st = rlx_model_set_input_shape(m, names[j], rank, sig + k);
        if (st != RLX_OK)
            return st;
        k += rank;
    }
    return RLX_OK;
}

rlx_status rlx_model_set_input_value(rlx_model *m, const char *name,
                                     rlx_dtype dtype, uint32_t rank,
                                     const int64_t *dims, const void *data)
{
    if (!m || !name || (rank && !dims) || rank > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_set_input_value: model, name or dims "
                          "missing, or rank over %d. Fix: pass them",
                          RLX_MAX_RANK);
#ifdef RLX_HAVE_ONNX
    if (m->onnx)
        return rlx__model_onnx_set_value(m, name, dtype, rank, dims, data);
#else
    (void)dtype, (void)data;
#endif
    return rlx__error(RLX_ERR_UNSUPPORTED,
                      "%s: inputs of a YAML model cannot be fixed. Fix: "
                      "feed the input at run time", m->path);
}

rlx_status rlx_model_compile(rlx_model *m, rlx_session *s, rlx_program **out)
{
    if (out)
        *out = NULL;
    if (!m || !s || !out)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_compile: model, session or OUT is "
                          "NULL. Fix: pass all three");
    rlx_program *p;
    rlx_status st;
#ifdef RLX_HAVE_ONNX
    if (!m->graph && m->staged) {
        if ((st = rlx__model_onnx_compile_staged(m, s, &p)) != RLX_OK)
            return st;
        if ((st = rlx__shapes_attach(p, m, s)) != RLX_OK) {
            rlx_program_destroy(p);
            return st;
        }
        *out = p;
        return RLX_OK;
    }
#endif
    if (!m->graph)
        return rlx__error(m->pending ? m->pending_status : RLX_ERR_STATE,
                          "%s", m->pending ? m->pending : "the model has "
                          "no graph. Fix: load it again");
    st = rlx_session_compile(s, m->graph, &p);
    if (st != RLX_OK)
        return st;
    if ((st = rlx_model_set_params(m, p)) != RLX_OK ||
        (st = rlx__shapes_attach(p, m, s)) != RLX_OK) {
        rlx_program_destroy(p);
        return st;
    }
    *out = p;
    return RLX_OK;
}

rlx_status rlx_model_set_params(const rlx_model *m, rlx_program *p)
{
    if (!m || !p)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_set_params: model or program is NULL");
#ifdef RLX_HAVE_ONNX
    if (m->onnx)
        return rlx__model_onnx_set_params(m, p);
#endif
    uint32_t n = rlx_program_param_count(p);
    for (uint32_t i = 0; i < n; i++) {
        const char *name;
        rlx_dtype dtype;
        uint32_t rank;
        const int64_t *dims;
        rlx_status st = rlx_program_slot(p, RLX_SLOT_PARAM, i, &name, &dtype,
                                         &rank, &dims);
        if (st != RLX_OK)
            return st;
        const rlx__st_tensor *t = rlx__safetensors_find(m->weights, name);
        if (!t)
            return rlx__error(RLX_ERR_NOT_FOUND,
                              "%s: the program's param '%s' is not in model "
                              "'%s'%s. Fix: compile the program from this "
                              "model's graph (rlx_model_graph)",
                              m->path, name, m->name,
                              m->weights ? "'s weights" : " (it has no "
                                                          "weights)");
        if (t->dtype != dtype || t->rank != rank ||
            memcmp(t->shape, dims, rank * sizeof *dims) != 0) {
            char sa[160], sb[160];
            return rlx__error(RLX_ERR_SHAPE,
                              "%s: param '%s' is %s %s in the program but "
                              "%s %s in %s. Fix: compile the program from "
                              "this model's graph (rlx_model_graph)",
                              m->path, name, rlx_dtype_name(dtype),
                              rlx__shape_str(sa, sizeof sa, rank, dims),
                              rlx_dtype_name(t->dtype),
                              rlx__shape_str(sb, sizeof sb, t->rank,
                                             t->shape),
                              m->weights->path);
        }
        st = rlx_program_set_param(p, name, t->data,
                                   (size_t)(t->end - t->begin));
        if (st != RLX_OK)
            return st;
    }
    return RLX_OK;
}
