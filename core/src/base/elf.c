/*
 * elf.c - look at a candidate file's ELF header before dlopen, so that a
 * foreign architecture, an executable or a truncated file gets a precise
 * reason instead of whatever the dynamic loader happens to say; and read
 * a library's dynamic symbol table, so that a custom op calls only a
 * function the library itself defines (never data, never a dependency's).
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"

#if defined(__x86_64__)
#define NATIVE_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define NATIVE_MACHINE EM_AARCH64
#elif defined(__i386__)
#define NATIVE_MACHINE EM_386
#elif defined(__arm__)
#define NATIVE_MACHINE EM_ARM
#elif defined(__riscv)
#define NATIVE_MACHINE EM_RISCV
#elif defined(__powerpc64__)
#define NATIVE_MACHINE EM_PPC64
#elif defined(__s390x__)
#define NATIVE_MACHINE EM_S390
#endif

#if UINTPTR_MAX > 0xffffffffu
#define NATIVE_CLASS ELFCLASS64
#else
#define NATIVE_CLASS ELFCLASS32
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NATIVE_DATA ELFDATA2LSB
#else
#define NATIVE_DATA ELFDATA2MSB
#endif

static const char *machine_name(unsigned m)
{
    switch (m) {
    case EM_X86_64: return "x86-64";
    case EM_AARCH64: return "AArch64";
    case EM_386: return "i386";
    case EM_ARM: return "ARM";
    case EM_RISCV: return "RISC-V";
    case EM_PPC64: return "PowerPC64";
    case EM_S390: return "s390x";
    default: return NULL;
    }
}

static int fail(char **reason, char **fix, const char *r, const char *f)
{
    *reason = rlx__strdup(r);
    *fix = rlx__strdup(f);
    return -1;
}

int rlx__elf_check(int fd, long long file_size, char **reason, char **fix)
{
    unsigned char h[sizeof(Elf64_Ehdr)];
    ssize_t got = pread(fd, h, sizeof h, 0);
    static const char not_plugin_fix[] =
        "remove it: only rlx plugin shared libraries belong in a plugin "
        "directory under the name librlx-backend-*.so";

    *reason = *fix = NULL;
    if (got <= 0 && file_size == 0)
        return fail(reason, fix, "empty file", not_plugin_fix);
    if (got < 0)
        return fail(reason, fix, "cannot read the file", not_plugin_fix);
    if (got < SELFMAG || memcmp(h, ELFMAG, SELFMAG) != 0)
        return fail(reason, fix, "not an ELF file", not_plugin_fix);
    if (got < EI_NIDENT)
        return fail(reason, fix, "truncated ELF file (header cut short)",
                    "reinstall the plugin: the file is incomplete");
    if (h[EI_CLASS] != NATIVE_CLASS) {
        *reason = rlx__printf_alloc("ELF class %s, this process is %d-bit",
                                    h[EI_CLASS] == ELFCLASS32 ? "32-bit"
                                    : h[EI_CLASS] == ELFCLASS64 ? "64-bit"
                                                                : "unknown",
                                    NATIVE_CLASS == ELFCLASS64 ? 64 : 32);
        *fix = rlx__strdup("install the plugin built for this architecture");
        return -1;
    }
    if (h[EI_DATA] != NATIVE_DATA)
        return fail(reason, fix, "ELF byte order differs from this process",
                    "install the plugin built for this architecture");

    /* Same class and byte order as ours, so our structs read it directly. */
#if NATIVE_CLASS == ELFCLASS64
    Elf64_Ehdr e;
    size_t ehsize = sizeof(Elf64_Ehdr);
#else
    Elf32_Ehdr e;
    size_t ehsize = sizeof(Elf32_Ehdr);
#endif
    if ((size_t)got < ehsize)
        return fail(reason, fix, "truncated ELF file (header cut short)",
                    "reinstall the plugin: the file is incomplete");
    memcpy(&e, h, ehsize);
#ifdef NATIVE_MACHINE
    if (e.e_machine != NATIVE_MACHINE) {
        const char *theirs = machine_name(e.e_machine);
        char num[32];
        if (!theirs) {
            snprintf(num, sizeof num, "machine %u", (unsigned)e.e_machine);
            theirs = num;
        }
        *reason = rlx__printf_alloc("built for %s, this process is %s",
                                    theirs, machine_name(NATIVE_MACHINE));
        *fix = rlx__printf_alloc("install the %s build of the plugin",
                                 machine_name(NATIVE_MACHINE));
        return -1;
    }
