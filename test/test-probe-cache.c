/*
 * test-probe-cache.c - availability probes remembered across runtimes
 * (core/src/plugin/probe_cache.c): a warm cache answers automatic device choice
 * without probing; a new key, a touched plugin file, RLX_PROBE_CACHE=0, a
 * corrupt or hostile cache file each lead to a live probe; unavailable
 * answers keep their reason and Fix; backends without the extension are
 * always probed live.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "test-util.h"

static char root[256], plugin[512], logpath[512], cache[512];

/* A private cache dir, probe log and copy of the test plugin. */
static void setup(void)
{
    snprintf(root, sizeof root, "/tmp/rlx-probe-cache-XXXXXX");
    if (!mkdtemp(root))
        FAIL("mkdtemp: %s", strerror(errno));
    char cmd[1400];
    snprintf(plugin, sizeof plugin, "%s/librlx-backend-testprobekey.so", root);
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", test_plugin("testprobekey"),
             plugin);
    ASSERT_EQ(system(cmd), 0);
    snprintf(logpath, sizeof logpath, "%s/probes.log", root);
    snprintf(cache, sizeof cache, "%s/xdg/rlx/probe-cache-v2", root);
    char xdg[300];
    snprintf(xdg, sizeof xdg, "%s/xdg", root);
    setenv("XDG_CACHE_HOME", xdg, 1);
    setenv("RLX_TEST_PROBE_LOG", logpath, 1);
    setenv("RLX_TEST_PROBE_KEY", "one", 1);
    unsetenv("RLX_TEST_PROBE_FAIL");
    unsetenv("RLX_PROBE_CACHE");
}

static void teardown(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", root);
}

static int probes(void)
{
    FILE *f = fopen(logpath, "r");
    if (!f)
        return 0;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* A fresh runtime with the plugin copy; automatic choice for "probenpu".
 * Returns the session's explanation (static copy), or the error. */
static const char *choose(rlx_status *st_out)
{
    static char text[8192];
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, plugin));
    rlx_session *s = NULL;
    rlx_status st = rlx_session_create(rt, "probenpu", &s);
    snprintf(text, sizeof text, "%s",
             st == RLX_OK ? rlx_session_explain(s) : rlx_last_error());
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
    if (st_out)
        *st_out = st;
    return text;
}

TEST(warm_cache_skips_the_probe)
{
    setup();
    rlx_status st;
    const char *why = choose(&st);
    ASSERT_OK(st);
    ASSERT_EQ(probes(), 1);
    ASSERT(strstr(why, "cached probe") == NULL);
    why = choose(&st);
    ASSERT_OK(st);
    ASSERT_EQ(probes(), 1);
    ASSERT_CONTAINS(why, "2 devices, cached probe");
    struct stat sb;
    ASSERT_EQ(stat(cache, &sb), 0);
    ASSERT((sb.st_mode & 0777) == 0600);
    teardown();
}

