/*
 * test-cli.c - the rlx command-line tool, run as a user would run it.
 *
 * The binary comes from RLX_TEST_RLX_BIN and the good test plugin from
 * RLX_TEST_GOOD_PLUGIN. The broken-plugin cases build a directory of
 * deliberately bad librlx-backend-*.so files and check that `rlx devices`
 * still lists what works and names every bad file with its reason.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rlx/rlx.h>

#include "harness.h"
#include "test-tool.h"

/* ---- running the tool (test-tool.h) --------------------------------- */

static const char *good_plugin(void)
{
    return tool_env("RLX_TEST_GOOD_PLUGIN");
}

/* Each test starts from the same environment: no plugin path, no device. */
static void env_reset(void)
{
    unsetenv("RLX_PLUGIN_PATH");
    unsetenv("RLX_DEVICE");
}

static size_t count_lines_starting(const char *text, const char *prefix)
{
    size_t n = 0, plen = strlen(prefix);
    for (const char *line = text; line && *line;) {
        if (strncmp(line, prefix, plen) == 0)
            n++;
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    return n;
}

/* ---- JSON: a compact copy and a strict validator ---------------------- */

/* TEXT without white space outside strings, so checks need not care how
 * the tool indents. Caller frees. */
static char *json_compact(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    int in_string = 0;
    ASSERT(out);
    for (const char *p = text; *p; p++) {
        if (in_string) {
            *o++ = *p;
            if (*p == '\\' && p[1])
                *o++ = *++p;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
            *o++ = *p;
        } else if (*p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

static const char *json_value(const char *p, int depth);

static const char *json_ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *json_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        if ((unsigned char)*p < 0x20)
            return NULL; /* raw control characters (and NUL) are invalid */
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
        p++;
    }
    return p + 1;
}

static const char *json_number(const char *p)
{
    const char *start = p;
    if (*p == '-')
        p++;
    while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' ||
           *p == 'E' || *p == '+' || *p == '-')
        p++;
    return p > start ? p : NULL;
}

/* Object or array: OPEN, members separated by commas, CLOSE. */
static const char *json_container(const char *p, int depth, char close,
                                  int keyed)
{
    p = json_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (keyed) {
            p = json_string(p);
            if (!p)
                return NULL;
            p = json_ws(p);
            if (*p++ != ':')
                return NULL;
        }
        p = json_value(p, depth + 1);
        if (!p)
            return NULL;
        p = json_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
        p = json_ws(p);
    }
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    p = json_ws(p);
    switch (*p) {
    case '{': return json_container(p, depth, '}', 1);
    case '[': return json_container(p, depth, ']', 0);
    case '"': return json_string(p);
    case 't': return strncmp(p, "true", 4) ? NULL : p + 4;
    case 'f': return strncmp(p, "false", 5) ? NULL : p + 5;
    case 'n': return strncmp(p, "null", 4) ? NULL : p + 4;
    default: return json_number(p);
    }
}

/* TEXT is exactly one JSON object, with nothing after it. */
static int json_is_one_object(const char *text)
{
    const char *p = json_ws(text);
    if (*p != '{')
        return 0;
    p = json_value(p, 0);
    return p && *json_ws(p) == '\0';
}

/* ---- temporary plugin directories -------------------------------------- */

#define TMP_DIRS_MAX 8
static char tmp_dirs[TMP_DIRS_MAX][64];
static int tmp_count;

static void tmp_remove(const char *dir)
{
    char q[256], cmd[300];
    tool_quote(q, sizeof q, dir);
    snprintf(cmd, sizeof cmd, "rm -rf %s", q);
    if (system(cmd) != 0)
        printf("# could not remove %s\n", dir);
}

/* Failed assertions skip a test's own clean-up; this catches those. */
static void tmp_remove_all(void)
{
    for (int i = 0; i < tmp_count; i++)
        if (tmp_dirs[i][0] && access(tmp_dirs[i], F_OK) == 0)
            tmp_remove(tmp_dirs[i]);
    free(tool_out);
    tool_out = NULL;
}

