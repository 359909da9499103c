/*
 * model_sniff.c - what kind of file a model path names, from its first
 * bytes, so a file rlx does not load as a model (an ONNX model, a weights
 * file, a binary) is named as such instead of failing as bad YAML. Only
 * the opening bytes are read; the loaders still validate everything.
 */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"

#define SNIFF_BYTES 512

/* An ONNX ModelProto starts with field 1 (ir_version, a varint): tag byte
 * 0x08, then a small version number. */
static int looks_onnx(const unsigned char *b, size_t n)
{
    return n >= 2 && b[0] == 0x08 && b[1] >= 1 && b[1] < 0x80;
}

/* safetensors: an 8-byte little-endian header length, then a JSON
 * object. */
static int looks_safetensors(const unsigned char *b, size_t n)
{
    if (n < 9 || b[8] != '{')
        return 0;
    uint64_t len = 0;
    for (int i = 7; i >= 0; i--)
        len = len << 8 | b[i];
    return len >= 2;
}

/* YAML is text: no control bytes but tab, newline and carriage return
 * (a UTF-8 byte order mark and multi-byte characters are >= 0x80). */
static int looks_text(const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((b[i] < 0x20 && b[i] != '\t' && b[i] != '\n' && b[i] != '\r') ||
            b[i] == 0x7f)
            return 0;
    return 1;
}

rlx__model_format rlx__model_format_sniff(const char *path)
{
    struct stat st;
    int fd;
    /* what cannot be opened is the YAML loader's to report */
    if (rlx__file_open_regular(path, "model file", &fd, &st) != RLX_OK) {
        rlx__error_clear();
        return RLX__MODEL_FORMAT_YAML;
    }
    unsigned char b[SNIFF_BYTES];
    size_t n = 0;
    while (n < sizeof b) {
        ssize_t r = read(fd, b + n, sizeof b - n);
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    if (n >= 6 && memcmp(b, "\x93NUMPY", 6) == 0)
        return RLX__MODEL_FORMAT_NPY;
    if (looks_onnx(b, n))
        return RLX__MODEL_FORMAT_ONNX;
    if (looks_safetensors(b, n))
        return RLX__MODEL_FORMAT_SAFETENSORS;
    return looks_text(b, n) ? RLX__MODEL_FORMAT_YAML
                            : RLX__MODEL_FORMAT_UNKNOWN;
}
