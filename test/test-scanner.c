/*
 * test-scanner.c - out-of-process plugin scanning and the registry cache:
 * plugins that crash, exit or hang in every phase sit beside a good one;
 * `rlx devices` and `rlx run` must survive them, use the good backend and
 * name each bad file with its own reason, including plugins that crash
 * the scanner after it reported them (a destructor, a thread, a forged
 * "clean" report), and a plugin rewritten in place with its size and mtime put
 * back is scanned again. Counts scanner spawns through RLX_TEST_SCAN_LOG
 * (a test hook: a line per spawn and per file scanned).
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>

#include "test-tool.h"
#include "test-util.h"

static const char *const bad[][2] = {
    { "badctorsegv", "killed by SIGSEGV in dlopen (the plugin's constructors)" },
    { "badinitsegv", "killed by SIGSEGV in rlx_plugin_init" },
    { "badinitabort", "killed by SIGABRT in rlx_plugin_init" },
    { "badinitexit", "exited with status 7 in rlx_plugin_init" },
    { "badinithang", "did not finish within 3.0 s in rlx_plugin_init" },
    { "badfitsigill", "killed by SIGILL in rlx_plugin_host_fit" },
    { "baddataentry", "rlx_plugin_init is a data object, not a function" },
    /* the scanner reported them, then died: never trusted */
    { "badexitsegv", "killed by SIGSEGV in the scanner's exit, after the "
                     "file's report" },
    { "badforged", "killed by SIGSEGV in the scanner's exit, after the "
                   "file's report" },
    /* a thread started by init, woken by the destructor */
    { "badthreadsegv", "killed by SIGSEGV in the scanner's exit, after the "
                       "file's report" },
};
#define N_BAD (sizeof bad / sizeof *bad)

static char dir[256], cache[300], logf[300];
/* The hanging plugin costs the whole timeout each time it is scanned:
 * only the tests about reporting it have it. */
static int with_hang;

static int present(size_t i)
{
    return with_hang || strcmp(bad[i][0], "badinithang") != 0;
}

static void file_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/plugins/librlx-backend-%s.so", dir, name);
}

/* A plugin directory with every bad plugin and the good one, its own
 * cache and scan log; the environment points at them. */
static void setup_with(int hang)
{
    with_hang = hang;
    char src[1024], dst[1024], sub[300];
    snprintf(dir, sizeof dir, "%s", tool_tmp_make());
    snprintf(sub, sizeof sub, "%s/plugins", dir);
    ASSERT(mkdir(sub, 0755) == 0);
    for (size_t i = 0; i < N_BAD; i++) {
        if (!present(i))
            continue;
        snprintf(src, sizeof src, "%s/bad/librlx-backend-%s.so",
                 tool_env("RLX_TEST_PLUGIN_DIR"), bad[i][0]);
        file_path(dst, sizeof dst, bad[i][0]);
        tool_file_copy(src, dst);
    }
    file_path(dst, sizeof dst, "testgood");
    tool_file_copy(test_plugin("testgood"), dst);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(logf, sizeof logf, "%s/scan.log", dir);
    setenv("XDG_CACHE_HOME", cache, 1);
    setenv("RLX_PLUGIN_PATH", sub, 1);
    setenv("RLX_TEST_SCAN_LOG", logf, 1);
    /* long enough for a sanitizer build on a loaded machine to start the
     * scanner and load a plugin; the hanging plugin costs this much */
    setenv("RLX_PLUGIN_SCAN_TIMEOUT", "3", 1);
}

static void setup(void)
{
    setup_with(0);
}

/* Lines of the scan log starting with PREFIX (and naming NAME if given),
 * then empty the log. */
