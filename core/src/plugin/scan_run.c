/*
 * scan_run.c - one run of the plugin scanner: spawn it with posix_spawn,
 * read its report line by line under a per-file deadline, and blacklist
 * the file it was in when it died, exited or hung (scan.c decides which
 * files to scan; docs/scanner.md has the protocol). A report is trusted
 * only once the scanner has exited normally (status 0) after it: a
 * plugin may crash later (a destructor, a thread it started) or write a
 * "clean" report into the pipe itself and then crash. When that happens
 * with several files reported, each is scanned again alone, so that the
 * crash is pinned on the file that caused it.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scan.h"

extern char **environ;

#define MAX_LINE (1u << 20)
#define START_MS 30000

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* RLX_TEST_SCAN_LOG: a line per spawn and per file scanned (tests). */
static void test_log(const char *fmt, const char *arg)
{
    const char *file = rlx__env("RLX_TEST_SCAN_LOG");
    FILE *f = file && *file ? fopen(file, "a") : NULL;
    if (!f)
        return;
    fprintf(f, fmt, arg);
    fclose(f);
}

/* ---- reading the pipe ------------------------------------------------ */

typedef struct reader {
    int fd;
    char *buf;
    size_t len, cap;
} reader;

/* 1: a line in *LINE (valid until the next call), 0: end of file,
 * -1: DEADLINE passed, -2: a line too long or out of memory. */
