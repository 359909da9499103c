/*
 * fuzz_model_yaml.c - libFuzzer harness: rlx_model_load on any bytes (the
 * YAML model loader: libyaml, the document tree, attribute and shape
 * checks, the graph builder). A model may name "w.safetensors" in the
 * same directory: the harness writes a small valid one once.
 */
#include <rlx/rlx.h>

#include "fuzz_util.h"
#include "fuzz_weights.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_env_isolate();
    fuzz_weights_write();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rlx_model *m = NULL;
    if (rlx_model_load(fuzz_file("model.yaml", data, size), &m) == RLX_OK) {
        /* what a caller reads back must be whole */
        const rlx_graph *g = rlx_model_graph(m);
        uint32_t n = rlx_graph_node_count(g);
        for (uint32_t v = 0; v < n; v++) {
            const char *name = NULL;
            rlx_graph_node(g, v, &name, NULL);
            if (!name)
                abort();
        }
        rlx_model_destroy(m);
    }
    return 0;
}
