/*
 * yaml.c - reading a model's YAML text (libyaml's event API) into a
 * small document tree of scalars, lists and mappings, each with the line
 * and column where it starts, so later errors can point into the file.
 * One document only; aliases, complex keys and duplicate keys are refused.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "hash.h"
#include "base.h"

#define YAML_MAX_DEPTH 64
#define YAML_MAX_BYTES (256u * 1024u * 1024u)

const char *rlx__ykind_name(rlx__ykind k)
{
    switch (k) {
    case RLX__Y_SCALAR: return "a scalar";
    case RLX__Y_SEQ: return "a list";
    case RLX__Y_MAP: return "a mapping";
    default: return "nothing";
    }
}

void rlx__ynode_free(rlx__ynode *n)
{
    if (!n)
        return;
    for (uint32_t i = 0; i < n->n_items; i++)
        rlx__ynode_free(n->items[i]);
    free(n->items);
    free(n->text);
    free(n);
}

const rlx__ynode *rlx__ynode_get(const rlx__ynode *map, const char *key)
{
    if (!map || map->kind != RLX__Y_MAP)
        return NULL;
    for (uint32_t i = 0; i < map->n; i++)
        if (strcmp(map->items[2 * i]->text, key) == 0)
            return map->items[2 * i + 1];
    return NULL;
}

int rlx__ynode_is_null(const rlx__ynode *n)
{
    return n && n->kind == RLX__Y_SCALAR && !n->quoted &&
           (!n->text[0] || strcmp(n->text, "~") == 0 ||
            strcmp(n->text, "null") == 0 || strcmp(n->text, "Null") == 0 ||
            strcmp(n->text, "NULL") == 0);
}

/* The whole file, NUL-terminated: a regular file (a FIFO would block),
 * at most YAML_MAX_BYTES. */
static rlx_status read_file(const char *path, const char *what,
                            size_t max_bytes, char **out, size_t *len)
{
    rlx_status st = rlx__file_read_all(path, what, max_bytes, out, len);
    if (st == RLX_ERR_FORMAT && max_bytes == YAML_MAX_BYTES)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the model file is larger than %u bytes. Fix: "
                          "keep weights in the safetensors file, not inline",
                          path, YAML_MAX_BYTES);
    return st;
}

typedef struct ybuild {
    const char *path;
    rlx__ynode *root;
    rlx__ynode *stack[YAML_MAX_DEPTH];
    rlx__hash keys[YAML_MAX_DEPTH]; /* of each open mapping: key -> item */
    int depth;
} ybuild;

static rlx_status loc_error(const char *path, rlx_status st,
                            const yaml_mark_t *m, const char *what,
                            const char *fix)
{
    return rlx__error(st, "%s:%zu:%zu: %s. Fix: %s", path, m->line + 1,
                      m->column + 1, what, fix);
}

