/*
 * model_onnx.c - the rlx_model side of the ONNX importer: map the file,
 * parse it (onnx_parse.c), lower it for the inputs' current dims
 * (onnx_lower.c), and set the program's params from the initializers,
 * which stay where the parser or the external-data mapping put them. A
 * load whose lowering fails only for want of an input's value or real
 * shape succeeds without a graph, the failure kept for rlx_model_compile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "onnx.h"

static char *folder_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return rlx__strdup(".");
    if (slash == path)
        return rlx__strdup("/");
    return rlx__printf_alloc("%.*s", (int)(slash - path), path);
}

static void report_free(rlx_model *m)
{
    for (uint32_t i = 0; i < m->n_report; i++)
        free(m->report[i]);
    free(m->report);
    m->report = NULL;
    m->n_report = 0;
}

/* What each symbolic dim (1 at load) is set to, to tell whether a
 * lowering failure at load depends on it. */
#define PROBE_DIM 64

/* Does the lowering failure MSG at load depend on the symbolic dims (set
 * to 1 at load)? It does when lowering with them at PROBE_DIM succeeds,
 * or fails otherwise: a pooling window wider than a side of 1, say. A
 * failure that stays the same (an op rlx lacks) is reported at load. */
static int depends_on_symbolic(rlx_model *m, const char *msg)
{
    rlx__onnx_model *om = m->onnx;
    int64_t (*saved)[RLX_MAX_RANK] = calloc(om->n_inputs ? om->n_inputs : 1,
                                            sizeof *saved);
    int any = 0;
    if (!saved)
        return 0;
    for (uint32_t i = 0; i < om->n_inputs; i++) {
        rlx__onnx_input *in = &om->inputs[i];
        memcpy(saved[i], in->dims, sizeof saved[i]);
        for (uint32_t k = 0; k < in->rank; k++)
            if (in->decl[k] < 0 && !in->value) {
                in->dims[k] = PROBE_DIM;
                any = 1;
            }
    }
    int differs = 0;
    if (any) {
        rlx_graph *g = NULL;
        rlx_status st = rlx__onnx_lower(om, &g, NULL);
        differs = st == RLX_OK || strcmp(rlx_last_error(), msg) != 0;
        rlx_graph_destroy(g);
    }
    for (uint32_t i = 0; i < om->n_inputs; i++)
        memcpy(om->inputs[i].dims, saved[i], sizeof saved[i]);
    free(saved);
    return differs;
}

/* Lower for the inputs' current dims. LOADING: a failure that an input's
 * value or real shape may cure is kept as pending (rlx_model_compile and
 * rlx_model_graph report it) instead of failing the load. */
static rlx_status relower(rlx_model *m, int loading)
{
    rlx_graph *g;
    rlx__onnx_report rep = { 0 };
    rlx_status st = rlx__onnx_lower(m->onnx, &g, &rep);
    if (st != RLX_OK && rep.needs_runtime) {
        /* no single graph: rlx_model_compile runs it in stages */
        rlx_graph_destroy(m->graph);
        m->graph = NULL;
        m->staged = 1;
        free(m->pending);
        m->pending = NULL;
        report_free(m);
        m->n_report = rep.n;
        m->report = rep.lowered;
        rlx__error_clear();
        return RLX_OK;
    }
    if (st != RLX_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", rlx_last_error());
        if (loading && !rep.needs_value && depends_on_symbolic(m, msg))
            st = rlx__error(st, "%s: %s; this was with its symbolic "
                            "dimensions at 1. Fix: set the inputs' real "
                            "shapes before compiling "
                            "(rlx_model_set_input_shape, or --shape "
                            "NAME=d0,d1,... on the command line)", m->path,
                            msg);
        else if (rep.needs_value && !m->graph)
            st = rlx__error(st, "%s: %s", m->path, msg);
        else
            return rlx__error(st, "%s: %s", m->path, msg);
        /* the application may still fix that input or give its shape */
        free(m->pending);
        m->pending = rlx__strdup(rlx_last_error());
        m->pending_status = st;
        return m->pending ? RLX_OK : st;
    }
    rlx_graph_destroy(m->graph);
    m->graph = g;
    m->staged = 0;
    free(m->pending);
    m->pending = NULL;
    report_free(m);
    m->n_report = rep.n;
    m->report = rep.lowered;
    return RLX_OK;
}

rlx_status rlx__model_onnx_relower(rlx_model *m)
{
    return relower(m, 0);
}

