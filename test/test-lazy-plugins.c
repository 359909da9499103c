/*
 * test-lazy-plugins.c - plugins left unopened when the caches say they
 * cannot win (core/src/plugin/lazy.c, probe_replay.c): a discovered plugin whose
 * cached probe says "unavailable" under a key that still holds is not
 * opened by automatic device choice, which explains it from the cache;
 * a changed key or plugin file opens it again; the public enumeration,
 * an explicit request and `rlx devices` see it whole; a plugin cached
 * "available" that then fails for real still falls back with its reason;
 * cold probes of two backends with probe keys run concurrently.
 * The test plugin (test/plugins/probe_key.c) logs "open PID" from its
 * constructor and "init PID" from rlx_plugin_init, so what this process
 * opened is counted apart from the plugin scanner's work.
 */
#include <errno.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "test-tool.h"
#include "test-util.h"

#define ID "test-probekey"

static char root[256], dir[300], plugin[512], loadlog[300], probelog[300];

static void setup(void)
{
    static const char *base;
    static int n;
    if (!base)
        base = tool_tmp_make(); /* removed at exit */
    snprintf(root, sizeof root, "%s/%d", base, n++);
    ASSERT_EQ(mkdir(root, 0755), 0);
    snprintf(dir, sizeof dir, "%s/plugins", root);
    ASSERT_EQ(mkdir(dir, 0755), 0);
    snprintf(plugin, sizeof plugin, "%s/librlx-backend-testprobekey.so", dir);
    tool_file_copy(test_plugin("testprobekey"), plugin);
    snprintf(loadlog, sizeof loadlog, "%s/load.log", root);
    snprintf(probelog, sizeof probelog, "%s/probe.log", root);
    char xdg[300];
    snprintf(xdg, sizeof xdg, "%s/xdg", root);
    setenv("XDG_CACHE_HOME", xdg, 1);
    setenv("RLX_TEST_LOAD_LOG", loadlog, 1);
    setenv("RLX_TEST_PROBE_LOG", probelog, 1);
    setenv("RLX_TEST_PROBE_KEY", "one", 1);
    setenv("RLX_TEST_PROBE_FAIL", "1", 1);
    setenv("RLX_PLUGIN_PATH", dir, 1); /* for `rlx devices` */
    unsetenv("RLX_TEST_COMPILE_FAIL");
    unsetenv("RLX_TEST_PROBE_KEY_TEXT");
    unsetenv("RLX_TEST_PROBE_RENDEZVOUS");
    unsetenv("RLX_PROBE_CACHE");
}

/* Lines "WHAT <this pid>" in the load log. */
static int opened_here(const char *what)
{
    FILE *f = fopen(loadlog, "r");
    if (!f)
        return 0;
    char line[128], want[64];
    snprintf(want, sizeof want, "%s %ld\n", what, (long)getpid());
    int n = 0;
    while (fgets(line, sizeof line, f))
        n += strcmp(line, want) == 0;
    fclose(f);
    return n;
}

static int live_probes(void)
{
    FILE *f = fopen(probelog, "r");
    if (!f)
        return 0;
    int n = 0, c;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* A runtime that discovers the plugin directory (as at start-up). */
static rlx_runtime *discover(void)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, dir));
    return rt;
}

/* Automatic choice on RT; its explanation (static copy). */
static const char *choose_auto(rlx_runtime *rt)
{
    static char text[8192];
    rlx_session *s = NULL;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    snprintf(text, sizeof text, "%s", rlx_session_explain(s));
    rlx_session_destroy(s);
    return text;
}

/* One start-up that probes live and fills both caches. */
static void warm_up(void)
{
    rlx_runtime *rt = discover();
    choose_auto(rt);
    rlx_runtime_destroy(rt);
}

TEST(unavailable_plugin_is_not_opened)
{
    setup();
    warm_up();
    ASSERT_EQ(live_probes(), 1);
    int opens = opened_here("open"), inits = opened_here("init");
    ASSERT(opens >= 1 && inits >= 1);

    rlx_runtime *rt = discover();
    const char *why = choose_auto(rt);
    ASSERT_EQ(opened_here("open"), opens);
    ASSERT_EQ(opened_here("init"), inits);
    ASSERT_EQ(live_probes(), 1);
    ASSERT_CONTAINS(why, "probenpu: backend '" ID "' unavailable (cached "
                         "probe; plugin not loaded, probe key ");
    ASSERT_CONTAINS(why, "the test said no.");
    ASSERT_CONTAINS(why, "Fix: unset RLX_TEST_PROBE_FAIL");
    ASSERT_CONTAINS(why, "chose backend 'cpu-ref'");
    ASSERT(!strstr(why, "probenpu: no backend registered"));
    /* a second session still needs nothing opened */
    choose_auto(rt);
    ASSERT_EQ(opened_here("init"), inits);

    /* the public enumeration shows it: opened now, once */
    const rlx_backend *b = rlx_runtime_find_backend(rt, ID);
    ASSERT(b != NULL);
    ASSERT_EQ(opened_here("init"), inits + 1);
    ASSERT_STREQ(rlx_backend_plugin_path(b), plugin);
    ASSERT_STREQ(rlx_backend_device_name(b), "probenpu");
    uint32_t n = rlx_runtime_backend_count(rt);
    ASSERT_EQ(n, 2u); /* cpu-ref and the plugin */
    ASSERT_EQ(opened_here("init"), inits + 1);
    /* opened, it is probed as before (from the cache) */
    why = choose_auto(rt);
    ASSERT_CONTAINS(why, "unavailable (cached probe): ");
    ASSERT_EQ(live_probes(), 1);
    rlx_runtime_destroy(rt);
}

