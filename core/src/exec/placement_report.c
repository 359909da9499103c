/*
 * placement_report.c - where each node of a program runs, and the
 * one-line summary ("41 nodes on cuda:0, 2 on cpu-openblas (gelu x2), 4
 * transfers") that `rlx run` prints, for split and whole programs alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

static void summary_add(char **buf, size_t *len, const char *fmt, ...)
    RLX__PRINTF(3, 4);

static void summary_add(char **buf, size_t *len, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *grown = realloc(*buf, *len + (size_t)n + 1);
    if (!grown)
        return;
    memcpy(grown + *len, line, (size_t)n + 1);
    *buf = grown;
    *len += (size_t)n;
}

/* "41 nodes on cuda:0, 2 on cpu-openblas (gelu x2), 4 transfers": the
 * first piece target is the program's; others list their ops. */
void rlx__place_report_summary(rlx__place_report *r, const rlx_graph *g,
                           const rlx_backend *main_b, uint32_t main_dev)
{
    char *s = NULL;
    size_t len = 0;
    uint32_t main_nodes = 0;
    for (uint32_t i = 0; i < r->n_graph_nodes; i++) {
        uint32_t pc = r->node_piece[i];
        if (pc != RLX_PIECE_NONE && r->piece_backend[pc] == main_b &&
            r->piece_device[pc] == main_dev)
            main_nodes++;
    }
    summary_add(&s, &len, "%u node%s on %s:%u", main_nodes,
                main_nodes == 1 ? "" : "s", main_b->device_name, main_dev);
    /* every other target once, in piece order, with its ops counted */
    for (uint32_t p = 0; p < r->n_pieces; p++) {
        const rlx_backend *b = r->piece_backend[p];
        if (b == main_b && r->piece_device[p] == main_dev)
            continue;
        int seen = 0;
        for (uint32_t q = 0; q < p && !seen; q++)
            seen = r->piece_backend[q] == b &&
                   r->piece_device[q] == r->piece_device[p];
        if (seen)
            continue;
        uint32_t count = 0;
        for (uint32_t i = 0; i < r->n_graph_nodes; i++) {
            uint32_t pc = r->node_piece[i];
            count += pc != RLX_PIECE_NONE && r->piece_backend[pc] == b &&
                     r->piece_device[pc] == r->piece_device[p];
        }
        summary_add(&s, &len, ", %u on %s (", count, b ? b->id : "the host");
        /* op histogram, first appearance order */
        int first = 1;
        for (uint32_t i = 0; i < r->n_graph_nodes; i++) {
            uint32_t pc = r->node_piece[i];
            if (pc == RLX_PIECE_NONE || r->piece_backend[pc] != b ||
                r->piece_device[pc] != r->piece_device[p])
                continue;
            rlx_op op = g->nodes[i].op;
            int dup = 0;
            uint32_t same = 0;
            for (uint32_t j = 0; j < r->n_graph_nodes; j++) {
                uint32_t pj = r->node_piece[j];
                if (pj == RLX_PIECE_NONE || r->piece_backend[pj] != b ||
                    r->piece_device[pj] != r->piece_device[p] ||
                    g->nodes[j].op != op)
                    continue;
                if (j < i)
                    dup = 1;
                same++;
            }
            if (dup)
                continue;
            summary_add(&s, &len, "%s%s x%u", first ? "" : ", ",
                        rlx_op_name(op), same);
            first = 0;
        }
        summary_add(&s, &len, ")");
    }
    summary_add(&s, &len, ", %u transfer%s", r->transfers,
                r->transfers == 1 ? "" : "s");
    r->summary = s;
}

void rlx__place_report_free(rlx__place_report *r)
{
    free(r->node_piece);
    free(r->piece_backend);
    free(r->piece_device);
    free(r->summary);
    memset(r, 0, sizeof *r);
}

rlx_status rlx__place_report_alloc(rlx__place_report *r, uint32_t n_graph_nodes,
                               uint32_t n_pieces)
{
    memset(r, 0, sizeof *r);
    r->n_graph_nodes = n_graph_nodes;
    r->n_pieces = n_pieces;
    r->node_piece = malloc((n_graph_nodes + 1) * sizeof *r->node_piece);
    r->piece_backend = calloc(n_pieces + 1, sizeof *r->piece_backend);
    r->piece_device = calloc(n_pieces + 1, sizeof *r->piece_device);
    if (!r->node_piece || !r->piece_backend || !r->piece_device) {
        rlx__place_report_free(r);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    for (uint32_t i = 0; i < n_graph_nodes; i++)
        r->node_piece[i] = RLX_PIECE_NONE;
    return RLX_OK;
}
