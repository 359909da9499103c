/*
 * fuzz_onnx.c - libFuzzer harness for the ONNX loader: any bytes through
 * rlx__onnx_parse (protobuf-c's decoding, then every check: versions,
 * domains, names, cycles, initializers, shapes, nesting) and, for what
 * parses, the lowering to an rlx graph with its constant folding. No
 * folder is given, so external data is refused without touching files.
 */
#include <stdlib.h>

#include <rlx/rlx.h>

#include "onnx/onnx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rlx__onnx_model *m = NULL;
    if (rlx__onnx_parse(data, size, NULL, "fuzz.onnx", &m) != RLX_OK)
        return 0;
    rlx_graph *g = NULL;
    rlx__onnx_report rep = { 0 };
    if (rlx__onnx_lower(m, &g, &rep) == RLX_OK) {
        /* what a caller reads back must be whole */
        if (rep.n != m->n_nodes)
            abort();
        for (uint32_t v = 0; v < rlx_graph_node_count(g); v++) {
            const char *name = NULL;
            rlx_graph_node(g, v, &name, NULL);
            if (!name)
                abort();
        }
        rlx_graph_destroy(g);
    }
    /* a model that runs in stages keeps its report on failure too */
    rlx__onnx_report_free(&rep);
    rlx__onnx_free(m);
    return 0;
}
