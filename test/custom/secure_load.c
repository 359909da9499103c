/*
 * secure_load.c - loads one model, allows one custom-op path (when given)
 * and compiles the model on the CPU, printing the result: test-custom-op
 * runs a set-user-ID copy of it as another user, where custom ops may load
 * only absolute paths under the system plugin directory.
 */
#include <stdio.h>

#include <rlx/rlx.h>

int main(int argc, char **argv)
{
    rlx_model *m = NULL;
    rlx_runtime *rt = NULL;
    rlx_session *s = NULL;
    rlx_program *p = NULL;
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: secure-load MODEL.yaml [ALLOWED]\n");
        return 2;
    }
    int rc = 1;
    if (rlx_model_load(argv[1], &m) != RLX_OK ||
        rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK) {
        printf("%s\n", rlx_last_error());
        goto done;
    }
    /* a path this user cannot resolve is refused here; the compile
     * below must refuse the library all the same */
    if (argc == 3 && rlx_runtime_allow_custom_ops(rt, argv[2]) != RLX_OK)
        printf("allow: %s\n", rlx_last_error());
    if (rlx_session_create(rt, "cpu", &s) != RLX_OK ||
        rlx_session_compile(s, rlx_model_graph(m), &p) != RLX_OK) {
        printf("%s\n", rlx_last_error());
        goto done;
    }
    printf("compiled\n");
    rc = 0;
done:
    rlx_program_destroy(p);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    rlx_model_destroy(m);
    return rc;
}
