/*
 * dlsym_kind.c - is a symbol a plugin exports under an entry point's name
 * really a function? Calling a data object jumps into data: a crash, or
 * worse, code an attacker put there.
 */
#define _GNU_SOURCE /* dladdr1 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include "plugin.h"

int rlx__symbol_is_function(void *addr)
{
    Dl_info info;
    const ElfW(Sym) *sym = NULL;
    if (!dladdr1(addr, &info, (void **)&sym, RTLD_DL_SYMENT) || !sym)
        return 1; /* nothing to say against it */
    int type = ELF64_ST_TYPE(sym->st_info);
    return type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_NOTYPE;
}