static int read_line(reader *r, char **line, size_t *consumed,
                     long long deadline)
{
    if (*consumed) {
        memmove(r->buf, r->buf + *consumed, r->len - *consumed);
        r->len -= *consumed;
        *consumed = 0;
    }
    for (;;) {
        char *nl = r->len ? memchr(r->buf, '\n', r->len) : NULL;
        if (nl) {
            *nl = '\0';
            *line = r->buf;
            *consumed = (size_t)(nl - r->buf) + 1;
            return 1;
        }
        if (r->len + 4096 > r->cap) {
            if (r->cap >= MAX_LINE)
                return -2;
            size_t ncap = r->cap ? r->cap * 2 : 8192;
            char *grown = realloc(r->buf, ncap);
            if (!grown)
                return -2;
            r->buf = grown;
            r->cap = ncap;
        }
        long long left = deadline - now_ms();
        if (left <= 0)
            return -1;
        struct pollfd p = { .fd = r->fd, .events = POLLIN };
        int n = poll(&p, 1, left > 60000 ? 60000 : (int)left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            continue; /* the deadline check above ends it */
        ssize_t got = read(r->fd, r->buf + r->len, r->cap - r->len - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return 0;
        r->len += (size_t)got;
    }
}

/* ---- spawning -------------------------------------------------------- */

static pid_t spawn(rlx__scan *sc, char *const *paths, uint32_t n, int *rfd)
{
    char **argv = calloc((size_t)n + 2, sizeof *argv);
    int p[2];
    if (!argv || pipe2(p, O_CLOEXEC) != 0) {
        free(argv);
        return -1;
    }
    /* dup2 onto the same number would keep close-on-exec */
    if (p[1] == RLX__SCAN_FD) {
        int moved = fcntl(p[1], F_DUPFD_CLOEXEC, 10);
        close(p[1]);
        p[1] = moved;
    }
    argv[0] = sc->scanner;
    for (uint32_t i = 0; i < n; i++)
        argv[i + 1] = paths[i];
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    /* the report fd first: in a daemon with 0-2 closed the pipe may be
     * one of them, and the actions below would replace it */
    posix_spawn_file_actions_adddup2(&fa, p[1], RLX__SCAN_FD);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    /* a plugin that prints must not write into the application's stdout */
    if (fcntl(2, F_GETFD) >= 0)
        posix_spawn_file_actions_adddup2(&fa, 2, 1);
    else
        posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    /* a privileged process hands its caller's environment to no one */
    static char *no_env[] = { NULL };
    pid_t pid = -1;
    int err = p[1] < 0 ? EMFILE
                       : posix_spawn(&pid, sc->scanner, &fa, NULL, argv,
                                     rlx__env_untrusted() ? no_env : environ);
    posix_spawn_file_actions_destroy(&fa);
    free(argv);
    if (p[1] >= 0)
        close(p[1]);
    if (err != 0) {
        close(p[0]);
        errno = err;
        return -1;
    }
    *rfd = p[0];
    return pid;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGPIPE: return "SIGPIPE";
    default: return NULL;
    }
}

static const char *phase_fix(const char *phase, int timed_out)
{
    if (timed_out)
        return "if its device is only slow to start, raise "
               "RLX_PLUGIN_SCAN_TIMEOUT (seconds); otherwise upgrade or "
               "remove the plugin. rlx scans it again when the file "
               "changes, or with `rlx devices --rescan`";
    if (strcmp(phase, RLX__PHASE_FIT) == 0)
        return "its host-fit code fails on this CPU: install the portable "
               "variant or an update of the plugin, or remove this "
               "variant. rlx scans it again when the file changes, or with "
               "`rlx devices --rescan`";
    if (strcmp(phase, RLX__PHASE_INIT) == 0)
        return "upgrade or remove the plugin, or report it to its vendor "
               "(RLX_PLUGIN_SCAN=inprocess reproduces it under a "
               "debugger). rlx scans it again when the file changes, or "
               "with `rlx devices --rescan`";
    return "upgrade or remove the plugin package, or report it to its "
           "vendor. rlx scans it again when the file changes, or with "
           "`rlx devices --rescan`";
}

/* Blacklist PATH: the scanner died (STATUS) or hung in PHASE. KEY holds
 * the file's key as seen before the scan. */
static void blacklist(rlx__scan *sc, const char *path,
                      const rlx__scan_entry *key, int status, int timed_out,
                      const char *phase)
{
    char reason[512];
    const char *sig = WIFSIGNALED(status) ? signal_name(WTERMSIG(status))
                                          : NULL;
    if (timed_out)
        snprintf(reason, sizeof reason,
                 "did not finish within %.1f s in %s (the scanner was "
                 "killed)", sc->timeout_ms / 1000.0, phase);
    else if (sig)
        snprintf(reason, sizeof reason, "killed by %s in %s", sig, phase);
    else if (WIFSIGNALED(status))
        snprintf(reason, sizeof reason, "killed by signal %d in %s",
                 WTERMSIG(status), phase);
    else
        snprintf(reason, sizeof reason,
                 "the process exited with status %d in %s",
                 WEXITSTATUS(status), phase);
    rlx__scan_entry e = *key;
    e.path = rlx__strdup(path);
    e.scanned = (long long)time(NULL);
    e.state = RLX__SCANNED_BLACKLISTED;
    e.fit = -1;
    e.error = rlx__strdup(reason);
    e.fix = rlx__strdup(phase_fix(phase, timed_out));
    if (e.path && e.error && e.fix)
        rlx__scan_cache_put(&sc->cache, &e);
    else
        rlx__scan_entry_free(&e);
    test_log("scanned %s\n", path);
}

#define AFTER_REPORT "the scanner's exit, after the file's report (a " \
                     "destructor, a thread, or a report the plugin wrote " \
                     "itself)"

/* Wait for PID until DEADLINE (then kill it): its wait status. */
static int reap(pid_t pid, long long deadline, int *killed)
{
    int status = 0;
    *killed = 0;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            return status;
        if (r == 0 && now_ms() >= deadline && !*killed) {
            kill(pid, SIGKILL); /* hung after its report (a destructor) */
            *killed = 1;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            return status;
        }
        struct timespec ts = { 0, 2000000 }; /* 2 ms */
        nanosleep(&ts, NULL);
    }
}

/* One scanner process over PATHS; returns how many files it settled
 * (scanned or blacklisted), or -1 when the scanner itself is broken. */
