/*
 * model_shapes.c - programs that follow their inputs' shapes. A program
 * from rlx_model_compile keeps, per shape signature (every input's dims),
 * the program compiled for it, at most RLX_MODEL_SHAPE_CACHE of them,
 * least recently used evicted. The application's handle stays the same:
 * switching shapes swaps the program records behind it, so backends keep
 * seeing static shapes and need nothing new.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "exec/program.h"

typedef struct entry {
    int64_t *sig;           /* rank and dims of every input, in order */
    uint32_t n_sig;
    rlx_program *parked;    /* NULL for the active entry */
    uint64_t used;
} entry;

struct rlx__shapes {
    rlx_model *m;
    rlx_session *s;
    uint32_t n;
    entry e[RLX_MODEL_SHAPE_CACHE];
    uint32_t active;
    uint64_t clock;
    int64_t *pending;       /* dims set but not switched to, or NULL */
    uint32_t n_pending;
};

/* The signature of P's inputs, input NAME taking RANK/DIMS. */
static int64_t *signature(const rlx_program *p, const char *name,
                          uint32_t rank, const int64_t *dims, uint32_t *n)
{
    uint32_t ni = p->n_slots[RLX_SLOT_INPUT];
    int64_t *sig = malloc((ni * (RLX_MAX_RANK + 1) + 1) * sizeof *sig);
    if (!sig)
        return NULL;
    uint32_t k = 0;
    for (uint32_t i = 0; i < ni; i++) {
        const rlx__slot *s = &p->slots[RLX_SLOT_INPUT][i];
        int mine = name && strcmp(s->name, name) == 0;
        uint32_t r = mine ? rank : s->rank;
        sig[k++] = r;
        for (uint32_t d = 0; d < r; d++)
            sig[k++] = mine ? dims[d] : s->shape[d];
    }
    *n = k;
    return sig;
}

static void free_entry(entry *e)
{
    rlx_program_destroy(e->parked);
    free(e->sig);
    memset(e, 0, sizeof *e);
}

void rlx__shapes_free(struct rlx__shapes *c)
{
    if (!c)
        return;
    for (uint32_t i = 0; i < c->n; i++)
        free_entry(&c->e[i]);
    free(c->pending);
    free(c);
}

