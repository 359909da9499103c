/*
 * test-model-errors.c - bad model files: every class of bad YAML (syntax,
 * keys, ops, attributes, dtypes, names, shapes, constants) and of bad
 * weights (missing file or tensor, declared shape or dtype differing,
 * malformed safetensors) gets an error naming the file, the place and a
 * Fix. The valid models: test-model.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test-util.h"
#include "model-util.h"

/* ---- bad YAML --------------------------------------------------------- */

TEST(yaml_syntax_error)
{
    const char *e = load_fail("syntax.yaml",
                              "rlx_model: 1\n"
                              "inputs:\n"
                              "  - {name: x, dtype: f32, shape: [1, 2}\n"
                              "outputs: [x]\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "syntax.yaml:3:");
    ASSERT_CONTAINS(e, "YAML syntax error");
}

TEST(yaml_bad_indentation)
{
    const char *e = load_fail("indent.yaml",
                              "rlx_model: 1\n"
                              "outputs:\n"
                              "  - a\n"
                              " b: 2\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "indent.yaml:4:");
    ASSERT_CONTAINS(e, "YAML syntax error");
}

TEST(yaml_duplicate_key_and_alias)
{
    const char *e = load_fail("dupkey.yaml",
                              "rlx_model: 1\n"
                              "outputs: [a]\n"
                              "outputs: [b]\n",
                              RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dupkey.yaml:3:1: duplicate key 'outputs'");
    e = load_fail("alias.yaml",
                  "rlx_model: 1\n"
                  "inputs: [&i {name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [*i]\n",
                  RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "alias.yaml:3:11: YAML aliases");
}

TEST(empty_file)
{
    const char *e = load_fail("empty.yaml", "# nothing\n", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "empty.yaml:1:1: the model file is empty");
}

/* A file of another kind is named as such, not reported as bad YAML;
 * an ONNX file (by content, whatever its name) goes to the ONNX loader. */
TEST(not_a_yaml_model)
{
    /* ir_version 8, then a producer_name: how every ONNX file begins */
    static const unsigned char onnx[] = { 0x08, 0x08, 0x12, 0x07, 'p', 'y',
                                          't', 'o', 'r', 'c', 'h', 0x3a, 0 };
    write_bytes("model.bin", onnx, sizeof onnx);
    const char *e = load_fail("model.bin", NULL, RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "opset");
    ASSERT_CONTAINS(e, "Fix:");
    ASSERT(strstr(e, "YAML syntax error") == NULL);

    write_st_raw("w.safetensors", "{}", 0, NULL, 0);
    e = load_fail("w.safetensors", NULL, RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "this is a safetensors weights file, not a model");

    static const char npy[] = "\x93NUMPY\x01\x00v\x00{'descr': '<f4'}";
    write_bytes("x.npy", npy, sizeof npy - 1);
    e = load_fail("x.npy", NULL, RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "this is a NumPy .npy array, not a model");

    static const unsigned char elf[] = { 0x7f, 'E', 'L', 'F', 2, 1, 1, 0 };
    write_bytes("lib.so", elf, sizeof elf);
    e = load_fail("lib.so", NULL, RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "lib.so: not a model file");

    /* text that is not a model stays the YAML loader's to explain */
    e = load_fail("notes.txt", "just: text\n", RLX_ERR_FORMAT);
    ASSERT(strstr(e, "not a model file") == NULL);
}

TEST(missing_top_level_key)
{
    const char *e = load_fail("noout.yaml",
                              "rlx_model: 1\n"
                              "inputs: [{name: x, dtype: f32, shape: [1]}]\n",
                              RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "noout.yaml:1:1: the model has no outputs");
    e = load_fail("nover.yaml", "outputs: [x]\n", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "nover.yaml:1:1: missing the key 'rlx_model'");
    e = load_fail("noshape.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32}\n"
                  "outputs: [x]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "noshape.yaml:3:5: input 'x' has no 'shape'");
}

TEST(unknown_top_level_key)
{
    const char *e = load_fail("topkey.yaml",
                              "rlx_model: 1\n"
                              "output: [x]\n",
                              RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "topkey.yaml:2:1: the model: unknown key 'output'");
    ASSERT_CONTAINS(e, "outputs");
}

TEST(wrong_format_version)
{
    const char *e = load_fail("v2.yaml",
                              "rlx_model: 2\noutputs: [x]\n",
                              RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "v2.yaml:1:12: model format version '2'");
    ASSERT_CONTAINS(e, "rlx_model: 1");
}

static const char *one_node(const char *file, const char *node,
                            rlx_status st)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml,
             "rlx_model: 1\n"
             "inputs:\n"
             "  - {name: x, dtype: f32, shape: [2, 3]}\n"
             "  - {name: w, dtype: f32, shape: [3, 4]}\n"
             "  - {name: i, dtype: i32, shape: [2, 3]}\n"
             "nodes:\n"
             "%s"
             "outputs: [y]\n", node);
    return load_fail(file, yaml, st);
}

TEST(unknown_op)
{
    const char *e = one_node(
        "op.yaml", "  - {name: y, op: matmull, inputs: [x, w]}\n",
        RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "op.yaml:7:19: node 'y': unknown op 'matmull'");
    ASSERT_CONTAINS(e, "matmul");
    e = one_node("srcop.yaml", "  - {name: y, op: input}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "srcop.yaml:7:19: node 'y': op 'input' is a source");
}

TEST(unknown_attribute)
{
    const char *e = one_node(
        "attr.yaml",
        "  - {name: y, op: matmul, inputs: [x, w], "
        "attrs: {transpose_c: true}}\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attr.yaml:7:51: node 'y': op matmul has no "
                       "attribute 'transpose_c'");
    ASSERT_CONTAINS(e, "transpose_a, transpose_b");
    e = one_node("attr2.yaml",
                 "  - {name: y, op: relu, inputs: [x], attrs: {axis: 1}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "no attribute 'axis'");
    ASSERT_CONTAINS(e, "Fix: remove 'attrs' (op relu takes none)");
    e = one_node("nodekey.yaml",
                 "  - {name: y, op: relu, input: [x]}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "nodekey.yaml:7:25: node 'y': unknown key 'input'");
}

TEST(wrong_attribute_type)
{
    const char *e = one_node(
        "attrtype.yaml",
        "  - {name: y, op: matmul, inputs: [x, w], "
        "attrs: {transpose_b: 3}}\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attrtype.yaml:7:64: node 'y': attribute "
                       "'transpose_b' must be true or false, got '3'");
    e = one_node("attrtype2.yaml",
                 "  - {name: y, op: softmax, inputs: [x], "
                 "attrs: {axis: '1'}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attribute 'axis' must be an integer, got the "
                       "string '1'");
    e = one_node("attrtype3.yaml",
                 "  - {name: y, op: gelu, inputs: [x], "
                 "attrs: {approximate: fast}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "must be erf or tanh, got 'fast'");
    e = one_node("attrtype4.yaml",
                 "  - {name: y, op: reshape, inputs: [x], "
                 "attrs: {shape: 6}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attribute 'shape' must be a list of integers");
    e = one_node("attrreq.yaml",
                 "  - {name: y, op: cast, inputs: [x]}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "attrreq.yaml:7:5: node 'y': op cast needs the "
                       "attribute 'to'");
    e = one_node("attrcast.yaml",
                 "  - {name: y, op: cast, inputs: [x], attrs: {to: f33}}\n",
                 RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "unknown dtype 'f33'");
    e = one_node("slicelen.yaml",
                 "  - {name: y, op: slice, inputs: [x], "
                 "attrs: {axes: [0, 1], starts: [0]}}\n",
                 RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "slice 'axes' has 2 entries but 'starts' has 1");
}

TEST(unknown_dtype)
{
    const char *e = load_fail("dtype.yaml",
                              "rlx_model: 1\n"
                              "inputs:\n"
                              "  - {name: x, dtype: f33, shape: [1]}\n"
                              "outputs: [x]\n",
                              RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "dtype.yaml:3:22: input 'x': unknown dtype 'f33'");
    ASSERT_CONTAINS(e, "f32");
}

TEST(undefined_value)
{
    const char *e = one_node(
        "undef.yaml", "  - {name: y, op: matmul, inputs: [x, nope]}\n",
        RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "undef.yaml:7:39: node 'y': input 'nope' is not "
                       "defined");
    e = load_fail("undefout.yaml",
                  "rlx_model: 1\n"
                  "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [x, {name: q, value: z}]\n",
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "undefout.yaml:3:31: output 'q': value 'z' is not "
                       "defined");
}

TEST(duplicate_name)
{
    const char *e = one_node(
        "dup.yaml", "  - {name: x, op: relu, inputs: [x]}\n",
        RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dup.yaml:7:5: node 'x': ");
    ASSERT_CONTAINS(e, "already has a node named 'x'");
    e = load_fail("dupout.yaml",
                  "rlx_model: 1\n"
                  "inputs: [{name: x, dtype: f32, shape: [1]}]\n"
                  "outputs: [x, x]\n",
                  RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "dupout.yaml:3:14: output 'x'");
}

TEST(shape_mismatch)
{
    const char *e = one_node(
        "shape.yaml", "  - {name: y, op: matmul, inputs: [w, x]}\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "shape.yaml:7:5: node 'y' (matmul): ");
    ASSERT_CONTAINS(e, "inner dimensions differ");
    ASSERT_CONTAINS(e, "[3,4]");
}

TEST(dtype_mismatch)
{
    const char *e = one_node(
        "dtypemis.yaml", "  - {name: y, op: add, inputs: [x, i]}\n",
        RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "dtypemis.yaml:7:5: node 'y' (add): ");
    ASSERT_CONTAINS(e, "f32");
    ASSERT_CONTAINS(e, "i32");
}

TEST(constant_value_count)
{
    const char *e = load_fail(
        "count.yaml",
        "rlx_model: 1\n"
        "constants:\n"
        "  - {name: c, dtype: f32, shape: [2, 2], value: [1, 2, 3]}\n"
        "outputs: [c]\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "count.yaml:3:49: constant 'c': the value has 3 "
                       "elements, but shape [2,2] needs 4");
    e = load_fail("nested.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - name: c\n"
                  "    dtype: f32\n"
                  "    shape: [2, 2]\n"
                  "    value: [[1, 2], [3, 4, 5]]\n"
                  "outputs: [c]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "nested.yaml:6:21: constant 'c': at dimension 1 the "
                       "value has 3 entries");
    e = load_fail("range.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - {name: c, dtype: u8, shape: [2], value: [1, 256]}\n"
                  "outputs: [c]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "range.yaml:3:49: constant 'c': element 1: 256 does "
                       "not fit in u8");
    e = load_fail("cstr.yaml",
                  "rlx_model: 1\n"
                  "constants:\n"
                  "  - {name: c, dtype: f32, shape: [1], value: [abc]}\n"
                  "outputs: [c]\n",
                  RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "cstr.yaml:3:47: constant 'c': element 0 must be a "
                       "number, got 'abc'");
}

TEST(dimension_overflow_in_yaml)
{
    const char *e = load_fail(
        "ovf.yaml",
        "rlx_model: 1\n"
        "inputs:\n"
        "  - {name: x, dtype: f32, shape: [99999999999999999999]}\n"
        "outputs: [x]\n",
        RLX_ERR_INVALID_ARGUMENT);
    ASSERT_CONTAINS(e, "ovf.yaml:3:35: input 'x': a dimension: "
                       "99999999999999999999 overflows a 64-bit integer");
    e = load_fail("ovf2.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32, shape: [4294967296, "
                  "4294967296]}\n"
                  "outputs: [x]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "ovf2.yaml:3:34: input 'x': shape "
                       "[4294967296,4294967296] has more elements than fit "
                       "in 64 bits");
    e = load_fail("ovf3.yaml",
                  "rlx_model: 1\n"
                  "inputs:\n"
                  "  - {name: x, dtype: f32, shape: [2, -1]}\n"
                  "outputs: [x]\n",
                  RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "ovf3.yaml:3:38: input 'x': dimension 1 is negative");
}

/* ---- weights ---------------------------------------------------------- */

static const char *const PARAM_YAML =
    "rlx_model: 1\n"
    "weights: %s\n"
    "inputs: [{name: x, dtype: f32, shape: [1, 2]}]\n"
    "params:\n"
    "  - {name: w1, dtype: f32, shape: [2, 3]}\n"
    "nodes: [{name: y, op: matmul, inputs: [x, w1]}]\n"
    "outputs: [y]\n";

/* Load a model whose weights file is WEIGHTS; expect STATUS. */
static const char *weights_fail(const char *yaml_name, const char *weights,
                                rlx_status status)
{
    char yaml[1024];
    snprintf(yaml, sizeof yaml, PARAM_YAML, weights);
    const char *e = load_fail(yaml_name, yaml, status);
    char where[600];
    snprintf(where, sizeof where, "%s:2:10: weights: %s: ",
             rlx_test_path(yaml_name), rlx_test_path(weights));
    ASSERT_CONTAINS(e, where);
    return e;
}

TEST(missing_weights_file)
{
    const char *e = weights_fail("nowfile.yaml", "absent.safetensors",
                                 RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "cannot open the weights file");
    e = load_fail("noweights.yaml",
                  "rlx_model: 1\n"
                  "params: [{name: w}]\n"
                  "outputs: [w]\n",
                  RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "noweights.yaml:2:10: param 'w': the model names no "
                       "weights file");
}

TEST(tensor_missing_from_weights)
{
    const st_tensor t[] = { { "b1", 1, { 3 }, B1 } };
    write_st("only_b1.safetensors", t, 1);
    char yaml[1024];
    snprintf(yaml, sizeof yaml, PARAM_YAML, "only_b1.safetensors");
    const char *e = load_fail("tmiss.yaml", yaml, RLX_ERR_NOT_FOUND);
    ASSERT_CONTAINS(e, "tmiss.yaml:5:5: param 'w1' is not in the weights "
                       "file");
    ASSERT_CONTAINS(e, "only_b1.safetensors");
    ASSERT_CONTAINS(e, "'b1'");
}

TEST(param_differs_from_file)
{
    write_mlp_weights("pd.safetensors");
    const char *e = load_fail(
        "pshape.yaml",
        "rlx_model: 1\n"
        "weights: pd.safetensors\n"
        "params:\n"
        "  - {name: w1, dtype: f32, shape: [3, 2]}\n"
        "outputs: [w1]\n",
        RLX_ERR_SHAPE);
    ASSERT_CONTAINS(e, "pshape.yaml:4:35: param 'w1' is declared with shape "
                       "[3,2], but ");
    ASSERT_CONTAINS(e, "stores it with shape [2,3]");
    e = load_fail("pdtype.yaml",
                  "rlx_model: 1\n"
                  "weights: pd.safetensors\n"
                  "params:\n"
                  "  - {name: w1, dtype: f16}\n"
                  "outputs: [w1]\n",
                  RLX_ERR_DTYPE);
    ASSERT_CONTAINS(e, "pdtype.yaml:4:23: param 'w1' is declared f16, but ");
    ASSERT_CONTAINS(e, "stores it as f32");
}

TEST(safetensors_header_not_json)
{
    const unsigned char data[24] = { 0 };
    write_st_raw("notjson.safetensors", "{\"w1\": {\"dtype\": \"F32\",, }}",
                 0, data, sizeof data);
    const char *e = weights_fail("notjson.yaml", "notjson.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the header is not valid JSON: expected a string "
                       "key at byte 23 of the header");
    write_st_raw("deep.safetensors",
                 "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                 "[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
                 "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
                 0, NULL, 0);
    e = weights_fail("deep.yaml", "deep.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "nesting deeper than 64 levels");
    write_st_raw("dupname.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [0], "
                 "\"data_offsets\": [0, 0]}, \"w1\": {}}",
                 0, NULL, 0);
    e = weights_fail("dupname.yaml", "dupname.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "duplicate key");
    write_st_raw("short.safetensors", "", 0, NULL, 0);
    /* 8 bytes of zero length: an empty header is not JSON either */
    e = weights_fail("short.yaml", "short.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "not valid JSON");
    write_bytes("tiny.safetensors", "abc", 3);
    e = weights_fail("tiny.yaml", "tiny.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the file is 3 bytes, too short");
}

/* Duplicates found past the hash table's first sizes, and the line of
 * the first occurrence still named. */
TEST(duplicates_in_large_mappings)
{
    char yaml[8192], header[8192];
    size_t k = (size_t)snprintf(yaml, sizeof yaml, "rlx_model: 1\nx:\n");
    for (int i = 0; i < 300; i++)
        k += (size_t)snprintf(yaml + k, sizeof yaml - k, "  k%d: 0\n", i);
    snprintf(yaml + k, sizeof yaml - k, "  k123: 1\n");
    const char *e = load_fail("bigdup.yaml", yaml, RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(e, "bigdup.yaml:303:3: duplicate key 'k123' (first at "
                       "line 126)");
    k = (size_t)snprintf(header, sizeof header, "{");
    for (int i = 0; i < 100; i++)
        k += (size_t)snprintf(header + k, sizeof header - k,
                              "\"t%d\": {\"dtype\": \"F32\", \"shape\": "
                              "[0], \"data_offsets\": [0, 0]}, ", i);
    snprintf(header + k, sizeof header - k, "\"t77\": {}}");
    write_st_raw("bigdup.safetensors", header, 0, NULL, 0);
    e = weights_fail("bigdup2.yaml", "bigdup.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "duplicate key at byte ");
}

TEST(safetensors_truncated)
{
    unsigned char data[16] = { 0 };
    write_st_raw("trunc.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("trunc.yaml", "trunc.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the file is truncated: it is ");
    ASSERT_CONTAINS(e, "tensor 'w1' (data_offsets [0, 24])");
}

TEST(safetensors_overlap)
{
    unsigned char data[48] = { 0 };
    write_st_raw("overlap.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}, "
                 "\"b1\": {\"dtype\": \"F32\", \"shape\": [3], "
                 "\"data_offsets\": [16, 28]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("overlap.yaml", "overlap.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensors 'w1' (bytes 0..24) and 'b1' (bytes 16..28) "
                       "overlap");
}

TEST(safetensors_size_inconsistent)
{
    unsigned char data[48] = { 0 };
    write_st_raw("incons.safetensors",
                 "{\"w1\": {\"dtype\": \"F16\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 0, data, sizeof data);
    const char *e = weights_fail("incons.yaml", "incons.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensor 'w1': data_offsets [0, 24] hold 24 bytes, but "
                       "dtype F16 and shape [2,3] need 12 bytes");
    write_st_raw("baddt.safetensors",
                 "{\"w1\": {\"dtype\": \"C64\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 12]}}",
                 0, data, sizeof data);
    e = weights_fail("baddt.yaml", "baddt.safetensors", RLX_ERR_UNSUPPORTED);
    ASSERT_CONTAINS(e, "tensor 'w1' has dtype 'C64'");
    write_st_raw("badoff.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [24, 0]}}",
                 0, data, sizeof data);
    e = weights_fail("badoff.yaml", "badoff.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "end before they begin");
}

TEST(safetensors_header_length_too_large)
{
    unsigned char data[24] = { 0 };
    write_st_raw("hlen.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [2, 3], "
                 "\"data_offsets\": [0, 24]}}",
                 100000, data, sizeof data);
    const char *e = weights_fail("hlen.yaml", "hlen.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "the header length is 100000 bytes, but the file is "
                       "only ");
    write_st_raw("hlen2.safetensors", "{}", UINT64_MAX, NULL, 0);
    e = weights_fail("hlen2.yaml", "hlen2.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "above the limit");
}

TEST(safetensors_dimension_overflow)
{
    write_st_raw("dimovf.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [4611686018427387904, 4], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    const char *e = weights_fail("dimovf.yaml", "dimovf.safetensors",
                                 RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "tensor 'w1': shape [4611686018427387904,4] has more "
                       "elements than fit in 64 bits");
    write_st_raw("dimovf2.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [0, 99999999999999999999999], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimovf2.yaml", "dimovf2.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "more elements than fit in 64 bits");
    /* a zero dim leaves no data, but the others must still fit */
    write_st_raw("dimovf3.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [0, 9223372036854775807, 4], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimovf3.yaml", "dimovf3.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "shape [0,9223372036854775807,4] has more elements "
                       "than fit in 64 bits");
    write_st_raw("dimovf4.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", "
                 "\"shape\": [9223372036854775807, 0], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimovf4.yaml", "dimovf4.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "more elements than fit in 64 bits");
    write_st_raw("dimneg.safetensors",
                 "{\"w1\": {\"dtype\": \"F32\", \"shape\": [-1, 3], "
                 "\"data_offsets\": [0, 0]}}",
                 0, NULL, 0);
    e = weights_fail("dimneg.yaml", "dimneg.safetensors", RLX_ERR_FORMAT);
    ASSERT_CONTAINS(e, "shape entry 0 is not a non-negative integer");
}

RLX_TEST_LIST(
    TEST_ENTRY(yaml_syntax_error),
    TEST_ENTRY(yaml_bad_indentation),
    TEST_ENTRY(yaml_duplicate_key_and_alias),
    TEST_ENTRY(duplicates_in_large_mappings),
    TEST_ENTRY(empty_file),
    TEST_ENTRY(not_a_yaml_model),
    TEST_ENTRY(missing_top_level_key),
    TEST_ENTRY(unknown_top_level_key),
    TEST_ENTRY(wrong_format_version),
    TEST_ENTRY(unknown_op),
    TEST_ENTRY(unknown_attribute),
    TEST_ENTRY(wrong_attribute_type),
    TEST_ENTRY(unknown_dtype),
    TEST_ENTRY(undefined_value),
    TEST_ENTRY(duplicate_name),
    TEST_ENTRY(shape_mismatch),
    TEST_ENTRY(dtype_mismatch),
    TEST_ENTRY(constant_value_count),
    TEST_ENTRY(dimension_overflow_in_yaml),
    TEST_ENTRY(missing_weights_file),
    TEST_ENTRY(tensor_missing_from_weights),
    TEST_ENTRY(param_differs_from_file),
    TEST_ENTRY(safetensors_header_not_json),
    TEST_ENTRY(safetensors_truncated),
    TEST_ENTRY(safetensors_overlap),
    TEST_ENTRY(safetensors_size_inconsistent),
    TEST_ENTRY(safetensors_header_length_too_large),
    TEST_ENTRY(safetensors_dimension_overflow))