static rlx_status attach(ybuild *b, rlx__ynode *node, const yaml_mark_t *m)
{
    if (b->depth == 0) {
        b->root = node;
        return RLX_OK;
    }
    rlx__ynode *parent = b->stack[b->depth - 1];
    if (parent->kind == RLX__Y_MAP && parent->n_items % 2 == 0) {
        /* a key */
        if (node->kind != RLX__Y_SCALAR) {
            rlx__ynode_free(node);
            return loc_error(b->path, RLX_ERR_FORMAT, m,
                             "a mapping key must be a plain name",
                             "write keys as 'name: value'");
        }
        /* a hash per open mapping: a scan of the mapping per key made a
         * 200,000-key mapping take minutes */
        uint32_t first = 0;
        int added = rlx__hash_add(&b->keys[b->depth - 1], node->text,
                                  parent->n_items, &first);
        if (added < 0) {
            rlx__ynode_free(node);
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        }
        if (added == 0) {
            rlx_status st = rlx__error(
                RLX_ERR_DUPLICATE,
                "%s:%zu:%zu: duplicate key '%s' (first at line %u). "
                "Fix: give each key once per mapping",
                b->path, m->line + 1, m->column + 1, node->text,
                parent->items[first]->line);
            rlx__ynode_free(node);
            return st;
        }
    }
    uint32_t k = parent->n_items;
    if ((k & (k - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
        uint32_t cap = k ? k * 2 : 1;
        rlx__ynode **items = realloc(parent->items, cap * sizeof *items);
        if (!items) {
            rlx__ynode_free(node);
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        }
        parent->items = items;
    }
    parent->items[parent->n_items++] = node;
    parent->n = parent->kind == RLX__Y_MAP ? parent->n_items / 2
                                           : parent->n_items;
    return RLX_OK;
}

static rlx_status on_event(ybuild *b, const yaml_event_t *ev, int *docs)
{
    const yaml_mark_t *m = &ev->start_mark;
    rlx__ynode *node;
    switch (ev->type) {
    case YAML_DOCUMENT_START_EVENT:
        if (++*docs > 1)
            return loc_error(b->path, RLX_ERR_FORMAT, m,
                             "a second YAML document",
                             "keep one model per file (remove the '---')");
        return RLX_OK;
    case YAML_ALIAS_EVENT:
        return loc_error(b->path, RLX_ERR_UNSUPPORTED, m,
                         "YAML aliases ('*name') are not supported",
                         "write the value out in full");
    case YAML_SCALAR_EVENT:
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if (ev->type != YAML_SCALAR_EVENT && b->depth >= YAML_MAX_DEPTH)
            return loc_error(b->path, RLX_ERR_FORMAT, m,
                             "nesting deeper than 64 levels",
                             "flatten the structure");
        node = calloc(1, sizeof *node);
        if (!node)
            return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
        node->line = (uint32_t)m->line + 1;
        node->col = (uint32_t)m->column + 1;
        if (ev->type == YAML_SCALAR_EVENT) {
            size_t len = ev->data.scalar.length;
            const char *v = (const char *)ev->data.scalar.value;
            node->kind = RLX__Y_SCALAR;
            node->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
            if (memchr(v, '\0', len)) {
                free(node);
                return loc_error(b->path, RLX_ERR_FORMAT, m,
                                 "a string contains a NUL character",
                                 "remove the \\0 escape");
            }
            node->text = malloc(len + 1);
            if (!node->text) {
                free(node);
                return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
            }
            memcpy(node->text, v, len);
            node->text[len] = '\0';
            return attach(b, node, m);
        }
        node->kind = ev->type == YAML_SEQUENCE_START_EVENT ? RLX__Y_SEQ
                                                           : RLX__Y_MAP;
        rlx_status st = attach(b, node, m);
        if (st == RLX_OK)
            b->stack[b->depth++] = node;
        return st;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        b->depth--;
        rlx__hash_free(&b->keys[b->depth]);
        return RLX_OK;
    default:
        return RLX_OK;
    }
}

/* Line and column (1-based) of byte OFFSET in TEXT. */
static void offset_mark(const char *text, size_t len, size_t offset,
                        yaml_mark_t *m)
{
    m->line = 0;
    m->column = 0;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            m->line++;
            m->column = 0;
        } else {
            m->column++;
        }
    }
}

static rlx_status syntax_error(const char *path, const yaml_parser_t *p,
                               const char *text, size_t len)
{
    yaml_mark_t m = p->problem_mark;
    if (p->error == YAML_READER_ERROR)
        offset_mark(text, len, p->problem_offset, &m);
    if (p->error == YAML_MEMORY_ERROR)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    return rlx__error(RLX_ERR_FORMAT,
                      "%s:%zu:%zu: YAML syntax error: %s%s%s. Fix: correct "
                      "the YAML at that position (indentation, ':' after "
                      "each key, matching brackets and quotes)",
                      path, m.line + 1, m.column + 1,
                      p->problem ? p->problem : "malformed text",
                      p->context ? " " : "", p->context ? p->context : "");
}

rlx_status rlx__yaml_parse(const char *path, const char *what,
                           size_t max_bytes, rlx__ynode **out)
{
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    rlx_status st = read_file(path, what, max_bytes, &text, &len);
    if (st != RLX_OK)
        return st;

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        free(text);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    ybuild b = { .path = path };
    int docs = 0, done = 0;
    while (!done && st == RLX_OK) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            st = syntax_error(path, &parser, text, len);
            break;
        }
        done = ev.type == YAML_STREAM_END_EVENT;
        st = on_event(&b, &ev, &docs);
        yaml_event_delete(&ev);
    }
    yaml_parser_delete(&parser);
    free(text);
    for (int i = 0; i < YAML_MAX_DEPTH; i++)
        rlx__hash_free(&b.keys[i]);
    if (st != RLX_OK) {
        /* everything hangs off the root once attached */
        rlx__ynode_free(b.root);
        return st;
    }
    *out = b.root;
    return RLX_OK;
}

rlx_status rlx__yaml_load(const char *path, rlx__ynode **out)
{
    rlx__ynode *root = NULL;
    rlx_status st = rlx__yaml_parse(path, "model file", YAML_MAX_BYTES, &root);
    *out = NULL;
    if (st != RLX_OK)
        return st;
    if (!root || rlx__ynode_is_null(root)) {
        rlx__ynode_free(root);
        return rlx__error(RLX_ERR_FORMAT,
                          "%s:1:1: the model file is empty. Fix: start it "
                          "with 'rlx_model: 1' (see docs/model-format.md)",
                          path);
    }
    *out = root;
    return RLX_OK;
}
