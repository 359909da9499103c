/* dep.c - the library missing_dep.c links to; its SONAME names a file
 * that is never installed. */
__attribute__((visibility("default"))) int rlx_test_dep_value(void)
{
    return 1;
}
