/* data_entry.c - exports rlx_plugin_init as a data object: calling it
 * would jump into data. The loader must refuse it by the symbol's type. */
__attribute__((visibility("default"))) const unsigned char
    rlx_plugin_init[16] = { 0xff, 0xff, 0xff, 0xff };