static const char *tmp_make(void)
{
    ASSERT(tmp_count < TMP_DIRS_MAX);
    if (tmp_count == 0)
        atexit(tmp_remove_all);
    char *d = tmp_dirs[tmp_count++];
    strcpy(d, "/tmp/rlx-test-cli-XXXXXX");
    if (!mkdtemp(d))
        FAIL("mkdtemp: %s", strerror(errno));
    return d;
}

static void file_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        FAIL("cannot create %s: %s", path, strerror(errno));
    ASSERT(fwrite(data, 1, n, f) == n || n == 0);
    ASSERT(fclose(f) == 0);
}

/* Copies at most LIMIT bytes (SIZE_MAX: all) of SRC to DST. */
static void file_copy(const char *src, const char *dst, size_t limit)
{
    char buf[65536];
    FILE *in = fopen(src, "rb"), *out;
    if (!in)
        FAIL("cannot open %s: %s", src, strerror(errno));
    out = fopen(dst, "wb");
    if (!out) {
        fclose(in);
        FAIL("cannot create %s: %s", dst, strerror(errno));
    }
    while (limit > 0) {
        size_t want = limit < sizeof buf ? limit : sizeof buf;
        size_t got = fread(buf, 1, want, in);
        if (got == 0)
            break;
        fwrite(buf, 1, got, out);
        limit -= got;
    }
    fclose(in);
    ASSERT(fclose(out) == 0);
}

static void path_join(char *dst, size_t n, const char *dir, const char *name)
{
    ASSERT((size_t)snprintf(dst, n, "%s/%s", dir, name) < n);
}

/* A valid 64-byte ELF64 header of a shared object for another machine. */
static void elf_foreign_header(unsigned char h[64])
{
#if defined(__aarch64__)
    const unsigned machine = 62; /* x86-64: foreign here */
#else
    const unsigned machine = 183; /* AArch64 */
#endif
    memset(h, 0, 64);
    memcpy(h, "\177ELF", 4);
    h[4] = 2;  /* ELFCLASS64 */
    h[5] = 1;  /* little endian */
    h[6] = 1;  /* EV_CURRENT */
    h[16] = 3; /* e_type ET_DYN */
    h[18] = (unsigned char)(machine & 0xff);
    h[19] = (unsigned char)(machine >> 8);
    h[20] = 1;  /* e_version */
    h[52] = 64; /* e_ehsize */
    h[54] = 56; /* e_phentsize */
    h[58] = 64; /* e_shentsize */
}

/* The bad files of the broken directory, by name. */
enum { BROKEN_MAX = 8 };
typedef struct broken_dir {
    const char *dir;
    char good[512];           /* the good copy, which must still load */
    char bad[BROKEN_MAX][512];
    int n_bad;
} broken_dir;

static const char *broken_add(broken_dir *b, const char *name)
{
    ASSERT(b->n_bad < BROKEN_MAX);
    path_join(b->bad[b->n_bad], sizeof b->bad[0], b->dir, name);
    return b->bad[b->n_bad++];
}

static void broken_dir_make(broken_dir *b)
{
    unsigned char buf[4096];
    const char *good = good_plugin();
    const char *truebin = access("/bin/true", R_OK) == 0 ? "/bin/true"
                                                          : "/usr/bin/true";

    memset(b, 0, sizeof *b);
    b->dir = tmp_make();

    uint32_t x = 0x12345678u; /* garbage that cannot look like ELF */
    for (size_t i = 0; i < sizeof buf; i++) {
        x = x * 1664525u + 1013904223u;
        buf[i] = (unsigned char)(x >> 24);
    }
    buf[0] = 'G';
    file_write(broken_add(b, "librlx-backend-garbage.so"), buf, sizeof buf);
    file_write(broken_add(b, "librlx-backend-empty.so"), "", 0);
    file_copy(good, broken_add(b, "librlx-backend-truncated.so"), 200);
    elf_foreign_header(buf);
    file_write(broken_add(b, "librlx-backend-foreign.so"), buf, 64);
    file_copy(truebin, broken_add(b, "librlx-backend-exec.so"), SIZE_MAX);
    ASSERT(mkdir(broken_add(b, "librlx-backend-dir.so"), 0755) == 0);
    ASSERT(symlink("/nonexistent/rlx-test-target.so",
                   broken_add(b, "librlx-backend-dangling.so")) == 0);
    if (geteuid() != 0) {
        const char *p = broken_add(b, "librlx-backend-noread.so");
        file_copy(good, p, SIZE_MAX);
        ASSERT(chmod(p, 0) == 0);
    } else {
        /* root reads any file; test-loader checks this case as nobody */
    }
    path_join(b->good, sizeof b->good, b->dir, "librlx-backend-testgood.so");
    file_copy(good, b->good, SIZE_MAX);
}