rlx_status rlx__shapes_attach(rlx_program *p, rlx_model *m, rlx_session *s)
{
    struct rlx__shapes *c = calloc(1, sizeof *c);
    if (!c)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    c->m = m;
    c->s = s;
    c->e[0].sig = signature(p, NULL, 0, NULL, &c->e[0].n_sig);
    if (!c->e[0].sig) {
        free(c);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    c->n = 1;
    c->e[0].used = ++c->clock;
    p->shapes = c;
    p->shapes_apply = rlx__shapes_apply;
    p->shapes_free = rlx__shapes_free;
    return RLX_OK;
}

/* Move the record of FROM into TO's place; TO keeps its shape cache. */
static void take(rlx_program *to, rlx_program *from)
{
    struct rlx__shapes *keep = to->shapes;
    rlx_status (*apply)(rlx_program *) = to->shapes_apply;
    void (*drop)(struct rlx__shapes *) = to->shapes_free;
    *to = *from;
    to->shapes = keep;
    to->shapes_apply = apply;
    to->shapes_free = drop;
    free(from);
}

/* A program for the signature: compiled for the model's inputs given by
 * SIG (in P's input order). */
static rlx_status compile_for(struct rlx__shapes *c, const rlx_program *p,
                              const int64_t *sig, rlx_program **out)
{
    uint32_t ni = p->n_slots[RLX_SLOT_INPUT];
    const char **names = calloc(ni ? ni : 1, sizeof *names);
    if (!names)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    for (uint32_t i = 0; i < ni; i++)
        names[i] = p->slots[RLX_SLOT_INPUT][i].name;
    rlx_status st = rlx__model_set_shapes(c->m, ni, names, sig);
    free(names);
    if (st != RLX_OK)
        return st;
    rlx_program *np;
#ifdef RLX_HAVE_ONNX
    if (!c->m->graph && c->m->staged) { /* runs in stages: no weights */
        st = rlx__model_onnx_compile_staged(c->m, c->s, &np);
        if (st == RLX_OK)
            *out = np;
        return st;
    }
#endif
    st = rlx_session_compile(c->s, rlx_model_graph(c->m), &np);
    if (st != RLX_OK)
        return st;
    if ((st = rlx_model_set_params(c->m, np)) != RLX_OK) {
        rlx_program_destroy(np);
        return st;
    }
    *out = np;
    return RLX_OK;
}

rlx_status rlx_program_set_input_shape(rlx_program *p, const char *name,
                                       uint32_t rank, const int64_t *dims)
{
    if (!p || !name || (rank && !dims) || rank > RLX_MAX_RANK)
        return rlx__error(RLX_ERR_INVALID_ARGUMENT,
                          "rlx_program_set_input_shape: program, name or "
                          "dims missing, or rank %u over %d. Fix: pass "
                          "them", rank, RLX_MAX_RANK);
    uint32_t slot_index;
    rlx__slot *slot = rlx__program_find_slot(p, RLX_SLOT_INPUT, name,
                                             &slot_index);
    if (!slot)
        return rlx__error(RLX_ERR_NOT_FOUND,
                          "rlx_program_set_input_shape: the program has no "
                          "input '%s'. Fix: name one of its inputs "
                          "(rlx_program_slot)", name);
    struct rlx__shapes *c = p->shapes;
    if (!c && slot->rank == rank &&
        memcmp(slot->shape, dims, rank * sizeof *dims) == 0)
        return RLX_OK;
    if (!c) {
        char sa[160], sb[160];
        return rlx__error(RLX_ERR_SHAPE,
                          "input '%s' was compiled as %s; %s was asked. "
                          "Fix: compile with rlx_model_compile for a "
                          "program that follows its inputs' shapes", name,
                          rlx__shape_str(sa, sizeof sa, slot->rank,
                                         slot->shape),
                          rlx__shape_str(sb, sizeof sb, rank, dims));
    }
    if (p->n_bound[RLX_SLOT_INPUT] || p->n_bound[RLX_SLOT_OUTPUT])
        return rlx__error(RLX_ERR_STATE,
                          "rlx_program_set_input_shape: tensors are bound "
                          "to the program. Fix: unbind them before "
                          "changing shapes");
    /* what the model declares is checked now */
    for (uint32_t i = 0; i < rlx_model_input_count(c->m); i++) {
        const char *nm;
        uint32_t r;
        const int64_t *decl;
        if (rlx_model_input(c->m, i, &nm, NULL, &r, &decl, NULL) != RLX_OK ||
            strcmp(nm, name) != 0)
            continue;
        if (r != rank)
            return rlx__error(RLX_ERR_SHAPE,
                              "input '%s' has rank %u; the shape given has "
                              "rank %u. Fix: give %u dims", name, r, rank,
                              r);
        for (uint32_t d = 0; d < r; d++)
            if (dims[d] < 0 || (decl[d] >= 0 && decl[d] != dims[d]))
                return rlx__error(RLX_ERR_SHAPE,
                                  "input '%s' dimension %u cannot be %lld "
                                  "(declared %lld). Fix: only symbolic "
                                  "dimensions may change", name, d,
                                  (long long)dims[d], (long long)decl[d]);
    }
    /* recorded now, switched to at the next set_input or run, so that
     * inputs sharing a dimension can change one after the other */
    uint32_t n_sig;
    int64_t *sig;
    if (c->pending) { /* on top of what is recorded already */
        uint32_t ni = p->n_slots[RLX_SLOT_INPUT], k = 0, o = 0;
        sig = malloc((ni * (RLX_MAX_RANK + 1) + 1) * sizeof *sig);
        if (!sig)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        for (uint32_t i = 0; i < ni; i++) {
            uint32_t r = (uint32_t)c->pending[o];
            if (i == slot_index) {
                sig[k++] = rank;
                for (uint32_t d = 0; d < rank; d++)
                    sig[k++] = dims[d];
            } else {
                memcpy(sig + k, c->pending + o, (r + 1) * sizeof *sig);
                k += r + 1;
            }
            o += r + 1;
        }
        n_sig = k;
    } else if (!(sig = signature(p, name, rank, dims, &n_sig))) {
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    free(c->pending);
    c->pending = sig;
    c->n_pending = n_sig;
    return RLX_OK;
}

rlx_status rlx__shapes_apply(rlx_program *p)
{
    struct rlx__shapes *c = p->shapes;
    if (!c || !c->pending)
        return RLX_OK;
    int64_t *sig = c->pending;
    uint32_t n_sig = c->n_pending;
    if (c->e[c->active].n_sig == n_sig &&
        memcmp(c->e[c->active].sig, sig, n_sig * sizeof *sig) == 0) {
        free(sig); /* back to the active shapes */
        c->pending = NULL;
        return RLX_OK;
    }
    if (p->n_bound[RLX_SLOT_INPUT] || p->n_bound[RLX_SLOT_OUTPUT])
        return rlx__error(RLX_ERR_STATE,
                          "the program's input shapes changed while "
                          "tensors are bound to it. Fix: unbind them "
                          "before changing shapes");
    rlx_status st = rlx_program_wait(p);
    if (st != RLX_OK)
        return st;
    uint32_t hit = c->n;
    for (uint32_t i = 0; i < c->n && hit == c->n; i++)
        if (c->e[i].n_sig == n_sig &&
            memcmp(c->e[i].sig, sig, n_sig * sizeof *sig) == 0)
            hit = i;
    rlx_program *next = NULL;
    if (hit == c->n) {
        if ((st = compile_for(c, p, sig, &next)) != RLX_OK)
            return st; /* still recorded: another set_input_shape may fix it */
        if (c->n == RLX_MODEL_SHAPE_CACHE) { /* evict the LRU parked one */
            uint32_t lru = c->active == 0 ? 1 : 0;
            for (uint32_t i = 0; i < c->n; i++)
                if (i != c->active && c->e[i].used < c->e[lru].used)
                    lru = i;
            free_entry(&c->e[lru]);
            c->e[lru] = c->e[--c->n];
            memset(&c->e[c->n], 0, sizeof c->e[c->n]);
            if (c->active == c->n)
                c->active = lru;
        }
        hit = c->n++;
        c->e[hit].sig = sig;
        c->e[hit].n_sig = n_sig;
        c->pending = NULL; /* the entry owns it now */
    } else {
        free(sig);
        c->pending = NULL;
        next = c->e[hit].parked;
        c->e[hit].parked = NULL;
    }
    /* park the active program, then move the next one in */
    rlx_program *parked = malloc(sizeof *parked);
    if (!parked) {
        if (!c->e[hit].parked)
            c->e[hit].parked = next;
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    *parked = *p;
    parked->shapes = NULL;
    c->e[c->active].parked = parked;
    take(p, next);
    c->active = hit;
    c->e[hit].used = ++c->clock;
    return RLX_OK;
}
