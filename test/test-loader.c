/* test-loader.c - the plugin loader against good and broken files. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test-util.h"

/* Load PATH and expect STATUS with a diagnostic containing WANT. */
static void expect_rejected(const char *name, rlx_status status,
                            const char *want_reason, const char *want_fix)
{
    rlx_runtime *rt = test_runtime();
    const char *path = test_plugin(name);
    uint32_t before = rlx_runtime_backend_count(rt);
    rlx_status st = rlx_runtime_load_plugin(rt, path);
    char err[2048];
    snprintf(err, sizeof err, "%s", rlx_last_error());
    const char *r = NULL, *f = NULL;
    char reason[2048] = "", fix[2048] = "";
    int d = test_find_diag(rt, path, NULL, &r, &f);
    if (d >= 0) {
        snprintf(reason, sizeof reason, "%s", r);
        snprintf(fix, sizeof fix, "%s", f);
    }
    uint32_t after = rlx_runtime_backend_count(rt);
    rlx_runtime_destroy(rt);
    if (st != status)
        FAIL("%s: got %s, want %s (%s)", name, rlx_status_name(st),
             rlx_status_name(status), err);
    ASSERT(d >= 0);
    ASSERT_CONTAINS(reason, want_reason);
    ASSERT_CONTAINS(fix, want_fix);
    ASSERT_CONTAINS(err, path);
    ASSERT_EQ(after, before);
}

TEST(good_plugin_loads)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-good");
    const rlx_backend *e = rlx_runtime_find_backend(rt, "test-emit");
    ASSERT(b && e);
    ASSERT_STREQ(rlx_backend_device_name(b), "npu");
    ASSERT_EQ(rlx_backend_device_kind(b), RLX_DEVICE_CUSTOM);
    ASSERT_STREQ(rlx_backend_plugin_path(b), test_plugin("testgood"));
    ASSERT_EQ(rlx_backend_abi_version(b), RLX_ABI_VERSION);
    ASSERT(rlx_backend_executes(b));
    ASSERT(!rlx_backend_executes(e));
    ASSERT_EQ(rlx_runtime_diag_count(rt), 0);
    rlx_runtime_destroy(rt);
}

TEST(wrong_abi_major_refused)
{
    expect_rejected("testwrongabi", RLX_ERR_ABI_MISMATCH, "ABI 2.0",
                    "rebuild the plugin against rlx plugin-abi 1.x");
}

TEST(missing_entry_point)
{
    expect_rejected("testnoentry", RLX_ERR_PLUGIN, "no rlx_plugin_init",
                    "export rlx_plugin_init");
}

TEST(init_error_reported)
{
    expect_rejected("testiniterror", RLX_ERR_UNAVAILABLE,
                    "simulated device failure", "plug in the test device");
}

TEST(malformed_vtable)
{
    rlx_runtime *rt = test_runtime();
    const char *path = test_plugin("testmalformed");
    ASSERT(rlx_runtime_load_plugin(rt, path) != RLX_OK);
    int tiny = 0, noexec = 0, badid = 0, kind = 0;
    for (uint32_t i = 0; i < rlx_runtime_diag_count(rt); i++) {
        const char *p, *reason;
        ASSERT_OK(rlx_runtime_diag(rt, i, NULL, &p, &reason, NULL));
        ASSERT_STREQ(p, path);
        tiny += strstr(reason, "'test-tiny': malformed vtable") != NULL;
        noexec += strstr(reason, "required slot 'compile'") != NULL;
        badid += strstr(reason, "id 'Bad Id!'") != NULL;
        kind += strstr(reason, "device kind 77") != NULL;
    }
    ASSERT(tiny == 1 && noexec == 1 && badid == 1 && kind == 1);
    ASSERT_EQ(rlx_runtime_backend_count(rt), 1);
    rlx_runtime_destroy(rt);
}

