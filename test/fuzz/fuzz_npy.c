/*
 * fuzz_npy.c - libFuzzer harness: the .npy reader of `rlx run --input`
 * (magic, versions 1-3, the header dictionary, descriptors, shapes and
 * the data size) on any bytes. An accepted array is read to its end.
 */
#include "npy.h"

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
    cli_tensor t;
    char err[1024];
    memset(&t, 0, sizeof t);
    if (cli_npy_read(fuzz_file("x.npy", data, size), &t, err, sizeof err) !=
        0) {
        if (!strstr(err, "Fix:"))
            abort(); /* every refusal says how to fix it */
        return 0;
    }
    fuzz_touch(t.data, t.nbytes);
    cli_tensor_free(&t);
    return 0;
}
