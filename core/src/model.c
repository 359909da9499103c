/*
 * model.c - rlx_model: a graph loaded from a YAML model file plus its
 * memory-mapped safetensors weights. Loading is all-or-nothing; the
 * weights stay mapped until the model is destroyed.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct rlx_model {
    char *path;
    char *name;
    rlx_graph *graph;
    rlx__safetensors *weights; /* NULL when the model has none */
};

/* A file of another kind named as such, not parsed as YAML (whose error
 * about control characters would say nothing useful). */
static rlx_status not_a_yaml_model(const char *path)
{
    switch (rlx__model_format_sniff(path)) {
    case RLX__MODEL_FORMAT_ONNX:
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: this is an ONNX model; rlx does not import "
                          "ONNX yet, it reads rlx YAML models. Fix: describe "
                          "the graph as an rlx YAML model with its weights in "
                          "safetensors (docs/model-format.md)", path);
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
    rlx_status st = not_a_yaml_model(path);
    if (st != RLX_OK)
        return st;
    rlx__ynode *root = NULL;
    st = rlx__yaml_load(path, &root);
    if (st != RLX_OK)
        return st;
    rlx__model_parts parts;
    st = rlx__model_build(path, root, &parts);
    rlx__ynode_free(root);
    if (st != RLX_OK)
        return st;
    rlx_model *m = calloc(1, sizeof *m);
    if (m)
        m->path = rlx__strdup(path);
    if (!m || !m->path) {
        free(m);
        free(parts.name);
        rlx_graph_destroy(parts.graph);
        rlx__safetensors_close(parts.weights);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    m->name = parts.name;
    m->graph = parts.graph;
    m->weights = parts.weights;
    *out = m;
    return RLX_OK;
}

void rlx_model_destroy(rlx_model *m)
{
    if (!m)
        return;
    rlx_graph_destroy(m->graph);
    rlx__safetensors_close(m->weights);
    free(m->name);
    free(m->path);
    free(m);
}

const rlx_graph *rlx_model_graph(const rlx_model *m)
{
    return m ? m->graph : NULL;
}

const char *rlx_model_name(const rlx_model *m)
{
    return m ? m->name : NULL;
}

rlx_status rlx_model_set_params(const rlx_model *m, rlx_program *p)
{
    if (!m || !p)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_model_set_params: model or program is NULL");
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
