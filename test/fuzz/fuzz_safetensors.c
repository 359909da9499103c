/*
 * fuzz_safetensors.c - libFuzzer harness: the safetensors reader (8-byte
 * header length, the strict JSON parser, dtype, shape and offset checks)
 * on any bytes. Every tensor it accepts is read to its last byte, so an
 * offset check that let one reach past the mapping crashes here.
 */
#include "model/model.h"

#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fuzz_env_isolate();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rlx__safetensors *st = NULL;
    const char *path = fuzz_file("w.safetensors", data, size);
    if (rlx__safetensors_open(path, &st) != RLX_OK) {
        rlx__error_clear();
        return 0;
    }
    for (uint32_t i = 0; i < st->n; i++) {
        const rlx__st_tensor *t = &st->tensors[i];
        if (t->end < t->begin || t->begin + (t->end - t->begin) >
                                     st->map_size)
            abort(); /* accepted offsets outside the file */
        fuzz_touch(t->data, (size_t)(t->end - t->begin));
        if (rlx__safetensors_find(st, t->name) != t)
            abort(); /* sorted by name, names unique */
    }
    rlx__safetensors_close(st);
    return 0;
}
