/* test-policy.c - forcing and disabling backends (environment and config
 * file), and picking the best host-fit variant of a plugin family. */
#include <unistd.h>

#include "test-util.h"

/* A runtime with the test plugins we need, created after setting the
 * selection variables (they are read at creation). */
static rlx_runtime *runtime_with(const char *force, const char *disable,
                                 const char *config)
{
    setenv("RLX_BACKEND_FORCE", force ? force : "", 1);
    setenv("RLX_BACKEND_DISABLE", disable ? disable : "", 1);
    setenv("RLX_CONFIG", config ? config : "", 1);
    rlx_runtime *rt = test_runtime();
    unsetenv("RLX_BACKEND_FORCE");
    unsetenv("RLX_BACKEND_DISABLE");
    unsetenv("RLX_CONFIG");
    if (rlx_runtime_load_plugin(rt, test_plugin("testfastcpu")) != RLX_OK ||
        rlx_runtime_load_plugin(rt, test_plugin("testgood")) != RLX_OK)
        FAIL("load: %s", rlx_last_error());
    return rt;
}

TEST(force_brings_back_the_reference)
{
    rlx_runtime *rt = runtime_with(NULL, NULL, NULL);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")),
                 "test-fastcpu");
    rlx_runtime_destroy(rt);

    rt = runtime_with("cpu=cpu-ref", NULL, NULL);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")), "cpu-ref");
    const char *why;
    const rlx_backend *fast = rlx_runtime_find_backend(rt, "test-fastcpu");
    ASSERT(!rlx_runtime_backend_allowed(rt, fast, &why));
    ASSERT_CONTAINS(why, "RLX_BACKEND_FORCE picks 'cpu-ref' for cpu");
    ASSERT(rlx_runtime_backend_allowed(
        rt, rlx_runtime_find_backend(rt, "cpu-ref"), &why));
    ASSERT_CONTAINS(why, "forced for cpu by RLX_BACKEND_FORCE");
    /* other devices are untouched */
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "npu")), "test-good");
    rlx_session *s;
    ASSERT_OK(rlx_session_create(rt, "cpu", &s));
    ASSERT_CONTAINS(rlx_session_explain(s), "not considered");
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(disable_by_glob)
{
    rlx_runtime *rt = runtime_with(NULL, "test-*", NULL);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")), "cpu-ref");
    ASSERT(rlx_runtime_choose(rt, "npu") == NULL);
    ASSERT_CONTAINS(rlx_last_error(), "disabled by RLX_BACKEND_DISABLE");
    rlx_session *s = NULL;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    rlx_session_destroy(s);
    /* an explicit backend id is still honoured */
    ASSERT_OK(rlx_session_create(rt, "test-good", &s));
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(bad_force_entry_is_reported)
{
    rlx_runtime *rt = runtime_with("cpu", NULL, NULL);
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, "RLX_BACKEND_FORCE", NULL, &reason, NULL) >= 0);
    ASSERT_CONTAINS(reason, "'cpu' is not DEVICE=ID");
    rlx_runtime_destroy(rt);
}

static const char *write_config(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/rlx-test-config-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        FAIL("cannot write %s", path);
    close(fd);
    return path;
}

TEST(config_file)
{
    const char *path = write_config("backends:\n"
                                    "  force: {cpu: cpu-ref}\n"
                                    "  disable: [test-good]\n");
    rlx_runtime *rt = runtime_with(NULL, NULL, path);
    ASSERT_STREQ(rlx_runtime_config_path(rt), path);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")), "cpu-ref");
    ASSERT(rlx_runtime_choose(rt, "npu") == NULL);
    rlx_runtime_destroy(rt);
    /* the environment overrides the file for the same device */
    rt = runtime_with("cpu=test-fastcpu", NULL, path);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")),
                 "test-fastcpu");
    rlx_runtime_destroy(rt);
    unlink(path);
}

TEST(broken_config_is_a_diagnostic)
{
    const char *path = write_config("backends:\n  force: [oops\n");
    rlx_runtime *rt = runtime_with(NULL, NULL, path);
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, path, NULL, &reason, NULL) >= 0);
    ASSERT_CONTAINS(reason, "YAML syntax error");
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_choose(rt, "cpu")),
                 "test-fastcpu");
    rlx_runtime_destroy(rt);
    unlink(path);

    path = write_config("backends:\n  pick: {cpu: x}\n");
    rt = runtime_with(NULL, NULL, path);
    ASSERT(test_find_diag(rt, path, NULL, &reason, NULL) >= 0);
    ASSERT_CONTAINS(reason, "line 2 column 3: unknown key under 'backends'");
    rlx_runtime_destroy(rt);
    unlink(path);

    rt = runtime_with(NULL, NULL, "/nonexistent/rlx.yaml");
    ASSERT(test_find_diag(rt, "/nonexistent/rlx.yaml", NULL, &reason,
                          NULL) >= 0);
    ASSERT_CONTAINS(reason, "cannot open the config file");
    rlx_runtime_destroy(rt);
}

