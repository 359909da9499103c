/*
 * bench_scan.c - rlx-bench-scan: the cost of creating a runtime with
 * plugin discovery, loading in-process (the baseline) next to the plugin
 * scanner with an empty registry cache (cold: every file is scanned in
 * the scanner process first) and with a filled one (warm: no scanner).
 *
 *   rlx-bench-scan TINY.so [--copies N] [--repeat R] [DIR...]
 *
 * DIRs are plugin directories (the in-tree plugins); TINY.so is copied N
 * times (default 100) beside them. Each set is timed with and without
 * the copies; the three modes alternate within every round, so drift on
 * a shared machine hits all of them alike. Prints medians and minima.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rlx/rlx.h>

#define MAX_REPEAT 101

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int copy(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    char buf[65536];
    size_t n;
    int ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        ok = 0;
    return ok ? 0 : -1;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One runtime creation (and destruction) in MODE; its backend count. */
static double create_once(const char *mode, const char *cache_file,
                          int cold, uint32_t *backends)
{
    setenv("RLX_PLUGIN_SCAN", mode, 1);
    if (cold)
        unlink(cache_file);
    rlx_runtime *rt = NULL;
    double t0 = now_ms();
    if (rlx_runtime_create(&rt, 0) != RLX_OK) {
        fprintf(stderr, "rlx-bench-scan: %s\n", rlx_last_error());
        exit(1);
    }
    double t = now_ms() - t0;
    *backends = rlx_runtime_backend_count(rt);
    rlx_runtime_destroy(rt);
    return t;
}

static void run_set(const char *label, const char *path, const char *cache,
                    int repeat)
{
    static const char *const names[3] = { "in-process (baseline)",
                                          "scanner, cold cache",
                                          "scanner, warm cache" };
    double t[3][MAX_REPEAT];
    uint32_t count[3] = { 0 };
    setenv("RLX_PLUGIN_PATH", path, 1);
    /* one untimed round: page cache, and the warm cache's first fill */
    create_once("inprocess", cache, 0, &count[0]);
    create_once("subprocess", cache, 1, &count[1]);
    for (int r = 0; r < repeat; r++) {
        t[0][r] = create_once("inprocess", cache, 0, &count[0]);
        t[1][r] = create_once("subprocess", cache, 1, &count[1]);
        /* the cold run just refilled it */
        t[2][r] = create_once("subprocess", cache, 0, &count[2]);
    }
    printf("\n%s\n", label);
    printf("| mode | median ms | min ms | backends | vs in-process |\n");
    printf("| --- | ---: | ---: | ---: | ---: |\n");
    double base = 0;
    for (int m = 0; m < 3; m++) {
        qsort(t[m], (size_t)repeat, sizeof(double), cmp);
        double med = t[m][repeat / 2];
        if (m == 0)
            base = med;
        printf("| %s | %.2f | %.2f | %u | %.2fx |\n", names[m], med,
               t[m][0], count[m], med / base);
    }
}

int main(int argc, char **argv)
{
    int copies = 100, repeat = 11;
    const char *tiny = NULL;
    char dirs[8192] = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--copies") && i + 1 < argc)
            copies = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!tiny)
            tiny = argv[i];
        else {
            size_t k = strlen(dirs);
            snprintf(dirs + k, sizeof dirs - k, "%s%s", k ? ":" : "",
                     argv[i]);
        }
    }
    if (!tiny || repeat < 1 || repeat > MAX_REPEAT || copies < 0) {
        fprintf(stderr, "usage: rlx-bench-scan TINY.so [--copies N] "
                        "[--repeat R<=%d] [PLUGIN_DIR...]\n", MAX_REPEAT);
        return 2;
    }
    char tmp[] = "/tmp/rlx-bench-scan-XXXXXX";
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char pdir[512], cache_home[512], cache[600], path[16384];
    snprintf(pdir, sizeof pdir, "%s/plugins", tmp);
    snprintf(cache_home, sizeof cache_home, "%s/cache", tmp);
    snprintf(cache, sizeof cache, "%s/rlx/plugin-registry", cache_home);
    mkdir(pdir, 0755);
    for (int i = 0; i < copies; i++) {
        char to[600];
        snprintf(to, sizeof to, "%s/librlx-backend-benchtiny-%03d.so", pdir,
                 i);
        if (copy(tiny, to) != 0) {
            fprintf(stderr, "cannot copy %s: %s\n", tiny, strerror(errno));
            return 1;
        }
    }
    setenv("XDG_CACHE_HOME", cache_home, 1);
    unsetenv("RLX_TEST_SCAN_LOG");
    printf("rlx-bench-scan: runtime creation with plugin discovery, %d "
           "rounds (median, min)\n", repeat);
    printf("in-tree plugin dirs: %s\n", *dirs ? dirs : "(none)");
    if (*dirs)
        run_set("In-tree plugins only:", dirs, cache, repeat);
    snprintf(path, sizeof path, "%s%s%s", dirs, *dirs ? ":" : "", pdir);
    char label[128];
    snprintf(label, sizeof label, "In-tree plugins + %d copies of a tiny "
             "plugin:", copies);
    run_set(label, path, cache, repeat);
    char rm[700];
    snprintf(rm, sizeof rm, "rm -rf '%s'", tmp);
    if (system(rm) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return 0;
}