rlx_status rlx__model_onnx_load(rlx_model *m)
{
    int fd;
    struct stat sb;
    /* a FIFO or device is refused without blocking */
    rlx_status st0 = rlx__file_open_regular(m->path, "ONNX model", &fd, &sb);
    if (st0 != RLX_OK)
        return st0;
    size_t len = (size_t)sb.st_size;
    void *map = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0)
                    : MAP_FAILED;
    close(fd);
    if (map == MAP_FAILED)
        return rlx__error(len ? RLX_ERR_IO : RLX_ERR_FORMAT,
                          "%s: %s. Fix: pass a whole .onnx file", m->path,
                          len ? "cannot map the file" : "the file is empty");
    char *dir = folder_of(m->path);
    if (!dir) {
        munmap(map, len);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    /* protobuf-c copies what it keeps: the mapping goes right after */
    rlx_status st = rlx__onnx_parse(map, len, dir, m->path, &m->onnx);
    munmap(map, len);
    free(dir);
    if (st != RLX_OK)
        return st;
    const Onnx__GraphProto *g = m->onnx->proto->graph;
    const char *base = strrchr(m->path, '/');
    m->name = rlx__strdup(g->name && *g->name ? g->name
                          : base ? base + 1 : m->path);
    if (!m->name)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return relower(m, 1);
}

void rlx__model_onnx_free(rlx_model *m)
{
    report_free(m);
    free(m->pending);
    m->pending = NULL;
    rlx__onnx_free(m->onnx);
    m->onnx = NULL;
}

uint32_t rlx__model_onnx_input_count(const rlx_model *m)
{
    return m->onnx ? m->onnx->n_inputs : 0;
}

rlx_status rlx__model_onnx_input(const rlx_model *m, uint32_t i,
                                 const char **name, rlx_dtype *dtype,
                                 uint32_t *rank, const int64_t **decl,
                                 const char *const **sym, int64_t **cur)
{
    rlx__onnx_input *in = &m->onnx->inputs[i];
    if (name)
        *name = in->name;
    if (dtype)
        *dtype = in->dtype;
    if (rank)
        *rank = in->rank;
    if (decl)
        *decl = in->decl;
    if (sym)
        *sym = in->sym;
    if (cur)
        *cur = in->dims;
    return RLX_OK;
}

rlx_status rlx__model_onnx_node(const rlx_model *m, uint32_t i,
                                const char **name, const char **op_type,
                                const char **output, const char **lowered)
{
    const Onnx__NodeProto *n = m->onnx->nodes[i];
    if (name)
        *name = n->name && *n->name ? n->name
                : n->n_output && n->output[0] ? n->output[0] : "";
    if (op_type)
        *op_type = n->op_type;
    if (output)
        *output = n->n_output && n->output[0] ? n->output[0] : "";
    if (lowered)
        *lowered = m->report[i] ? m->report[i] : "nothing";
    return RLX_OK;
}

rlx_status rlx__model_onnx_set_params(const rlx_model *m, rlx_program *p)
{
    const rlx__onnx_model *om = m->onnx;
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
        const rlx__onnx_tensor *t = NULL;
        for (uint32_t k = 0; k < om->n_inits && !t; k++)
            if (strcmp(om->inits[k].name, name) == 0)
                t = &om->inits[k];
        if (!t || t->dtype != dtype || t->rank != rank ||
            memcmp(t->dims, dims, rank * sizeof *dims) != 0)
            return rlx__error(RLX_ERR_NOT_FOUND,
                              "%s: the program's param '%s' is not an "
                              "initializer of this shape in the model. Fix: "
                              "compile the program from this model's graph "
                              "(rlx_model_graph)", m->path, name);
        size_t nb = (size_t)rlx__onnx_elements(t->rank, t->dims) *
                    rlx_dtype_size(t->dtype);
        static const char zero[8];
        if ((st = rlx_program_set_param(p, name, nb ? t->data : zero, nb)) !=
            RLX_OK)
            return st;
    }
    return RLX_OK;
}

/* Does a node of G (or of a graph inside one) read NAME, or G output
 * it? A graph nested deeper than the loader allows counts as reading. */
static int graph_reads(const Onnx__GraphProto *g, const char *name,
                       int depth)
{
    if (!g || depth > RLX__ONNX_MAX_DEPTH)
        return 1;
    for (size_t i = 0; i < g->n_output; i++)
        if (g->output[i]->name && !strcmp(g->output[i]->name, name))
            return 1;
    for (size_t i = 0; i < g->n_node; i++) {
        const Onnx__NodeProto *n = g->node[i];
        for (size_t k = 0; k < n->n_input; k++)
            if (n->input[k] && !strcmp(n->input[k], name))
                return 1;
        for (size_t k = 0; k < n->n_attribute; k++) {
            const Onnx__AttributeProto *a = n->attribute[k];
            if (a->g && graph_reads(a->g, name, depth + 1))
                return 1;
            for (size_t j = 0; j < a->n_graphs; j++)
                if (graph_reads(a->graphs[j], name, depth + 1))
                    return 1;
        }
    }
    return 0;
}