TEST(best_variant_is_chosen)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, getenv("RLX_TEST_PLUGIN_DIR")));
    const rlx_backend *v = rlx_runtime_find_backend(rt, "test-variant");
    ASSERT(v);
    ASSERT_EQ(rlx_backend_host_fit(v), 20);
    ASSERT_STREQ(rlx_backend_description(v), "variant with score 20");
    ASSERT_STREQ(rlx_backend_plugin_path(v), test_plugin("testvariant-high"));
    rlx_diag_kind kind = 0;
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, test_plugin("testvariant-low"), &kind, &reason,
                          NULL) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_VARIANT);
    ASSERT_CONTAINS(reason, "host-fit score 10");
    ASSERT_CONTAINS(reason, "scores 20");
    ASSERT(test_find_diag(rt, test_plugin("testvariant-never"), &kind,
                          &reason, NULL) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_REJECTED);
    ASSERT_CONTAINS(reason, "cannot run on this host (host-fit score 0)");
    ASSERT_EQ(rlx_backend_host_fit(rlx_runtime_find_backend(rt, "cpu-ref")),
              -1);
    ASSERT_STREQ(rlx_diag_kind_name(RLX_DIAG_VARIANT), "variant");
    rlx_runtime_destroy(rt);
}

TEST(explicit_variant_load_checks_the_score)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, test_plugin("testvariant-never")),
                  RLX_ERR_UNSUPPORTED);
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testvariant-low")));
    ASSERT_EQ(rlx_backend_host_fit(rlx_runtime_find_backend(rt,
                                                            "test-variant")),
              10);
    rlx_runtime_destroy(rt);
}

/* A variant that is not chosen may come before the best in name order
 * (cpu-openblas-avx2 before -avx512 on an AVX-512 host): choosing reads
 * every variant of the family, so none may be let go before the choice
 * is made. */
TEST(best_variant_after_a_worse_one)
{
    char dir[64], path[3][128];
    static const char *const target[3] = {
        "testvariant-low",   /* a: 10, not chosen, first in name order */
        "testvariant-high",  /* b: 20, the best */
        "testvariant-never", /* c: 0, cannot run */
    };
    ASSERT(getenv("RLX_TEST_PLUGIN_DIR")); /* absolute: link targets */
    snprintf(dir, sizeof dir, "/tmp/rlx-test-variants-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
    for (int i = 0; i < 3; i++) {
        snprintf(path[i], sizeof path[i], "%s/librlx-backend-%c.so", dir,
                 'a' + i);
        ASSERT(symlink(test_plugin(target[i]), path[i]) == 0);
    }
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, dir));
    const rlx_backend *v = rlx_runtime_find_backend(rt, "test-variant");
    ASSERT(v);
    ASSERT_EQ(rlx_backend_host_fit(v), 20);
    ASSERT_STREQ(rlx_backend_plugin_path(v), path[1]);
    ASSERT_EQ(rlx_runtime_backend_count(rt), 2);
    rlx_diag_kind kind = 0;
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, path[0], &kind, &reason, NULL) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_VARIANT);
    char want[256];
    snprintf(want, sizeof want, "host-fit score 10, %s scores 20", path[1]);
    ASSERT_CONTAINS(reason, want);
    ASSERT(test_find_diag(rt, path[2], &kind, &reason, NULL) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_REJECTED);
    ASSERT_EQ(rlx_runtime_diag_count(rt), 2);
    rlx_runtime_destroy(rt);
    for (int i = 0; i < 3; i++)
        unlink(path[i]);
    rmdir(dir);
}

RLX_TEST_LIST(
    TEST_ENTRY(force_brings_back_the_reference),
    TEST_ENTRY(disable_by_glob),
    TEST_ENTRY(bad_force_entry_is_reported),
    TEST_ENTRY(config_file),
    TEST_ENTRY(broken_config_is_a_diagnostic),
    TEST_ENTRY(best_variant_is_chosen),
    TEST_ENTRY(explicit_variant_load_checks_the_score),
    TEST_ENTRY(best_variant_after_a_worse_one),
)