TEST(duplicate_id)
{
    rlx_runtime *rt = test_runtime();
    const char *path = test_plugin("testdup");
    ASSERT_OK(rlx_runtime_load_plugin(rt, path));
    ASSERT(rlx_runtime_find_backend(rt, "test-dup"));
    ASSERT_EQ(rlx_runtime_backend_count(rt), 2);
    const rlx_backend *ref = rlx_runtime_find_backend(rt, "cpu-ref");
    ASSERT_STREQ(rlx_backend_plugin_path(ref), "(built-in)");
    int dup = 0, refdup = 0;
    for (uint32_t i = 0; i < rlx_runtime_diag_count(rt); i++) {
        const char *reason;
        rlx_runtime_diag(rt, i, NULL, NULL, &reason, NULL);
        dup += strstr(reason, "'test-dup' is registered twice by this "
                              "plugin") != NULL;
        refdup += strstr(reason, "'cpu-ref' is already registered by "
                                 "(built-in)") != NULL;
    }
    ASSERT(dup == 1 && refdup == 1);
    rlx_runtime_destroy(rt);
}

TEST(unresolved_symbol)
{
    expect_rejected("testunresolved", RLX_ERR_PLUGIN,
                    "undefined symbol: rlx_test_symbol_nobody_defines",
                    "rebuild it");
}

TEST(missing_dependency)
{
    expect_rejected("testmissingdep", RLX_ERR_PLUGIN,
                    "librlx-test-vanished.so.1", "is not installed");
}

TEST(same_file_twice)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_load_plugin(rt, test_plugin("testgood")));
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, test_plugin("testgood")),
                  RLX_ERR_DUPLICATE);
    ASSERT_CONTAINS(rlx_last_error(), "already loaded");
    ASSERT_EQ(rlx_runtime_backend_count(rt), 3);
    rlx_runtime_destroy(rt);
}

TEST(bad_arguments)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, NULL), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, ""), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_runtime_discover(rt, NULL), RLX_ERR_INVALID_ARGUMENT);
    ASSERT_STATUS(rlx_runtime_load_plugin(rt, "/nonexistent/librlx-backend-x.so"),
                  RLX_ERR_PLUGIN);
    ASSERT_CONTAINS(rlx_last_error(), "No such file");
    rlx_runtime *none = NULL;
    ASSERT_STATUS(rlx_runtime_create(&none, 0x80), RLX_ERR_INVALID_ARGUMENT);
    ASSERT(none == NULL);
    rlx_runtime_destroy(rt);
}

/* ---- a directory of broken files ------------------------------------- */

static char tmp_root[256];

static void write_file(const char *name, const void *data, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp_root, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        FAIL("cannot create %s", path);
    if (n)
        fwrite(data, 1, n, f);
    fclose(f);
}

static void copy_file(const char *from, const char *name, size_t limit)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        FAIL("cannot open %s", from);
    char *buf = malloc(8 << 20);
    size_t n = fread(buf, 1, 8 << 20, in);
    fclose(in);
    write_file(name, buf, limit && limit < n ? limit : n);
    free(buf);
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", dir);
}

static const char *in_tmp(const char *name)
{
    static char buf[8][600];
    static int next;
    char *out = buf[next++ % 8];
    snprintf(out, sizeof buf[0], "%s/%s", tmp_root, name);
    return out;
}

static void make_broken_dir(void)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/rlx-test-broken-XXXXXX");
    ASSERT(mkdtemp(tmp_root) != NULL);
    write_file("librlx-backend-garbage.so", "this is not an ELF file\n", 24);
    write_file("librlx-backend-empty.so", "", 0);
    copy_file(test_plugin("testgood"), "librlx-backend-truncated.so", 300);
    /* an ELF64 header for AArch64 */
    unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
    elf[16] = 3;   /* ET_DYN */
    elf[18] = 183; /* EM_AARCH64 */
    elf[20] = 1;   /* EV_CURRENT */
    write_file("librlx-backend-arm64.so", elf, sizeof elf);
    copy_file("/bin/true", "librlx-backend-program.so", 0);
    ASSERT(mkdir(in_tmp("librlx-backend-dir.so"), 0755) == 0);
    ASSERT(symlink("/nonexistent/target.so",
                   in_tmp("librlx-backend-dangling.so")) == 0);
    ASSERT(mkfifo(in_tmp("librlx-backend-fifo.so"), 0644) == 0);
    copy_file(test_plugin("testgood"), "librlx-backend-zgood.so", 0);
    write_file("not-a-candidate.so", "ignored", 7);
}

