/*
 * placement.h - a program split over several targets: the piece
 * interface, the split program's state and its placement report.
 *
 * A piece is a run of nodes on one target, behind a small interface (a
 * run callback): a backend piece is a sub-program compiled on one
 * backend; a host piece is one node the core runs itself (an
 * rlx__host_kind, see internal.h). Every value that crosses pieces, and
 * every input, param or constant a host piece reads, has one host buffer
 * (pl->value): its producer writes it, its consumers read it, so a
 * crossing costs at most the producer's device-to-host copy and the
 * consumer's host-to-device copy, and nothing between CPU pieces.
 */
#ifndef RLX_PLACEMENT_H
#define RLX_PLACEMENT_H

#include "internal.h"

typedef struct rlx__piece rlx__piece;
struct rlx__placement;

typedef struct rlx__piece_ops {
    const char *kind; /* "backend", "host" */
    /* Run once: read the inputs' buffers, write the exported values'. On
     * failure set the error (with a Fix) and return it. */
    rlx_status (*run)(rlx__piece *pc);
    /* Param NAME got new data; a piece that does not use it returns
     * RLX_OK. NULL: the piece never holds params itself. */
    rlx_status (*set_param)(rlx__piece *pc, const char *name,
                            const void *data, size_t nbytes);
    void (*destroy)(rlx__piece *pc);
} rlx__piece_ops;

struct rlx__piece {
    const rlx__piece_ops *ops;
    const rlx_backend *backend;  /* NULL: a host piece */
    uint32_t device_index;
    const rlx__host_kind *host;  /* host pieces: who runs the node */
    uint32_t n_nodes;
    uint32_t *nodes;             /* view nodes in run order */
    void *impl;                  /* backend piece: its rlx_program */
    const void **args;           /* host piece: its node's input buffers */
    void *state;                 /* host piece: its kind's prepare state */
    struct rlx__placement *pl;
};

typedef struct rlx__placement {
    rlx_graph *graph;            /* private copy; views point into it */
    rlx__view view;
    rlx__piece *pieces;
    uint32_t n_pieces;
    void **value;                /* per view node: its host buffer or NULL */
    unsigned char *owned;        /* value[i] was malloc'd here */
    rlx_program *outer;
} rlx__placement;

/* Where each node runs, for split and whole programs alike. */
typedef struct rlx__place_report {
    uint32_t n_graph_nodes;
    uint32_t *node_piece;        /* per graph node, RLX_PIECE_NONE */
    uint32_t n_pieces;
    const rlx_backend **piece_backend; /* NULL: the core (host piece) */
    uint32_t *piece_device;
    uint32_t transfers;
    uint32_t fallback_nodes;     /* compute nodes off the program's backend */
    char *summary;
} rlx__place_report;

/* Split the graph of view V (built from G) between backend PRIMARY
 * (device DEVICE_INDEX) and the best CPU backends of RT, plus host pieces
 * for nodes a host kind claims, and fill P (already allocated with its
 * slots) as one program. SKIP_PRIMARY: nothing goes to PRIMARY (the
 * whole graph moves). NEED_PRIMARY: fail with RLX_ERR_UNSUPPORTED when
 * PRIMARY would get no node, so the caller can try another device. */
rlx_status rlx__placement_compile(rlx_program *p, rlx_runtime *rt,
                                  const rlx_graph *g,
                                  const rlx_backend *primary,
                                  uint32_t device_index,
                                  rlx_precision precision, int skip_primary,
                                  int need_primary);
rlx_status rlx__placement_run(rlx_program *p);
rlx_status rlx__placement_set_param(rlx_program *p, const char *name,
                                    const void *data, size_t nbytes);
void rlx__placement_free(rlx__placement *pl);

/* The report of a program compiled whole on B from view V. */
rlx_status rlx__place_report_whole(rlx__place_report *r, const rlx__view *v,
                                   const rlx_backend *b,
                                   uint32_t device_index);
void rlx__place_report_free(rlx__place_report *r);
/* Zeroed arrays for N_GRAPH_NODES nodes (all RLX_PIECE_NONE) and
 * N_PIECES pieces. */
rlx_status rlx__place_report_alloc(rlx__place_report *r,
                                   uint32_t n_graph_nodes, uint32_t n_pieces);
/* Fill r->summary; MAIN_B on MAIN_DEV is the program's own target. */
void rlx__place_report_summary(rlx__place_report *r, const rlx_graph *g,
                               const rlx_backend *main_b, uint32_t main_dev);

/* A program compiled whole from G on B (held by the caller): what
 * backend pieces are made of. */
rlx_status rlx__program_compile(const rlx_graph *g, const rlx_backend *b,
                                uint32_t device_index,
                                rlx_precision precision, rlx_program **out);

#endif /* RLX_PLACEMENT_H */