/* ---- tests --------------------------------------------------------- */

TEST(version)
{
    char want[64];
    env_reset();
    ASSERT_EQ(tool_run("--version", 0), 0);
    ASSERT_CONTAINS(tool_out, RLX_VERSION_STRING);
    snprintf(want, sizeof want, "ABI %d.%d", RLX_ABI_MAJOR, RLX_ABI_MINOR);
    ASSERT_CONTAINS(tool_out, want);
}

TEST(help)
{
    env_reset();
    ASSERT_EQ(tool_run("--help", 0), 0);
    ASSERT_CONTAINS(tool_out, "devices");
    ASSERT_CONTAINS(tool_out, "demo");
    ASSERT_CONTAINS(tool_out, "RLX_PLUGIN_PATH");
    ASSERT_CONTAINS(tool_out, "RLX_DEVICE");
    ASSERT_EQ(tool_run("help", 0), 0);
    ASSERT_CONTAINS(tool_out, "devices");
}

TEST(usage_errors)
{
    env_reset();
    ASSERT_EQ(tool_run("frobnicate", 1), 2);
    ASSERT_CONTAINS(tool_out, "rlx: unknown command 'frobnicate'");
    ASSERT_CONTAINS(tool_out, "--help");
    ASSERT_EQ(tool_run("--frobnicate", 1), 2);
    ASSERT_EQ(tool_run("", 1), 2); /* no command at all */
    ASSERT_EQ(tool_run("devices --bogus", 1), 2);
    ASSERT_CONTAINS(tool_out, "--bogus");
    ASSERT_EQ(tool_run("demo --batch 0", 1), 2);
    ASSERT_EQ(tool_run("demo --batch 4x", 1), 2);
    ASSERT_EQ(tool_run("demo --device", 1), 2);
}

TEST(devices_text)
{
    env_reset();
    ASSERT_EQ(tool_run("devices", 0), 0);
    ASSERT_CONTAINS(tool_out, "cpu-ref");
    ASSERT_CONTAINS(tool_out, "* cpu-ref"); /* marked in the table */
    ASSERT_CONTAINS(tool_out, "Plugin search order:");
    ASSERT_CONTAINS(tool_out, rlx_plugin_dir());
    /* The choice section pairs the device with its backend. */
    const char *line = strstr(tool_out, "-> cpu-ref");
    ASSERT(line);
    while (line > tool_out && line[-1] != '\n')
        line--;
    while (*line == ' ')
        line++;
    ASSERT(strncmp(line, "cpu ", 4) == 0);
}

TEST(devices_json)
{
    env_reset();
    ASSERT_EQ(tool_run("devices --json", 0), 0);
    ASSERT(json_is_one_object(tool_out));
    char *c = json_compact(tool_out);
    ASSERT_CONTAINS(c, "\"id\":\"cpu-ref\"");
    char abi[64];
    snprintf(abi, sizeof abi, "\"abi_version\":\"%d.%d\"", RLX_ABI_MAJOR,
             RLX_ABI_MINOR);
    ASSERT_CONTAINS(c, abi);
    ASSERT_CONTAINS(c, "\"search_path\":[");
    ASSERT_CONTAINS(c, "\"diagnostics\":[");
    const char *chosen = strstr(c, "\"chosen\":{");
    ASSERT(chosen);
    const char *end = strchr(chosen, '}');
    const char *cpu = strstr(chosen, "\"cpu\":\"cpu-ref\"");
    int ok = cpu && end && cpu < end;
    free(c);
    ASSERT(ok);
}