TEST(changed_key_opens_it_again)
{
    setup();
    warm_up();
    int inits = opened_here("init");
    /* at start-up: the key no longer holds, so it is opened and probed */
    setenv("RLX_TEST_PROBE_KEY", "two", 1);
    rlx_runtime *rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1);
    const char *why = choose_auto(rt);
    ASSERT_EQ(live_probes(), 2);
    ASSERT(!strstr(why, "plugin not loaded"));
    rlx_runtime_destroy(rt);

    /* between start-up and the choice: a device appears */
    rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1); /* "two" is cached now */
    setenv("RLX_TEST_PROBE_KEY", "three", 1);
    unsetenv("RLX_TEST_PROBE_FAIL");
    rlx_session *s = NULL;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_EQ(opened_here("init"), inits + 2);
    ASSERT_EQ(live_probes(), 3);
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), ID);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(touched_plugin_file_opens_it_again)
{
    setup();
    warm_up();
    int inits = opened_here("init");
    struct timeval tv[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
    ASSERT_EQ(utimes(plugin, tv), 0);
    rlx_runtime *rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1);
    const char *why = choose_auto(rt);
    ASSERT_EQ(live_probes(), 2);
    ASSERT(!strstr(why, "plugin not loaded"));
    rlx_runtime_destroy(rt);
    /* and the next start-up leaves it closed again */
    rt = discover();
    choose_auto(rt);
    ASSERT_EQ(opened_here("init"), inits + 1);
    rlx_runtime_destroy(rt);
}

TEST(opaque_key_or_no_cache_opens_it)
{
    setup();
    setenv("RLX_TEST_PROBE_KEY_TEXT", "1", 1);
    warm_up();
    int inits = opened_here("init");
    rlx_runtime *rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1);
    ASSERT_CONTAINS(choose_auto(rt), "unavailable (cached probe): ");
    ASSERT_EQ(live_probes(), 1);
    rlx_runtime_destroy(rt);

    unsetenv("RLX_TEST_PROBE_KEY_TEXT");
    warm_up();
    inits = opened_here("init");
    setenv("RLX_PROBE_CACHE", "0", 1);
    rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1);
    rlx_runtime_destroy(rt);
}

TEST(explicit_request_unload_and_reload)
{
    setup();
    warm_up();
    int inits = opened_here("init");
    rlx_runtime *rt = discover();
    /* asking for its device opens it and probes live */
    rlx_session *s = NULL;
    ASSERT_STATUS(rlx_session_create(rt, "probenpu", &s),
                  RLX_ERR_UNAVAILABLE);
    ASSERT_CONTAINS(rlx_last_error(), "the test said no.");
    ASSERT_EQ(opened_here("init"), inits + 1);
    rlx_runtime_destroy(rt);

    /* a file never opened counts as loaded: once only, and unloadable */
    rt = discover();
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, plugin), RLX_ERR_DUPLICATE);
    ASSERT_OK(rlx_runtime_unload_plugin(rt, plugin));
    ASSERT_EQ(rlx_runtime_backend_count(rt), 1u);
    ASSERT(rlx_runtime_find_backend(rt, ID) == NULL);
    ASSERT_EQ(opened_here("init"), inits + 1);
    ASSERT_OK(rlx_runtime_load_plugin(rt, plugin));
    ASSERT_EQ(opened_here("init"), inits + 2);
    ASSERT(rlx_runtime_find_backend(rt, ID) != NULL);
    rlx_runtime_destroy(rt);
}

TEST(devices_lists_it)
{
    setup();
    warm_up();
    ASSERT_EQ(tool_run("devices", 1), 0);
    ASSERT_CONTAINS(tool_out, ID);
    ASSERT_CONTAINS(tool_out, "the test said no.");
    ASSERT_CONTAINS(tool_out, plugin);
}

static rlx_graph *add_graph(void)
{
    rlx_graph *g;
    rlx_value a, b, c;
    ASSERT_OK(rlx_graph_create(&g));
    ASSERT_OK(rlx_graph_input(g, "a", RLX_DTYPE_F32, 1, (int64_t[]){ 4 }, &a));
    ASSERT_OK(rlx_graph_input(g, "b", RLX_DTYPE_F32, 1, (int64_t[]){ 4 }, &b));
    ASSERT_OK(rlx_graph_add_node(g, "add", RLX_OP_ADD, 2,
                                 (rlx_value[]){ a, b }, NULL, &c));
    ASSERT_OK(rlx_graph_output(g, "c", c));
    return g;
}

