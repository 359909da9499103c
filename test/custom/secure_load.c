/*
 * secure_load.c - loads one model and prints the result: test-custom-op
 * runs a set-user-ID copy of it as another user, where custom ops may load
 * only absolute paths under the system plugin directory.
 */
#include <stdio.h>

#include <rlx/rlx.h>

int main(int argc, char **argv)
{
    rlx_model *m = NULL;
    if (argc != 2) {
        fprintf(stderr, "usage: secure-load MODEL.yaml\n");
        return 2;
    }
    if (rlx_model_load(argv[1], &m) != RLX_OK) {
        printf("%s\n", rlx_last_error());
        return 1;
    }
    printf("loaded\n");
    rlx_model_destroy(m);
    return 0;
}
