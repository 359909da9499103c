/*
 * onnx_parse.c - bytes -> a checked import model. The protobuf decoding
 * is protobuf-c's, from code generated out of onnx.proto at build time;
 * this file only frames it: size limits, the format sniff, and freeing.
 * rlx__onnx_parse is also the entry point the loader's fuzz target calls.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "onnx.h"

int rlx__onnx_sniff(const void *buf, size_t len)
{
    const unsigned char *b = buf;
    if (len < 2)
        return 0;
    /* A ModelProto begins with a field tag: ir_version (1, varint) in
     * every exporter we know, else opset_import, producer or graph. A
     * YAML model begins with text. */
    switch (b[0]) {
    case 0x08: /* ir_version */
        return b[1] < 0x80;
    case 0x12: case 0x1a: case 0x3a: case 0x42: /* strings, graph, opset */
        return b[1] != ' ' && b[1] != '\n';
    default:
        return 0;
    }
}

rlx_status rlx__onnx_parse(const void *buf, size_t len, const char *dir,
                           const char *what, rlx__onnx_model **out)
{
    *out = NULL;
    if (!what)
        what = "ONNX model";
    if (!buf || len == 0)
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: the file is empty. Fix: pass a whole .onnx "
                          "file", what);
    rlx__onnx_model *m = calloc(1, sizeof *m);
    if (!m)
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    m->proto = onnx__model_proto__unpack(NULL, len, buf);
    if (!m->proto) {
        free(m);
        return rlx__error(RLX_ERR_FORMAT,
                          "%s: not a valid ONNX ModelProto (%zu bytes: "
                          "truncated, damaged or not protobuf). Fix: "
                          "re-export or re-download the model", what, len);
    }
    if (dir && !(m->dir = rlx__strdup(dir))) {
        rlx__onnx_free(m);
        return rlx__error(RLX_ERR_OUT_OF_MEMORY, "out of memory");
    }
    rlx_status st = rlx__onnx_check_model(what, m);
    if (st != RLX_OK) {
        rlx__onnx_free(m);
        return st;
    }
    *out = m;
    return RLX_OK;
}

void rlx__onnx_free(rlx__onnx_model *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_inits; i++)
        free(m->inits[i].owned);
    free(m->inits);
    for (uint32_t i = 0; m->inputs && i < m->n_inputs; i++)
        free(m->inputs[i].value);
    free(m->inputs);
    free(m->nodes);
    for (uint32_t i = 0; i < m->n_maps; i++)
        munmap(m->maps[i].addr, m->maps[i].len);
    free(m->maps);
    rlx__onnx_functions_free(m);
    if (m->proto)
        onnx__model_proto__free_unpacked(m->proto, NULL);
    free(m->dir);
    free(m);
}