#endif
    if (e.e_type == ET_EXEC)
        return fail(reason, fix, "an ELF executable, not a shared library",
                    not_plugin_fix);
    if (e.e_type != ET_DYN)
        return fail(reason, fix,
                    "not a shared library (ELF object or core file)",
                    not_plugin_fix);
    unsigned long long ph_end =
        (unsigned long long)e.e_phoff +
        (unsigned long long)e.e_phnum * e.e_phentsize;
    unsigned long long sh_end =
        (unsigned long long)e.e_shoff +
        (unsigned long long)e.e_shnum * e.e_shentsize;
    if (ph_end > (unsigned long long)file_size ||
        sh_end > (unsigned long long)file_size) {
        *reason = rlx__printf_alloc(
            "truncated ELF file: %lld bytes, its headers need %llu",
            file_size, ph_end > sh_end ? ph_end : sh_end);
        *fix = rlx__strdup("reinstall the plugin: the file is incomplete");
        return -1;
    }
    return 0;
}

/* ---- the dynamic symbol table ---------------------------------------- */

#define SYMTAB_MAX (64ull << 20) /* refuse absurd section sizes */

static void *read_at(int fd, unsigned long long off, unsigned long long n,
                     unsigned long long file_size)
{
    if (n == 0 || n > SYMTAB_MAX || off > file_size || n > file_size - off)
        return NULL;
    char *buf = malloc((size_t)n + 1);
    if (!buf)
        return NULL;
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, buf + got, (size_t)(n - got),
                          (off_t)(off + got));
        if (r <= 0) {
            free(buf);
            return NULL;
        }
        got += (size_t)r;
    }
    buf[n] = '\0';
    return buf;
}

rlx__sym_kind rlx__elf_symbol_kind(const char *file, const char *name,
                                   int *type)
{
    if (type)
        *type = 0;
    int fd = open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return RLX__SYM_UNREADABLE;
    struct stat st;
    char *reason = NULL, *fix = NULL;
    rlx__sym_kind kind = RLX__SYM_UNREADABLE;
    ElfW(Shdr) *sh = NULL;
    ElfW(Sym) *syms = NULL;
    char *strs = NULL;
    ElfW(Ehdr) e;
    if (fstat(fd, &st) != 0 ||
        rlx__elf_check(fd, (long long)st.st_size, &reason, &fix) != 0 ||
        pread(fd, &e, sizeof e, 0) != (ssize_t)sizeof e ||
        e.e_shentsize != sizeof(ElfW(Shdr)) || e.e_shnum == 0)
        goto out;
    unsigned long long size = (unsigned long long)st.st_size;
    sh = read_at(fd, e.e_shoff, (unsigned long long)e.e_shnum * sizeof *sh,
                 size);
    if (!sh)
        goto out;
    for (unsigned i = 0; i < e.e_shnum; i++) {
        if (sh[i].sh_type != SHT_DYNSYM)
            continue;
        if (sh[i].sh_entsize != sizeof(ElfW(Sym)) ||
            sh[i].sh_link >= e.e_shnum)
            goto out;
        const ElfW(Shdr) *str = &sh[sh[i].sh_link];
        syms = read_at(fd, sh[i].sh_offset, sh[i].sh_size, size);
        strs = read_at(fd, str->sh_offset, str->sh_size, size);
        if (!syms || !strs)
            goto out;
        size_t n = (size_t)(sh[i].sh_size / sizeof *syms);
        kind = RLX__SYM_ABSENT;
        for (size_t k = 0; k < n; k++) {
            const ElfW(Sym) *s = &syms[k];
            if (s->st_shndx == SHN_UNDEF || s->st_name >= str->sh_size ||
                strcmp(strs + s->st_name, name) != 0)
                continue;
            int t = ELF64_ST_TYPE(s->st_info);
            if (type)
                *type = t;
            /* every definition of the name (versions) must be code */
            if (t != STT_FUNC && t != STT_GNU_IFUNC) {
                kind = RLX__SYM_OTHER;
                break;
            }
            kind = RLX__SYM_FUNCTION;
        }
        break;
    }
out:
    free(reason);
    free(fix);
    free(sh);
    free(syms);
    free(strs);
    close(fd);
    return kind;
}