int rlx__scan_run(rlx_runtime *rt, char *const *paths,
                   const struct stat *sts, uint32_t n)
{
    rlx__scan *sc = rt->scan;
    /* each file's key as this process sees it before the scan */
    rlx__scan_entry *keys = calloc(n ? n : 1, sizeof *keys);
    /* reports, trusted only once the scanner exits cleanly */
    rlx__scan_entry *got = calloc(n ? n : 1, sizeof *got);
    if (!keys || !got) {
        free(keys);
        free(got);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++)
        rlx__scan_key(&keys[i], paths[i], &sts[i]);
    int fd;
    pid_t pid = spawn(sc, paths, n, &fd);
    if (pid < 0) {
        free(keys);
        free(got);
        return -1;
    }
    test_log("spawn %s\n", paths[0]);
    reader r = { .fd = fd };
    rlx__scan_parser ps = { 0 };
    size_t consumed = 0;
    /* starting the scanner is ours to pay, not the first file's: allow
     * a loaded machine (or a sanitizer build) time to exec it */
    long long deadline = now_ms() + (sc->timeout_ms > START_MS ? sc->timeout_ms
                                                               : START_MS);
    int header = 0, done = 0, timed_out = 0, bad = 0;
    uint32_t reported = 0;
    int cur = -1; /* the file begun and not ended */
    char phase[192] = "starting the scanner";
    char *line;
    for (;;) {
        int gl = read_line(&r, &line, &consumed, deadline);
        if (gl == -1)
            timed_out = 1;
        if (gl <= 0) {
            bad = gl == -2;
            break;
        }
        if (!header) {
            char want[64];
            snprintf(want, sizeof want, "rlx-plugin-scanner %d",
                     RLX__SCAN_PROTOCOL);
            if (strcmp(line, want) != 0) {
                bad = 1;
                break;
            }
            header = 1;
        } else if (strncmp(line, "begin ", 6) == 0) {
            if (cur >= 0 || reported >= n) {
                bad = 1;
                break;
            }
            cur = (int)reported;
            snprintf(phase, sizeof phase, "%s", "starting");
            deadline = now_ms() + sc->timeout_ms;
        } else if (strncmp(line, "phase ", 6) == 0) {
            char *t[2];
            if (rlx__scan_tokens(line, t, 2) == 2)
                snprintf(phase, sizeof phase, "%s", t[1]);
        } else if (strcmp(line, "done") == 0) {
            done = cur < 0 && reported == n; /* else: a forged "done" */
            bad = !done;
            break;
        } else {
            rlx__scan_entry e;
            int res = rlx__scan_parse_line(&ps, line, &e);
            if (res < 0 || (res == 1 && (cur < 0 ||
                                        strcmp(e.path, paths[cur]) != 0))) {
                if (res == 1)
                    rlx__scan_entry_free(&e);
                bad = 1;
                break;
            }
            if (res == 1) {
                /* keyed by what this process saw before the scan */
                rlx__scan_entry *k = &keys[cur];
                e.dev = k->dev;
                e.ino = k->ino;
                e.gen = k->gen;
                e.size = k->size;
                e.mtime_ns = k->mtime_ns;
                e.ctime_ns = k->ctime_ns;
                e.scanned = (long long)time(NULL);
                got[reported++] = e;
                cur = -1;
            }
        }
    }
    rlx__scan_parser_free(&ps);
    free(r.buf);
    if (!done)
        kill(pid, SIGKILL); /* hung, or talking nonsense */
    close(fd);
    int killed = 0;
    /* after "done" only exit remains: destructors get one file's time */
    int status = reap(pid, now_ms() + sc->timeout_ms, &killed);
    int clean = done && !killed && WIFEXITED(status) &&
                WEXITSTATUS(status) == 0;
    int settled = 0;
    if (!header) {
        settled = -1;
    } else if (clean) {
        for (uint32_t i = 0; i < reported; i++) {
            test_log("scanned %s\n", paths[i]);
            rlx__scan_cache_put(&sc->cache, &got[i]);
        }
        settled = (int)reported;
        reported = 0;
    } else if (n == 1 && (reported || cur >= 0)) {
        /* alone in its scanner: whatever happened is this file's doing */
        if (reported)
            snprintf(phase, sizeof phase, "%s", AFTER_REPORT);
        else if (bad && !timed_out)
            snprintf(phase + strlen(phase), sizeof phase - strlen(phase),
                     "%s", " (malformed report)");
        blacklist(sc, paths[0], &keys[0], status, timed_out || killed,
                  phase);
        settled = 1;
    } else if (reported) {
        /* the scanner died after some reports: any of those files may
         * have done it (a thread, a destructor), so none is trusted;
         * scan each alone, and the file it was in (if any) too */
        uint32_t upto = reported + (cur >= 0 ? 1u : 0u);
        for (uint32_t i = 0; i < upto; i++) {
            int one = rlx__scan_run(rt, paths + i, sts + i, 1);
            if (one < 0) {
                settled = settled ? settled : -1;
                break;
            }
            settled += one;
        }
    } else if (cur >= 0) {
        /* the first file of the batch: only its code had run */
        if (bad && !timed_out)
            snprintf(phase + strlen(phase), sizeof phase - strlen(phase),
                     "%s", " (malformed report)");
        blacklist(sc, paths[cur], &keys[cur], status, timed_out, phase);
        settled = 1;
    }
    for (uint32_t i = 0; i < reported; i++)
        rlx__scan_entry_free(&got[i]);
    free(got);
    free(keys);
    return settled;
}