static int log_count(const char *prefix, const char *name)
{
    size_t len = 0;
    FILE *f = fopen(logf, "r");
    if (!f)
        return 0;
    fclose(f);
    unsigned char *buf = tool_file_read(logf, 1 << 20, &len);
    int n = 0;
    for (char *line = (char *)buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        if (strncmp(line, prefix, strlen(prefix)) == 0 &&
            (!name || strstr(line, name)))
            n++;
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
    unlink(logf);
    return n;
}

/* tool_out as TAP comments, for a failure's context. */
static void show_out(void)
{
    for (const char *p = tool_out; p && *p;) {
        const char *nl = strchr(p, '\n');
        int n = nl ? (int)(nl - p) : (int)strlen(p);
        printf("# | %.*s\n", n, p);
        p = nl ? nl + 1 : NULL;
    }
}

static void expect_devices_ok(void)
{
    int rc = tool_run("devices", 1);
    if (rc != 0) {
        show_out();
        FAIL("rlx devices exited %d", rc);
    }
    ASSERT_CONTAINS(tool_out, "npu -> test-good");
    ASSERT(!strstr(tool_out, "test-bad-"));
    char path[1024];
    for (size_t i = 0; i < N_BAD; i++) {
        if (!present(i))
            continue;
        file_path(path, sizeof path, bad[i][0]);
        const char *at = strstr(tool_out, path);
        if (!at) {
            show_out();
            FAIL("%s is not listed", path);
        }
        /* its own reason, on the lines right after its name */
        const char *reason = strstr(at, "reason: ");
        ASSERT(reason);
        const char *eol = strchr(reason, '\n');
        const char *found = strstr(reason, bad[i][1]);
        if (!eol || !found || found > eol) {
            show_out();
            FAIL("%s: want '%s' in its reason", bad[i][0], bad[i][1]);
        }
        ASSERT_CONTAINS(eol, "fix:    ");
    }
}

TEST(bad_plugins_contained)
{
    setup_with(1);
    expect_devices_ok();
    ASSERT_CONTAINS(tool_out, "blacklisted: ");
    ASSERT_CONTAINS(tool_out, "(scanned 20");
    ASSERT(log_count("spawn ", NULL) >= 6); /* one per crash, at least */
    /* warm: the same answers without a scanner */
    expect_devices_ok();
    ASSERT_EQ(log_count("spawn ", NULL), 0);
    tool_tmp_remove_all();
}

TEST(run_uses_good_backend)
{
    char model[512], args[1200], q[600];
    setup_with(1);
    snprintf(model, sizeof model, "%s/add.yaml", dir);
    const char *yaml = "rlx_model: 1\n"
                       "inputs:\n  - {name: x, dtype: f32, shape: [4]}\n"
                       "nodes:\n  - {name: y, op: add, inputs: [x, x]}\n"
                       "outputs: [y]\n";
    tool_file_write(model, yaml, strlen(yaml));
    tool_quote(q, sizeof q, model);
    snprintf(args, sizeof args, "run %s --device npu", q);
    for (int pass = 0; pass < 2; pass++) { /* cold, then warm */
        int rc = tool_run(args, 1);
        if (rc != 0) {
            show_out();
            FAIL("rlx %s exited %d", args, rc);
        }
        ASSERT_CONTAINS(tool_out, "Backend: test-good");
    }
    ASSERT_EQ(log_count("spawn ", NULL) > 0, 1);
    tool_tmp_remove_all();
}

TEST(touch_rescans_exactly_that_file)
{
    char path[1024];
    setup();
    expect_devices_ok();
    log_count("", NULL);
    file_path(path, sizeof path, "testgood");
    struct timespec ts[2] = { { 0, UTIME_NOW }, { 0, UTIME_NOW } };
    ASSERT(utimensat(AT_FDCWD, path, ts, 0) == 0);
    expect_devices_ok();
    ASSERT_EQ(log_count("scanned ", "testgood"), 1);
    expect_devices_ok();
    ASSERT_EQ(log_count("scanned ", NULL), 0);
    /* replaced by another file of the same name: rescanned too */
    file_path(path, sizeof path, "badinitexit");
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.new", path);
    tool_file_copy(path, tmp);
    ASSERT(rename(tmp, path) == 0);
    expect_devices_ok();
    ASSERT_EQ(log_count("scanned ", NULL), 1);
    tool_tmp_remove_all();
}

/* Copy SRC to DST padded with zeros to SIZE bytes (an ELF file does not
 * mind trailing bytes). */
static void copy_padded(const char *src, const char *dst, size_t size)
{
    size_t n = 0;
    unsigned char *b = tool_file_read(src, 64u << 20, &n);
    ASSERT(n <= size);
    unsigned char *p = calloc(1, size);
    ASSERT(p);
    memcpy(p, b, n);
    /* in place: same inode, as an attacker (or a careless installer)
     * rewriting the file would */
    int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, p, size), (ssize_t)size);
    ASSERT_EQ(close(fd), 0);
    free(p);
    free(b);
}

static size_t file_size(const char *path)
{
    struct stat st;
    ASSERT_EQ(stat(path, &st), 0);
    return (size_t)st.st_size;
}

/* A scanned-clean plugin rewritten in place with a crashing one of the
 * same size, its mtime put back to the nanosecond: the change time (and
 * the inode generation) differ, so it is scanned again and blacklisted,
 * and no process dies. */
