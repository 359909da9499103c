/* no_entry.c - a shared library that is not an rlx plugin. */
__attribute__((visibility("default"))) int rlx_test_not_a_plugin(void)
{
    return 42;
}
