/*
 * model-util.c - the fixtures the model-file tests share (model-util.h):
 * YAML and safetensors files written into the harness's fixture
 * directory (rlx_test_path), loading a model that must load or must
 * fail, and the MLP's weights.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "model-util.h"

/* ---- fixtures: files in the harness's fixture directory -------------- */

void write_bytes(const char *name, const void *data, size_t n)
{
    FILE *f = fopen(rlx_test_path(name), "wb");
    if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
        FAIL("cannot write fixture %s", name);
}

void write_text(const char *name, const char *text)
{
    write_bytes(name, text, strlen(text));
}

/* A safetensors file: the header length (LEN_OVERRIDE if nonzero), the
 * header text as given, then DATA. */
void write_st_raw(const char *name, const char *header,
                  uint64_t len_override, const void *data, size_t n)
{
    size_t hn = strlen(header);
    unsigned char *buf = malloc(8 + hn + n + 1);
    uint64_t len = len_override ? len_override : hn;
    for (int i = 0; i < 8; i++)
        buf[i] = (unsigned char)(len >> (8 * i));
    memcpy(buf + 8, header, hn);
    if (n)
        memcpy(buf + 8 + hn, data, n);
    write_bytes(name, buf, 8 + hn + n);
    free(buf);
}

/* A valid F32 safetensors file holding TENSORS, packed in order. */
void write_st(const char *name, const st_tensor *t, int n)
{
    char header[4096];
    unsigned char data[4096];
    size_t used = 0, off = 0;
    used += (size_t)snprintf(header + used, sizeof header - used,
                             "{\"__metadata__\": {\"format\": \"pt\"}");
    for (int i = 0; i < n; i++) {
        int64_t numel = 1;
        char dims[128] = "";
        size_t dn = 0;
        for (int d = 0; d < t[i].rank; d++) {
            numel *= t[i].dims[d];
            dn += (size_t)snprintf(dims + dn, sizeof dims - dn, "%s%lld",
                                   d ? ", " : "", (long long)t[i].dims[d]);
        }
        size_t nb = (size_t)numel * 4;
        used += (size_t)snprintf(
            header + used, sizeof header - used,
            ", \"%s\": {\"dtype\": \"F32\", \"shape\": [%s], "
            "\"data_offsets\": [%zu, %zu]}", t[i].name, dims, off, off + nb);
        memcpy(data + off, t[i].data, nb);
        off += nb;
    }
    snprintf(header + used, sizeof header - used, "}");
    write_st_raw(name, header, 0, data, off);
}

rlx_model *load_ok(const char *name, const char *yaml)
{
    rlx_model *m = NULL;
    write_text(name, yaml);
    ASSERT_OK(rlx_model_load(rlx_test_path(name), &m));
    ASSERT(m != NULL);
    return m;
}

/* Load YAML (written as NAME); expect STATUS; return the message, which
 * must start with the model path and hold a Fix. */
const char *load_fail(const char *name, const char *yaml,
                      rlx_status status)
{
    rlx_model *m = (rlx_model *)&m;
    if (yaml)
        write_text(name, yaml);
    rlx_status st = rlx_model_load(rlx_test_path(name), &m);
    if (st != status)
        FAIL("rlx_model_load(%s) returned %s, expected %s: %s", name,
             rlx_status_name(st), rlx_status_name(status),
             rlx_last_error());
    ASSERT(m == NULL);
    const char *e = rlx_last_error(), *path = rlx_test_path(name);
    if (strncmp(e, path, strlen(path)) != 0)
        FAIL("error does not start with the model path %s: %s", path, e);
    ASSERT_CONTAINS(e, "Fix:");
    return e;
}

/* The MLP's weights (test-model.c's valid_mlp_runs). */
const float W1[6] = { 1, 0, -1, 0.5f, 1, 2 };
const float B1[3] = { 0.5f, -3, 0 };
const float W2[6] = { 1, -1, 2, 0, 0, 1 };
const float B2[2] = { 0.25f, 0.5f };

void write_mlp_weights(const char *name)
{
    const st_tensor t[] = {
        { "w1", 2, { 2, 3 }, W1 }, { "b1", 1, { 3 }, B1 },
        { "w2", 2, { 3, 2 }, W2 }, { "b2", 1, { 2 }, B2 },
    };
    write_st(name, t, 4);
}