TEST(new_key_or_touched_plugin_probes_again)
{
    setup();
    choose(NULL);
    setenv("RLX_TEST_PROBE_KEY", "two", 1);
    choose(NULL);
    ASSERT_EQ(probes(), 2);
    choose(NULL);
    ASSERT_EQ(probes(), 2);
    /* a replaced or upgraded plugin file: new mtime */
    struct timeval tv[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
    ASSERT_EQ(utimes(plugin, tv), 0);
    choose(NULL);
    ASSERT_EQ(probes(), 3);
    choose(NULL);
    ASSERT_EQ(probes(), 3);
    teardown();
}

TEST(unavailable_answer_keeps_reason_and_fix)
{
    setup();
    setenv("RLX_TEST_PROBE_FAIL", "1", 1);
    rlx_status st;
    char first[8192];
    snprintf(first, sizeof first, "%s", choose(&st));
    ASSERT_STATUS(st, RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(first, "the test said no.\tTabbed\\\nsecond line.");
    ASSERT_CONTAINS(first, "Fix: unset RLX_TEST_PROBE_FAIL");
    const char *again = choose(&st);
    ASSERT_STATUS(st, RLX_ERR_UNAVAILABLE);
    ASSERT_EQ(probes(), 1);
    ASSERT_CONTAINS(again, "unavailable (cached probe)");
    ASSERT_CONTAINS(again, "the test said no.\tTabbed\\\nsecond line.");
    ASSERT_CONTAINS(again, "Fix: unset RLX_TEST_PROBE_FAIL");
    teardown();
}

TEST(disabled_by_environment)
{
    setup();
    setenv("RLX_PROBE_CACHE", "0", 1);
    choose(NULL);
    choose(NULL);
    ASSERT_EQ(probes(), 2);
    ASSERT(access(cache, F_OK) != 0);
    teardown();
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs(text, f);
    fclose(f);
}

static int cache_is_valid(void)
{
    char line[64] = "";
    FILE *f = fopen(cache, "r");
    if (!f)
        return 0;
    int ok = fgets(line, sizeof line, f) != NULL &&
             strcmp(line, "rlx-probe-cache 2\n") == 0;
    fclose(f);
    return ok;
}

TEST(corrupt_cache_is_ignored_and_rewritten)
{
    static const char *const bad[] = {
        "garbage\n",
        "rlx-probe-cache 2\ntest-probekey\tzz\t0\t2\t0\t\t\n",
        "rlx-probe-cache 2\ntest-probekey\t0000000000000001\t0\n",
        "rlx-probe-cache 2\ntest-probekey\t0000000000000001\t0\t2\t0\tbad\\q\t\n",
        "rlx-probe-cache 2\ntest-probekey\t0000000000000001\t0\t2\t0\t\tbad\\q\n",
        /* the format before keys were kept */
        "rlx-probe-cache 1\ntest-probekey\t0000000000000001\t0\t2\t0\t\n",
        "",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        setup();
        choose(NULL);
        ASSERT_EQ(probes(), 1);
        write_file(cache, bad[i]);
        choose(NULL);
        ASSERT_EQ(probes(), 2);
        ASSERT(cache_is_valid());
        choose(NULL);
        ASSERT_EQ(probes(), 2); /* rewritten: warm again */
        teardown();
    }
}

TEST(hostile_cache_symlink_is_not_followed)
{
    setup();
    char target[600], dir[600];
    snprintf(target, sizeof target, "%s/victim", root);
    snprintf(dir, sizeof dir, "%s/xdg/rlx", root);
    write_file(target, "precious\n");
    char xdg[600];
    snprintf(xdg, sizeof xdg, "%s/xdg", root);
    ASSERT_EQ(mkdir(xdg, 0700), 0);
    ASSERT_EQ(mkdir(dir, 0700), 0);
    ASSERT_EQ(symlink(target, cache), 0);
    choose(NULL);
    choose(NULL);
    ASSERT_EQ(probes(), 1); /* replaced by a real file, then used */
    struct stat sb;
    ASSERT_EQ(lstat(cache, &sb), 0);
    ASSERT(S_ISREG(sb.st_mode));
    FILE *f = fopen(target, "r");
    char line[32] = "";
    ASSERT(f && fgets(line, sizeof line, f));
    fclose(f);
    ASSERT_STREQ(line, "precious\n");
    teardown();
}

TEST(backend_without_extension_is_probed_live)
{
    setup();
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    rlx_session *s = NULL;
    for (int i = 0; i < 2; i++) {
        ASSERT_OK(rlx_session_create(rt, "npu", &s));
        ASSERT(strstr(rlx_session_explain(s), "cached probe") == NULL);
        rlx_session_destroy(s);
    }
    rlx_runtime_destroy(rt);
    ASSERT(access(cache, F_OK) != 0);
    teardown();
}

RLX_TEST_LIST(TEST_ENTRY(warm_cache_skips_the_probe),
              TEST_ENTRY(new_key_or_touched_plugin_probes_again),
              TEST_ENTRY(unavailable_answer_keeps_reason_and_fix),
              TEST_ENTRY(disabled_by_environment),
              TEST_ENTRY(corrupt_cache_is_ignored_and_rewritten),
              TEST_ENTRY(hostile_cache_symlink_is_not_followed),
              TEST_ENTRY(backend_without_extension_is_probed_live));