TEST(broken_directory)
{
    make_broken_dir();
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, tmp_root));
    static const struct {
        const char *file, *reason;
    } want[] = {
        { "librlx-backend-garbage.so", "not an ELF file" },
        { "librlx-backend-empty.so", "empty file" },
        { "librlx-backend-truncated.so", "truncated ELF file" },
        { "librlx-backend-arm64.so", "built for AArch64" },
        { "librlx-backend-program.so", "" },
        { "librlx-backend-dir.so", "is a directory" },
        { "librlx-backend-dangling.so", "dangling symbolic link" },
        { "librlx-backend-fifo.so", "special file" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const char *reason = NULL, *fix = NULL;
        rlx_diag_kind kind = 0;
        int d = test_find_diag(rt, in_tmp(want[i].file), &kind, &reason,
                               &fix);
        if (d < 0)
            FAIL("no diagnostic for %s", want[i].file);
        ASSERT_EQ(kind, RLX_DIAG_REJECTED);
        ASSERT_CONTAINS(reason, want[i].reason);
        ASSERT(fix && *fix);
    }
    ASSERT(test_find_diag(rt, in_tmp("not-a-candidate.so"), NULL, NULL,
                          NULL) < 0);
    ASSERT_EQ(rlx_runtime_diag_count(rt), sizeof want / sizeof *want);
    const rlx_backend *b = rlx_runtime_find_backend(rt, "test-good");
    ASSERT(b);
    ASSERT_STREQ(rlx_backend_plugin_path(b), in_tmp("librlx-backend-zgood.so"));
    rlx_runtime_destroy(rt);
    remove_tree(tmp_root);
}

/* Runs in a child that is not root when the suite runs as root, since
 * root reads files whatever their mode. Returns 0 when all went well. */
static int check_locked_file(void)
{
    rlx_runtime *rt = NULL;
    if (rlx_runtime_create(&rt, RLX_RUNTIME_NO_DISCOVERY) != RLX_OK)
        return 10;
    rlx_runtime_discover(rt, tmp_root);
    const char *reason = NULL;
    int ok = test_find_diag(rt, in_tmp("librlx-backend-locked.so"), NULL,
                            &reason, NULL) >= 0 &&
             reason && strstr(reason, "cannot be read: Permission denied");
    if (!ok)
        printf("# reason: %s\n", reason ? reason : "(none)");
    rlx_runtime_destroy(rt);
    return ok ? 0 : 11;
}

TEST(unreadable_file)
{
    snprintf(tmp_root, sizeof tmp_root, "/tmp/rlx-test-perm-XXXXXX");
    ASSERT(mkdtemp(tmp_root) != NULL);
    ASSERT(chmod(tmp_root, 0755) == 0);
    copy_file(test_plugin("testgood"), "librlx-backend-locked.so", 0);
    ASSERT(chmod(in_tmp("librlx-backend-locked.so"), 0) == 0);
    int rc;
    if (geteuid() != 0) {
        rc = check_locked_file();
    } else {
        fflush(stdout);
        pid_t pid = fork();
        ASSERT(pid >= 0);
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0)
                _exit(12);
            _exit(check_locked_file());
        }
        int status = 0;
        ASSERT(waitpid(pid, &status, 0) == pid);
        rc = WIFEXITED(status) ? WEXITSTATUS(status) : 99;
    }
    remove_tree(tmp_root);
    ASSERT_EQ(rc, 0);
}

