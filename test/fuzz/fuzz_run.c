/*
 * fuzz_run.c - libFuzzer harness: a model on any bytes, loaded, compiled
 * on cpu-ref and run: shape inference, legalization, the planner and the
 * reference kernels. Inputs get a fixed pattern of bytes (indices among
 * them, so out-of-range gathers must be refused, not read). Graphs whose
 * values add up to more than 1 MiB are only loaded, to keep each input
 * fast (the loader's own checks are fuzz_model_yaml's).
 */
#include <rlx/rlx.h>

#include "fuzz_util.h"
#include "fuzz_weights.h"

#define RUN_MAX_BYTES (1u << 20)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rlx_runtime *rt;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_env_isolate();
    fuzz_weights_write();
    if (rlx_runtime_create(&rt, 0) != RLX_OK)
        abort();
    return 0;
}

/* Bytes of every value of G, saturating at UINT64_MAX. */
static uint64_t graph_bytes(const rlx_graph *g)
{
    uint64_t total = 0;
    for (uint32_t v = 0; v < rlx_graph_node_count(g); v++) {
        rlx_dtype dtype;
        uint32_t rank;
        const int64_t *dims;
        if (rlx_graph_value_shape(g, v, &dtype, &rank, &dims) != RLX_OK)
            continue;
        uint64_t n = rlx_dtype_size(dtype);
        for (uint32_t d = 0; d < rank; d++) {
            if (dims[d] < 0 || (dims[d] && n > UINT64_MAX / (uint64_t)dims[d]))
                return UINT64_MAX;
            n *= (uint64_t)dims[d];
        }
        if (n > UINT64_MAX - total)
            return UINT64_MAX;
        total += n;
    }
    return total;
}

static void run(rlx_program *p)
{
    for (uint32_t i = 0; i < rlx_program_input_count(p); i++) {
        const char *name = NULL;
        size_t nbytes = 0;
        rlx_program_slot(p, RLX_SLOT_INPUT, i, &name, NULL, NULL, NULL);
        uint8_t *buf = name ? rlx_program_input_buffer(p, name, &nbytes)
                            : NULL;
        if (!buf)
            return;
        for (size_t k = 0; k < nbytes; k++)
            buf[k] = (uint8_t)((k * 7) & 0x3f);
    }
    if (rlx_program_run(p) != RLX_OK)
        return;
    for (uint32_t i = 0; i < rlx_program_output_count(p); i++) {
        size_t nbytes = 0;
        const void *out = rlx_program_output_data(p, i, &nbytes);
        if (out)
            fuzz_touch(out, nbytes);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rlx_model *m = NULL;
    if (rlx_model_load(fuzz_file("model.yaml", data, size), &m) != RLX_OK)
        return 0;
    const rlx_graph *g = rlx_model_graph(m);
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    if (graph_bytes(g) <= RUN_MAX_BYTES &&
        rlx_session_create(rt, "cpu-ref", &s) == RLX_OK &&
        rlx_session_compile(s, g, &p) == RLX_OK &&
        rlx_model_set_params(m, p) == RLX_OK)
        run(p);
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_model_destroy(m);
    return 0;
}
