/*
 * conformance_exec.c - one case as a one-op graph (every operand a graph
 * input, so no backend can fold it away), compiled and run on a session,
 * with the output copied out for comparison.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "conformance.h"

static rlx_status fail(rlx_status st, const char *what, char *err, size_t n)
{
    cli_format(err, n, "%s: %s", what, rlx_last_error());
    return st;
}

rlx_status cli_conf_graph(const conf_case *c, rlx_graph **out, char *err,
                          size_t n)
{
    rlx_graph *g = NULL;
    rlx_value in[CONF_MAX_INPUTS], y;
    rlx_attrs attrs = { c->n_ints, c->ints, c->n_floats, c->floats };
    rlx_status st = rlx_graph_create(&g);

    *out = NULL;
    if (st != RLX_OK)
        return fail(st, "graph", err, n);
    for (uint32_t i = 0; i < c->n_inputs && st == RLX_OK; i++) {
        char name[8];
        cli_format(name, sizeof name, "in%u", (unsigned)i);
        st = rlx_graph_input(g, name, c->inputs[i].dtype, c->inputs[i].rank,
                             c->inputs[i].dims, &in[i]);
    }
    if (st == RLX_OK)
        st = rlx_graph_add_node(g, "op", c->op, c->n_inputs, in, &attrs, &y);
    if (st == RLX_OK)
        st = rlx_graph_output(g, "out", y);
    if (st != RLX_OK) {
        fail(st, "the core refused the graph", err, n);
        rlx_graph_destroy(g);
        return st;
    }
    *out = g;
    return RLX_OK;
}

rlx_status cli_conf_run(rlx_session *s, const rlx_graph *g,
                        const conf_case *c, cli_tensor *out,
                        int *at_compile, char *err, size_t n)
{
    rlx_program *p = NULL;
    rlx_status st = rlx_session_compile(s, g, &p);

    memset(out, 0, sizeof *out);
    *at_compile = st != RLX_OK;
    if (st != RLX_OK)
        return fail(st, "compile", err, n);
    for (uint32_t i = 0; i < c->n_inputs && st == RLX_OK; i++) {
        char name[8];
        cli_format(name, sizeof name, "in%u", (unsigned)i);
        st = rlx_program_set_input(p, name, c->inputs[i].data,
                                   c->inputs[i].nbytes);
        if (st != RLX_OK)
            fail(st, "set input", err, n);
    }
    if (st == RLX_OK && (st = rlx_program_run(p)) != RLX_OK)
        fail(st, "run", err, n);
    if (st == RLX_OK) {
        rlx_dtype dtype;
        uint32_t rank;
        const int64_t *dims;
        size_t nbytes = 0;
        const void *data;
        st = rlx_program_slot(p, RLX_SLOT_OUTPUT, 0, NULL, &dtype, &rank,
                              &dims);
        if (st != RLX_OK) {
            fail(st, "output", err, n);
        } else if (cli_tensor_alloc(out, dtype, rank, dims) != 0) {
            cli_format(err, n, "out of memory");
            st = RLX_ERR_OUT_OF_MEMORY;
        } else if (data = rlx_program_output_data(p, 0, &nbytes),
                   nbytes != out->nbytes || (!data && nbytes)) {
            cli_format(err, n, "output has %zu bytes, expected %zu", nbytes,
                     out->nbytes);
            cli_tensor_free(out);
            st = RLX_ERR_BACKEND;
        } else if (nbytes) {
            memcpy(out->data, data, nbytes);
        }
    }
    rlx_program_destroy(p);
    return st;
}