TEST(shadowing_and_order)
{
    char a[256], b[256], path[700];
    snprintf(a, sizeof a, "/tmp/rlx-test-a-XXXXXX");
    snprintf(b, sizeof b, "/tmp/rlx-test-b-XXXXXX");
    ASSERT(mkdtemp(a) && mkdtemp(b));
    snprintf(tmp_root, sizeof tmp_root, "%s", a);
    copy_file(test_plugin("testgood"), "librlx-backend-x.so", 0);
    copy_file(test_plugin("testfastcpu"), "librlx-backend-a.so", 0);
    snprintf(tmp_root, sizeof tmp_root, "%s", b);
    copy_file(test_plugin("testgood"), "librlx-backend-x.so", 0);

    char list[600];
    snprintf(list, sizeof list, "%s::%s", a, b);
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, list));
    snprintf(path, sizeof path, "%s/librlx-backend-x.so", b);
    rlx_diag_kind kind = 0;
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, path, &kind, &reason, NULL) >= 0);
    ASSERT_EQ(kind, RLX_DIAG_SHADOWED);
    ASSERT_CONTAINS(reason, a);
    /* byte order of names: a.so before x.so */
    ASSERT_EQ(rlx_runtime_backend_count(rt), 4);
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_backend(rt, 1)), "test-fastcpu");
    ASSERT_STREQ(rlx_backend_id(rlx_runtime_backend(rt, 2)), "test-good");
    rlx_runtime_destroy(rt);
    remove_tree(a);
    remove_tree(b);
}

TEST(missing_directory_reported)
{
    rlx_runtime *rt = test_runtime();
    ASSERT_OK(rlx_runtime_discover(rt, "/nonexistent/rlx-plugins"));
    const char *reason = NULL;
    ASSERT(test_find_diag(rt, "/nonexistent/rlx-plugins", NULL, &reason,
                          NULL) >= 0);
    ASSERT_CONTAINS(reason, "cannot be read");
    rlx_runtime_destroy(rt);
}

TEST(plugin_path_environment)
{
    char list[2048];
    snprintf(list, sizeof list, "/nonexistent/first:%s",
             getenv("RLX_TEST_PLUGIN_DIR"));
    setenv("RLX_PLUGIN_PATH", list, 1);
    rlx_runtime *rt = NULL;
    rlx_status st = rlx_runtime_create(&rt, 0);
    unsetenv("RLX_PLUGIN_PATH");
    ASSERT_OK(st);
    /* every test plugin was seen: good ones loaded, broken ones listed */
    ASSERT(rlx_runtime_find_backend(rt, "test-good"));
    ASSERT(rlx_runtime_find_backend(rt, "test-fastcpu"));
    ASSERT(rlx_runtime_find_backend(rt, "test-dup"));
    ASSERT(test_find_diag(rt, test_plugin("testwrongabi"), NULL, NULL,
                          NULL) >= 0);
    ASSERT(test_find_diag(rt, test_plugin("testmissingdep"), NULL, NULL,
                          NULL) >= 0);
    ASSERT(test_find_diag(rt, "/nonexistent/first", NULL, NULL, NULL) >= 0);
    /* the search order as scanned: the variable's entries, then system */
    const char *source;
    ASSERT_STREQ(rlx_runtime_search_dir(rt, 0, &source), "/nonexistent/first");
    ASSERT_STREQ(source, "RLX_PLUGIN_PATH");
    ASSERT_STREQ(rlx_runtime_search_dir(rt, 1, &source),
                 getenv("RLX_TEST_PLUGIN_DIR"));
    ASSERT_STREQ(rlx_runtime_search_dir(rt, 2, &source), rlx_plugin_dir());
    ASSERT_STREQ(source, "system");
    ASSERT(rlx_runtime_search_dir(rt, 3, &source) == NULL && !source);
    rlx_runtime_destroy(rt);
}

RLX_TEST_LIST(
    TEST_ENTRY(good_plugin_loads),
    TEST_ENTRY(wrong_abi_major_refused),
    TEST_ENTRY(missing_entry_point),
    TEST_ENTRY(init_error_reported),
    TEST_ENTRY(malformed_vtable),
    TEST_ENTRY(duplicate_id),
    TEST_ENTRY(unresolved_symbol),
    TEST_ENTRY(missing_dependency),
    TEST_ENTRY(same_file_twice),
    TEST_ENTRY(bad_arguments),
    TEST_ENTRY(broken_directory),
    TEST_ENTRY(unreadable_file),
    TEST_ENTRY(shadowing_and_order),
    TEST_ENTRY(missing_directory_reported),
    TEST_ENTRY(plugin_path_environment),
)