/* An input that nothing reads cannot change a result, so the shape
 * declared for it binds nothing: it takes the rank and dims it is given
 * (ONNX's own test data feeds some, such as the expanded CastLike
 * tests' `like`, at another shape than declared). */
static int unread(const rlx_model *m, const char *name)
{
    return !graph_reads(m->onnx->proto->graph, name, 0);
}

/* Make input IN of model M take RANK/DIMS, every dim free; relower, or
 * put it back. */
static rlx_status take_shape(rlx_model *m, rlx__onnx_input *in,
                             uint32_t rank, const int64_t *dims)
{
    rlx__onnx_input old = *in;
    in->rank = rank;
    for (uint32_t k = 0; k < rank; k++) {
        in->decl[k] = -1;
        in->sym[k] = NULL;
        in->dims[k] = dims[k];
    }
    rlx_status st = rlx__model_onnx_relower(m);
    if (st != RLX_OK)
        *in = old;
    return st;
}

rlx_status rlx__model_onnx_unread_shape(rlx_model *m, const char *name,
                                        uint32_t rank, const int64_t *dims,
                                        int *done)
{
    *done = 0;
    rlx__onnx_model *om = m->onnx;
    for (uint32_t i = 0; i < om->n_inputs; i++) {
        rlx__onnx_input *in = &om->inputs[i];
        if (strcmp(in->name, name) != 0 || !unread(m, name) ||
            in->value || rank > RLX_MAX_RANK)
            continue;
        for (uint32_t k = 0; k < rank; k++)
            if (dims[k] < 0)
                return RLX_OK; /* refused by the usual checks */
        *done = 1;
        return take_shape(m, in, rank, dims);
    }
    return RLX_OK;
}

rlx_status rlx__model_onnx_set_value(rlx_model *m, const char *name,
                                     rlx_dtype dtype, uint32_t rank,
                                     const int64_t *dims, const void *data)
{
    rlx__onnx_model *om = m->onnx;
    for (uint32_t i = 0; i < om->n_inputs; i++) {
        rlx__onnx_input *in = &om->inputs[i];
        if (strcmp(in->name, name) != 0)
            continue;
        int free_shape = unread(m, name) && dtype == in->dtype;
        if (free_shape && rank != in->rank) {
            for (uint32_t k = 0; k < rank; k++)
                if (dims[k] < 0)
                    free_shape = 0;
            rlx_status st = free_shape ? take_shape(m, in, rank, dims)
                                       : RLX_OK;
            if (st != RLX_OK)
                return st;
        }
        if (dtype != in->dtype || rank != in->rank)
            return rlx__error(RLX_ERR_SHAPE,
                              "%s: input '%s' is %s of rank %u; the value "
                              "given is %s of rank %u. Fix: give data of "
                              "the input's type and rank", m->path, name,
                              rlx_dtype_name(in->dtype), in->rank,
                              rlx_dtype_name(dtype), rank);
        for (uint32_t k = 0; k < rank; k++)
            if (dims[k] < 0 || (in->decl[k] >= 0 && in->decl[k] != dims[k] &&
                                !free_shape))
                return rlx__error(RLX_ERR_SHAPE,
                                  "%s: input '%s' dimension %u cannot be "
                                  "%lld. Fix: match the declared shape",
                                  m->path, name, k, (long long)dims[k]);
        int64_t n = rlx__onnx_elements(rank, dims);
        if (n < 0 || n > RLX__ONNX_FOLD_MAX)
            return rlx__error(RLX_ERR_UNSUPPORTED,
                              "%s: input '%s': a fixed value holds at most "
                              "%d elements. Fix: feed large inputs at run "
                              "time", m->path, name, RLX__ONNX_FOLD_MAX);
        size_t nb = (size_t)n * rlx_dtype_size(dtype);
        void *copy = NULL;
        if (data && !(copy = malloc(nb ? nb : 1)))
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        if (copy && nb)
            memcpy(copy, data, nb);
        void *old_value = in->value;
        int64_t old_dims[RLX_MAX_RANK];
        memcpy(old_dims, in->dims, sizeof old_dims);
        in->value = copy;
        memcpy(in->dims, dims, rank * sizeof *dims);
        rlx_status st = rlx__model_onnx_relower(m);
        if (st != RLX_OK) {
            in->value = old_value;
            memcpy(in->dims, old_dims, sizeof old_dims);
            free(copy);
            return st;
        }
        free(old_value);
        return RLX_OK;
    }
    return rlx__error(RLX_ERR_NOT_FOUND,
                      "%s: the model has no input named '%s'. Fix: see "
                      "rlx_model_input for its inputs", m->path, name);
}