TEST(cached_available_failing_for_real_falls_back)
{
    setup();
    unsetenv("RLX_TEST_PROBE_FAIL");
    warm_up();
    int inits = opened_here("init");
    /* cached "available": opened at start-up as before */
    rlx_runtime *rt = discover();
    ASSERT_EQ(opened_here("init"), inits + 1);
    setenv("RLX_TEST_COMPILE_FAIL", "1", 1);
    rlx_session *s = NULL;
    ASSERT_OK(rlx_session_create(rt, NULL, &s));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), ID);
    ASSERT_CONTAINS(rlx_session_explain(s), "2 devices, cached probe");
    ASSERT_EQ(live_probes(), 1);
    rlx_graph *g = add_graph();
    rlx_program *p = NULL;
    ASSERT_OK(rlx_session_compile(s, g, &p));
    ASSERT_STREQ(rlx_backend_id(rlx_session_backend(s)), "cpu-ref");
    ASSERT_CONTAINS(rlx_session_explain(s),
                    "backend '" ID "' could not compile the graph: ");
    ASSERT_CONTAINS(rlx_session_explain(s), "the device went away");
    ASSERT_CONTAINS(rlx_session_explain(s), "fell back to backend 'cpu-ref'");
    rlx_program_destroy(p);
    rlx_graph_destroy(g);
    rlx_session_destroy(s);
    rlx_runtime_destroy(rt);
}

TEST(cold_probes_run_concurrently)
{
    setup();
    char second[600], rv[300];
    snprintf(second, sizeof second, "%s/librlx-backend-testprobekey2.so",
             dir);
    tool_file_copy(test_plugin("testprobekey2"), second);
    snprintf(rv, sizeof rv, "%s/rendezvous", root);
    setenv("RLX_TEST_PROBE_RENDEZVOUS", rv, 1);
    rlx_runtime *rt = discover();
    ASSERT_EQ(rlx_runtime_backend_count(rt), 3u);
    const char *why = choose_auto(rt);
    ASSERT_CONTAINS(why, "probenpu: backend '" ID "' unavailable: ");
    ASSERT_CONTAINS(why, "probenpu2: backend '" ID "2' unavailable: ");
    size_t len = 0;
    char *met = (char *)tool_file_read(rv, 4096, &len);
    ASSERT(met != NULL);
    /* each waited for the other: neither gave up */
    ASSERT(strstr(met, ID "\n") && strstr(met, ID "2\n"));
    ASSERT(!strstr(met, "alone"));
    free(met);
    ASSERT_EQ(live_probes(), 2);
    rlx_runtime_destroy(rt);
    unsetenv("RLX_TEST_PROBE_RENDEZVOUS");
}

static rlx_runtime *shared_rt;

static void *chooser(void *arg)
{
    (void)arg;
    for (int i = 0; i < 8; i++) {
        rlx_session *s = NULL;
        if (rlx_session_create(shared_rt, NULL, &s) != RLX_OK)
            return (void *)1;
        const char *id = rlx_backend_id(rlx_session_backend(s));
        int bad = strcmp(id, "cpu-ref") != 0;
        rlx_session_destroy(s);
        if (bad)
            return (void *)1;
    }
    return NULL;
}

static void *enumerator(void *arg)
{
    (void)arg;
    return rlx_runtime_backend_count(shared_rt) == 2 &&
                   rlx_runtime_find_backend(shared_rt, ID)
               ? NULL
               : (void *)1;
}

TEST(concurrent_choice_and_opening)
{
    setup();
    warm_up();
    int inits = opened_here("init");
    shared_rt = discover();
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(pthread_create(&t[i], NULL, i == 2 ? enumerator : chooser,
                                 NULL), 0);
    for (int i = 0; i < 4; i++) {
        void *r = NULL;
        pthread_join(t[i], &r);
        ASSERT(r == NULL);
    }
    ASSERT_EQ(opened_here("init"), inits + 1); /* opened exactly once */
    ASSERT_EQ(live_probes(), 1);
    rlx_runtime_destroy(shared_rt);
}

RLX_TEST_LIST(TEST_ENTRY(unavailable_plugin_is_not_opened),
              TEST_ENTRY(changed_key_opens_it_again),
              TEST_ENTRY(touched_plugin_file_opens_it_again),
              TEST_ENTRY(opaque_key_or_no_cache_opens_it),
              TEST_ENTRY(explicit_request_unload_and_reload),
              TEST_ENTRY(devices_lists_it),
              TEST_ENTRY(cached_available_failing_for_real_falls_back),
              TEST_ENTRY(cold_probes_run_concurrently),
              TEST_ENTRY(concurrent_choice_and_opening));