static size_t checksum_line(char *dst, size_t n)
{
    const char *line = strstr(tool_out, "Checksum:");
    ASSERT(line);
    size_t len = strcspn(line, "\n");
    ASSERT(len < n);
    memcpy(dst, line, len);
    dst[len] = '\0';
    return len;
}

TEST(demo)
{
    char first[256], again[256];
    env_reset();
    ASSERT_EQ(tool_run("demo", 0), 0);
    ASSERT_EQ(count_lines_starting(tool_out, "  row "), 4);
    ASSERT_CONTAINS(tool_out, "[4, 10]");
    checksum_line(first, sizeof first);

    ASSERT_EQ(tool_run("demo --device cpu-ref", 0), 0);
    ASSERT_CONTAINS(tool_out, "cpu-ref");
    ASSERT_EQ(count_lines_starting(tool_out, "  row "), 4);
    checksum_line(again, sizeof again);
    ASSERT_STREQ(first, again); /* deterministic data, same backend */

    ASSERT_EQ(tool_run("demo --batch=2 --device cpu", 0), 0);
    ASSERT_EQ(count_lines_starting(tool_out, "  row "), 2);
    ASSERT_CONTAINS(tool_out, "[2, 10]");
}

TEST(demo_bad_device)
{
    env_reset();
    ASSERT_EQ(tool_run("demo --device no-such-device", 1), 1);
    ASSERT_CONTAINS(tool_out, "rlx: ");
}

/* PATH appears in the human report with a non-empty reason under it. */
static void assert_text_diag(const char *text, const char *path)
{
    char want[600];
    snprintf(want, sizeof want, "%s\n      reason: ", path);
    const char *at = strstr(text, want);
    if (!at)
        FAIL("no diagnostic with a reason for %s in:\n%s", path, text);
    at += strlen(want);
    if (*at == '\n' || *at == '\0')
        FAIL("empty reason for %s", path);
}

/* PATH is a diagnostic in the compact JSON, with a non-empty reason. */
static void assert_json_diag(const char *compact, const char *kind,
                             const char *path)
{
    char want[700];
    snprintf(want, sizeof want,
             "{\"kind\":\"%s\",\"path\":\"%s\",\"reason\":\"", kind, path);
    const char *at = strstr(compact, want);
    if (!at)
        FAIL("no %s diagnostic for %s in:\n%s", kind, path, compact);
    if (at[strlen(want)] == '"')
        FAIL("empty reason for %s", path);
}

TEST(broken_plugin_dir)
{
    broken_dir b;
    broken_dir_make(&b);
    env_reset();
    ASSERT(setenv("RLX_PLUGIN_PATH", b.dir, 1) == 0);

    ASSERT_EQ(tool_run("devices", 0), 0);
    ASSERT_CONTAINS(tool_out, "test-good");
    ASSERT_CONTAINS(tool_out, "cpu-ref");
    ASSERT_CONTAINS(tool_out, b.good);
    /* the plugin's devices, as its device_describe slot tells */
    ASSERT_CONTAINS(tool_out, "npu:1  test device 1, accelerator, 2.0 GiB");
    for (int i = 0; i < b.n_bad; i++)
        assert_text_diag(tool_out, b.bad[i]);

    ASSERT_EQ(tool_run("devices --json", 0), 0);
    ASSERT(json_is_one_object(tool_out));
    char *c = json_compact(tool_out);
    ASSERT_CONTAINS(c, "\"id\":\"test-good\"");
    ASSERT_CONTAINS(c, "\"npu\":\"test-good\"");
    ASSERT_CONTAINS(c, "\"name\":\"test device 1\"");
    for (int i = 0; i < b.n_bad; i++)
        assert_json_diag(c, "rejected", b.bad[i]);
    free(c);

    /* The rest of the runtime still works beside the broken files. */
    ASSERT_EQ(tool_run("demo --device cpu-ref", 0), 0);
    ASSERT_EQ(count_lines_starting(tool_out, "  row "), 4);
    tmp_remove(b.dir);
}

