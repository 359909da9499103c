/*
 * test-probe-key.c - the probe-key kit (plugin-abi/rlx/probe_key.h) keys
 * a file on its change time too: a plugin's driver file rewritten in
 * place, same size, with its modification time set back, must change
 * the key so the cached probe answer is not reused. Built against the
 * plugin-abi headers only, as an out-of-tree backend uses the kit.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rlx/probe_key.h>

#include "harness.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT(f);
    ASSERT(fputs(text, f) >= 0);
    ASSERT(fclose(f) == 0);
}

static void file_key(const char *path, char *key, size_t size)
{
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, key, size);
    rlx_kit_probe_key_add_file(&k, path);
    ASSERT(rlx_kit_probe_key_end(&k) == RLX_OK);
}

/* Rewrite PATH in place with TEXT (same length) and restore its
 * modification time to the nanosecond. */
static void rewrite_keep_mtime(const char *path, const char *text)
{
    struct stat st;
    ASSERT(stat(path, &st) == 0);
    /* the kernel's clock for file times is coarse: let it move on */
    struct timespec pause = { 0, 30 * 1000 * 1000 };
    nanosleep(&pause, NULL);
    write_file(path, text);
    struct timespec times[2] = { st.st_atim, st.st_mtim };
    ASSERT(utimensat(AT_FDCWD, path, times, 0) == 0);
    struct stat now;
    ASSERT(stat(path, &now) == 0);
    ASSERT_EQ(now.st_ino, st.st_ino);
    ASSERT_EQ(now.st_size, st.st_size);
    ASSERT_EQ(now.st_mtim.tv_sec, st.st_mtim.tv_sec);
    ASSERT_EQ(now.st_mtim.tv_nsec, st.st_mtim.tv_nsec);
}

TEST(file_rewritten_with_mtime_restored_changes_key)
{
    const char *path = rlx_test_path("driver.so");
    char before[512], same[512], after[512];
    write_file(path, "version one");
    file_key(path, before, sizeof before);
    file_key(path, same, sizeof same);
    ASSERT_STREQ(before, same); /* the key is stable while nothing moves */
    rewrite_keep_mtime(path, "version two");
    file_key(path, after, sizeof after);
    ASSERT(strcmp(before, after) != 0);
}

TEST(dir_entry_rewritten_with_mtime_restored_changes_key)
{
    char dir[4096], before[1024], after[1024];
    snprintf(dir, sizeof dir, "%s", rlx_test_path("icd.d"));
    ASSERT(mkdir(dir, 0700) == 0);
    char path[4200];
    snprintf(path, sizeof path, "%s/vendor.json", dir);
    write_file(path, "{\"a\": 1}");
    rlx_kit_probe_key k;
    rlx_kit_probe_key_init(&k, before, sizeof before);
    rlx_kit_probe_key_add_dir(&k, dir, "");
    ASSERT(rlx_kit_probe_key_end(&k) == RLX_OK);
    rewrite_keep_mtime(path, "{\"a\": 2}");
    rlx_kit_probe_key_init(&k, after, sizeof after);
    rlx_kit_probe_key_add_dir(&k, dir, "");
    ASSERT(rlx_kit_probe_key_end(&k) == RLX_OK);
    ASSERT(strcmp(before, after) != 0);
}

RLX_TEST_LIST(TEST_ENTRY(file_rewritten_with_mtime_restored_changes_key),
              TEST_ENTRY(dir_entry_rewritten_with_mtime_restored_changes_key));