TEST(rewrite_in_place_with_mtime_restored_rescans)
{
    char good[1024], crash[1024], sub[400], path[600];
    setup();
    snprintf(good, sizeof good, "%s", test_plugin("testgood"));
    snprintf(crash, sizeof crash, "%s/bad/librlx-backend-badinitsegv.so",
             tool_env("RLX_TEST_PLUGIN_DIR"));
    size_t size = file_size(good) > file_size(crash) ? file_size(good)
                                                     : file_size(crash);
    snprintf(sub, sizeof sub, "%s/swap", dir);
    ASSERT(mkdir(sub, 0755) == 0);
    snprintf(path, sizeof path, "%s/librlx-backend-swap.so", sub);
    copy_padded(good, path, size);
    setenv("RLX_PLUGIN_PATH", sub, 1);
    ASSERT_EQ(tool_run("devices", 1), 0);
    ASSERT_CONTAINS(tool_out, "npu -> test-good");
    ASSERT_EQ(log_count("scanned ", "swap"), 1);
    struct stat before, after;
    ASSERT_EQ(stat(path, &before), 0);
    copy_padded(crash, path, size);
    struct timespec ts[2] = { before.st_atim, before.st_mtim };
    ASSERT_EQ(utimensat(AT_FDCWD, path, ts, 0), 0);
    ASSERT_EQ(stat(path, &after), 0);
    ASSERT_EQ(after.st_ino, before.st_ino);
    ASSERT_EQ(after.st_size, before.st_size);
    ASSERT_EQ(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
    ASSERT_EQ(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
    int rc = tool_run("devices", 1);
    if (rc != 0) {
        show_out();
        FAIL("rlx devices exited %d after the rewrite", rc);
    }
    ASSERT_CONTAINS(tool_out, "killed by SIGSEGV in rlx_plugin_init");
    ASSERT(!strstr(tool_out, "npu -> test-good"));
    ASSERT_EQ(log_count("scanned ", "swap"), 1);
    tool_tmp_remove_all();
}

static void corrupt_and_recover(const char *what, size_t keep,
                                const char *garbage)
{
    char file[400];
    snprintf(file, sizeof file, "%s/rlx/plugin-registry", cache);
    size_t len;
    unsigned char *good = tool_file_read(file, 1 << 20, &len);
    ASSERT_CONTAINS((char *)good, "rlx-plugin-cache 2");
    FILE *f = fopen(file, "wb");
    ASSERT(f);
    fwrite(good, 1, keep < len ? keep : len, f);
    fputs(garbage, f);
    fclose(f);
    expect_devices_ok();
    if (log_count("scanned ", NULL) < (int)N_BAD - 1)
        FAIL("%s cache: not every file was rescanned", what);
    unsigned char *again = tool_file_read(file, 1 << 20, &len);
    ASSERT_CONTAINS((char *)again, "rlx-plugin-cache 2");
    ASSERT_CONTAINS((char *)again, "badinitsegv");
    free(again);
    free(good);
}

TEST(corrupt_cache_recovered)
{
    setup();
    expect_devices_ok();
    log_count("", NULL);
    corrupt_and_recover("garbage", 0, "\x7f" "ELF not a cache\n");
    corrupt_and_recover("truncated", 200, "");
    /* an entry declaring the crashing plugin clean, with a bad escape
     * elsewhere: the whole file is ignored, never half-trusted */
    corrupt_and_recover("hostile", 1 << 20,
                        "file /x 1 2 3 4 5\nclean -1 -\nbackend %ZZ 1 a 1 "
                        "1 1 -\nend\n");
    corrupt_and_recover("wrong version", 0, "rlx-plugin-cache 999 1\n");
    tool_tmp_remove_all();
}

TEST(concurrent_first_starts)
{
    setup();
    char bin[4096], cmd[8192];
    tool_quote(bin, sizeof bin, tool_env("RLX_TEST_RLX_BIN"));
    /* four processes race to scan and to write the cache */
    snprintf(cmd, sizeof cmd,
             "pids=; for i in 1 2 3 4; do %s devices >/dev/null 2>&1 & "
             "pids=\"$pids $!\"; done; fail=0; "
             "for p in $pids; do wait $p || fail=1; done; exit $fail", bin);
    ASSERT_EQ(system(cmd), 0);
    log_count("", NULL);
    expect_devices_ok();
    ASSERT_EQ(log_count("spawn ", NULL), 0);
    tool_tmp_remove_all();
}

TEST(modes_and_rescan)
{
    setup();
    expect_devices_ok();
    log_count("", NULL);
    ASSERT_EQ(tool_run("devices --rescan", 1), 0);
    ASSERT(log_count("scanned ", NULL) >= (int)N_BAD - 1);
    /* no scanner to be found: in-process, with a diagnostic, and the
     * good plugin still loads (the bad ones are not there for this) */
    char only_good[400], src[1024];
    snprintf(only_good, sizeof only_good, "%s/good", dir);
    ASSERT(mkdir(only_good, 0755) == 0);
    snprintf(src, sizeof src, "%s/librlx-backend-testgood.so", only_good);
    tool_file_copy(test_plugin("testgood"), src);
    setenv("RLX_PLUGIN_PATH", only_good, 1);
    setenv("RLX_PLUGIN_SCANNER", "/nonexistent/rlx-plugin-scanner", 1);
    ASSERT_EQ(tool_run("devices", 1), 0);
    ASSERT_CONTAINS(tool_out, "the plugin scanner is not installed");
    ASSERT_CONTAINS(tool_out, "npu -> test-good");
    unsetenv("RLX_PLUGIN_SCANNER");
    setenv("RLX_PLUGIN_SCAN", "inprocess", 1);
    ASSERT_EQ(tool_run("devices", 1), 0);
    ASSERT_CONTAINS(tool_out, "npu -> test-good");
    ASSERT(!strstr(tool_out, "scanner"));
    ASSERT_EQ(log_count("spawn ", NULL), 0);
    /* a value that means nothing is said, not silently ignored */
    setenv("RLX_PLUGIN_SCAN", "sideways", 1);
    setenv("RLX_PLUGIN_SCAN_TIMEOUT", "soon", 1);
    ASSERT_EQ(tool_run("devices", 1), 0);
    ASSERT_CONTAINS(tool_out, "not 'subprocess', 'inprocess' or 'rescan'");
    ASSERT_CONTAINS(tool_out, "not a number of seconds");
    ASSERT_CONTAINS(tool_out, "npu -> test-good");
    unsetenv("RLX_PLUGIN_SCAN");
    tool_tmp_remove_all();
}

/* The API in this process: an explicit load of a crashing file fails
 * with the blacklist reason, and this process goes on. */
TEST(explicit_load_survives)
{
    char path[1024];
    setup_with(1);
    rlx_runtime *rt = test_runtime();
    for (size_t i = 0; i < N_BAD; i++) {
        file_path(path, sizeof path, bad[i][0]);
        ASSERT(present(i));
        ASSERT(rlx_runtime_load_plugin(rt, path) != RLX_OK);
        ASSERT_CONTAINS(rlx_last_error(), bad[i][1]);
        ASSERT_CONTAINS(rlx_last_error(), "Fix:");
        const char *reason = NULL;
        ASSERT(test_find_diag(rt, path, NULL, &reason, NULL) >= 0);
        ASSERT_CONTAINS(reason, bad[i][1]);
    }
    file_path(path, sizeof path, "testgood");
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    ASSERT(rlx_runtime_find_backend(rt, "test-good") != NULL);
    rlx_runtime_destroy(rt);
    tool_tmp_remove_all();
}

/* Variants: the score the scanner measured is the one used. */
TEST(variant_score_from_scan)
{
    setup();
    rlx_runtime *rt = NULL;
    setenv("RLX_PLUGIN_PATH", tool_env("RLX_TEST_PLUGIN_DIR"), 1);
    for (int pass = 0; pass < 2; pass++) {
        ASSERT_OK(rlx_runtime_create(&rt, 0));
        const rlx_backend *b = rlx_runtime_find_backend(rt, "test-variant");
        ASSERT(b);
        ASSERT_EQ(rlx_backend_host_fit(b), 20);
        rlx_runtime_destroy(rt);
    }
    ASSERT_EQ(log_count("spawn ", NULL) >= 1, 1);
    tool_tmp_remove_all();
}

RLX_TEST_LIST(
    TEST_ENTRY(bad_plugins_contained),
    TEST_ENTRY(run_uses_good_backend),
    TEST_ENTRY(touch_rescans_exactly_that_file),
    TEST_ENTRY(rewrite_in_place_with_mtime_restored_rescans),
    TEST_ENTRY(corrupt_cache_recovered),
    TEST_ENTRY(concurrent_first_starts),
    TEST_ENTRY(modes_and_rescan),
    TEST_ENTRY(explicit_load_survives),
    TEST_ENTRY(variant_score_from_scan),
)