TEST(shadowed_plugin)
{
    char first[512], second[512], path[1100], want[600];
    const char *d1 = tmp_make(), *d2 = tmp_make();
    path_join(first, sizeof first, d1, "librlx-backend-testgood.so");
    path_join(second, sizeof second, d2, "librlx-backend-testgood.so");
    file_copy(good_plugin(), first, SIZE_MAX);
    file_copy(good_plugin(), second, SIZE_MAX);
    env_reset();
    snprintf(path, sizeof path, "%s:%s", d1, d2);
    ASSERT(setenv("RLX_PLUGIN_PATH", path, 1) == 0);

    ASSERT_EQ(tool_run("devices", 0), 0);
    ASSERT_CONTAINS(tool_out, "test-good");
    ASSERT_CONTAINS(tool_out, "shadow");
    snprintf(want, sizeof want, "shadowed  %s\n", second);
    ASSERT_CONTAINS(tool_out, want);
    snprintf(want, sizeof want, "plugin: %s\n", first);
    ASSERT_CONTAINS(tool_out, want); /* the first one is the one loaded */

    ASSERT_EQ(tool_run("devices --json", 0), 0);
    ASSERT(json_is_one_object(tool_out));
    char *c = json_compact(tool_out);
    assert_json_diag(c, "shadowed", second);
    snprintf(want, sizeof want, "\"plugin\":\"%s\"", first);
    int loaded_first = strstr(c, want) != NULL;
    free(c);
    ASSERT(loaded_first);
    tmp_remove(d1);
    tmp_remove(d2);
}

/* Paths are outside data: a quote, a backslash, a control byte and a
 * byte that is not UTF-8 must still give valid JSON. */
TEST(json_escaping)
{
    char dir[256], file[512];
    const char *top = tmp_make();
    snprintf(dir, sizeof dir, "%s/q\"b\\c\001d\377e", top);
    ASSERT(mkdir(dir, 0755) == 0);
    path_join(file, sizeof file, dir, "librlx-backend-junk.so");
    file_write(file, "junk", 4);
    env_reset();
    ASSERT(setenv("RLX_PLUGIN_PATH", dir, 1) == 0);

    ASSERT_EQ(tool_run("devices --json", 0), 0);
    ASSERT(json_is_one_object(tool_out));
    ASSERT_CONTAINS(tool_out, "q\\\"b\\\\c\\u0001d\\ufffde");
    ASSERT_CONTAINS(tool_out, "librlx-backend-junk.so");

    ASSERT_EQ(tool_run("devices", 0), 0);
    ASSERT_CONTAINS(tool_out, "q\"b\\c\\x01d"); /* shown, not raw */
    tmp_remove(top);
}

/* A bad RLX_LOG is said once, with what was used and the valid values;
 * it used to be ignored without a word. */
TEST(bad_log_level_warns_once)
{
    setenv("RLX_LOG", "garbage", 1);
    int rc = tool_run("demo --device cpu-ref", 1);
    unsetenv("RLX_LOG");
    ASSERT_EQ(rc, 0);
    const char *w = "rlx: warning: RLX_LOG='garbage' is not valid; using the "
                    "default (no log lines) instead. Fix: set it to error, "
                    "warn, info or debug, or unset it\n";
    const char *at = strstr(tool_out, w);
    ASSERT(at != NULL);
    ASSERT(strstr(at + strlen(w), "RLX_LOG=") == NULL); /* once */
    setenv("RLX_LOG", "warn", 1);
    rc = tool_run("demo --device cpu-ref", 1);
    unsetenv("RLX_LOG");
    ASSERT_EQ(rc, 0);
    ASSERT(!strstr(tool_out, "rlx: warning: RLX_LOG"));
}

RLX_TEST_LIST(
    TEST_ENTRY(bad_log_level_warns_once),TEST_ENTRY(version), TEST_ENTRY(help),
              TEST_ENTRY(usage_errors), TEST_ENTRY(devices_text),
              TEST_ENTRY(devices_json), TEST_ENTRY(demo),
              TEST_ENTRY(demo_bad_device), TEST_ENTRY(broken_plugin_dir),
              TEST_ENTRY(shadowed_plugin), TEST_ENTRY(json_escaping));
