/*
 * placement.h - a program as pieces over one or several targets: the
 * piece interface, the pieces' state and the placement report.
 *
 * A piece is a run of nodes on one target, behind a small interface (a
 * run callback): a backend piece is an executable compiled on one
 * backend from its slice of the program's view; a host piece is one node the core runs itself (an
 * rlx__host_kind, see exec.h). Every value that crosses pieces, and
 * every input, param or constant a host piece reads, has one host buffer
 * (pl->value): its producer writes it, its consumers read it, so a
 * crossing costs at most the producer's device-to-host copy and the
 * consumer's host-to-device copy, and nothing between CPU pieces. A
 * graph its backend runs whole is one backend piece, so whole and split
 * programs run, take params and bind tensors through one path.
 */
#ifndef RLX_PLACEMENT_H
#define RLX_PLACEMENT_H

#include "exec.h"

typedef struct rlx__piece rlx__piece;
struct rlx__placement;

typedef struct rlx__piece_ops {
    const char *kind; /* "backend", "host" */
    /* Run once: read the inputs' buffers, write the exported values'. On
     * failure set the error (with a Fix) and return it. */
    rlx_status (*run)(rlx_program *p, rlx__piece *pc);
    /* The program's param slot SLOT got new data; a piece that does not
     * use it returns RLX_OK. NULL: the piece never holds params itself. */
    rlx_status (*set_param)(rlx_program *p, rlx__piece *pc, uint32_t slot,
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
    /* backend piece: its executable and execute arguments, built once so
     * a run allocates nothing. Its own slots (indexed by rlx_slot_kind)
     * map to the program's (slot_of, UINT32_MAX: a value crossing
     * pieces, in a host buffer of the placement). */
    rlx_executable *exe;
    uint32_t n_slots[4];
    uint32_t *slot_of[4];
    rlx_buffer **params;         /* this backend's, owned */
    const void **inputs;         /* NULL where bound on DEVICE_IO */
    void **outputs;
    rlx_buffer **input_bufs;     /* DEVICE_IO: bound tensors' buffers */
    rlx_buffer **output_bufs;
    /* host piece */
    const void **args;           /* its node's input buffers */
    void *state;                 /* its kind's prepare state */
};

/* A program's pieces, in run order: one backend piece for a graph its
 * backend runs whole, several for a split one. */
typedef struct rlx__placement {
    rlx__piece *pieces;
    uint32_t n_pieces;
    /* One backend piece that runs the whole view with the program's own
     * slots: bound tensors go to it as buffers (device I/O) and its runs
     * can be queued. */
    int whole;
    uint32_t n_values;
    void **value;                /* per view node: its host buffer or NULL */
    unsigned char *owned;        /* value[i] was malloc'd here */
} rlx__placement;

/* What a compile is placed with (rlx__placement_compile). */
typedef struct rlx__place_options {
    rlx_runtime *rt;
    /* The session compiled for: its settings reach the backends through
     * the compile options, its allow list the host kinds. NULL: none. */
    const rlx_session *session;
    const rlx_backend *primary;  /* the program's backend, held by the
                                    caller */
    uint32_t device_index;
    rlx_precision precision;
    unsigned flags;              /* RLX__PLACE_* */
} rlx__place_options;

/* Every node on PRIMARY (the caller checked it can run them): one piece. */
#define RLX__PLACE_WHOLE 0x1u
/* Nothing goes to PRIMARY: the whole graph moves to the CPU backends. */
#define RLX__PLACE_SKIP_PRIMARY 0x2u
/* Fail with RLX_ERR_UNSUPPORTED when PRIMARY would get no node, so the
 * caller can try another device. */
#define RLX__PLACE_NEED_PRIMARY 0x4u

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

/* Place the program P's view (p->view, whose nodes a host piece may
 * read at run time only when p->graph holds a private copy) over
 * O->primary and, unless O->flags say otherwise, the best CPU backends
 * of O->rt and the host kinds, and compile each piece from its slice of
 * that view. P is allocated with its slots; on success it holds its
 * pieces (p->place), backend and report. */
rlx_status rlx__placement_compile(rlx_program *p,
                                  const rlx__place_options *o);
/* Build piece PC (number SELF) of P's placement PL and compile it: a
 * backend piece from its slice of p->view (PIECE_OF: each view node's
 * piece; EXPORTED: the values it hands on), or from the whole view when
 * pl->whole; a host piece prepared for O's session (piece.c). */
rlx_status rlx__piece_build(rlx_program *p, rlx__placement *pl,
                            rlx__piece *pc, const rlx__place_options *o,
                            const uint32_t *piece_of, uint32_t self,
                            const unsigned char *exported);
/* Run every piece in order, tensors bound to P staged around them. */
rlx_status rlx__placement_run(rlx_program *p);
rlx_status rlx__placement_set_param(rlx_program *p, uint32_t slot,
                                    const void *data, size_t nbytes);
/* Slot INDEX of KIND got tensor buffer BUF (NULL: its host memory
 * again), for a whole program whose backend has device I/O. */
void rlx__placement_bind(rlx_program *p, rlx_slot_kind kind, uint32_t index,
                         rlx_buffer *buf);
/* The execute arguments of P's backend piece PC's next run. */
void rlx__piece_exec_args(const rlx_program *p, const rlx__piece *pc,
                          rlx_execute_args *args);
/* 1 when P is one piece whose backend takes bound tensors as buffers. */
int rlx__placement_direct(const rlx_program *p);
void rlx__placement_free(rlx__placement *pl);

void rlx__place_report_free(rlx__place_report *r);
/* Zeroed arrays for N_GRAPH_NODES nodes (all RLX_PIECE_NONE) and
 * N_PIECES pieces. */
rlx_status rlx__place_report_alloc(rlx__place_report *r,
                                   uint32_t n_graph_nodes, uint32_t n_pieces);
/* Fill r->summary; MAIN_B on MAIN_DEV is the program's own target. */
void rlx__place_report_summary(rlx__place_report *r, const rlx_graph *g,
                               const rlx_backend *main_b, uint32_t main_dev);

#endif /* RLX_PLACEMENT_H */
