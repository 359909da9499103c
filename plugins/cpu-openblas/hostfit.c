/*
 * hostfit.c - rlx_plugin_host_fit for the cpu-openblas variants.
 *
 * Built WITHOUT the variant's ISA flags (meson compiles it apart from the
 * kernels, no LTO): the loader calls it before anything checked that the
 * host can run AVX2 or AVX-512 code. The OS must also save the register
 * state (XCR0), else the first AVX instruction faults even though CPUID
 * lists it; XGETBV itself faults unless CPUID says OSXSAVE, so that bit
 * is checked first.
 */
#include <rlx/plugin.h>

#include "hostfit.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#else
#define HAVE_CPUID 0
#endif

#ifndef RLXB_LEVEL
#define RLXB_LEVEL RLXB_LEVEL_PORTABLE
#endif

#define ECX1_FMA (1u << 12)
#define ECX1_OSXSAVE (1u << 27)
#define ECX1_AVX (1u << 28)
#define EBX7_AVX2 (1u << 5)
#define EBX7_AVX512F (1u << 16)
#define EBX7_AVX512DQ (1u << 17)
#define EBX7_AVX512BW (1u << 30)
#define EBX7_AVX512VL (1u << 31)
#define XCR0_SSE_AVX 0x6u            /* XMM and YMM upper halves */
#define XCR0_AVX512 0xe0u            /* opmask, ZMM0-15 upper, ZMM16-31 */

static int has_all(uint64_t have, uint64_t want)
{
    return (have & want) == want;
}

int32_t rlxb_host_fit_decide(int level, const rlxb_cpu_bits *b)
{
    if (level == RLXB_LEVEL_PORTABLE)
        return RLXB_SCORE_PORTABLE;
    if (!b || !b->is_x86 || b->max_leaf < 7)
        return 0;
    /* OSXSAVE first: without it XCR0 was never read and means nothing */
    if (!has_all(b->leaf1_ecx, ECX1_OSXSAVE))
        return 0;
    if (!has_all(b->leaf1_ecx, ECX1_AVX | ECX1_FMA) ||
        !has_all(b->leaf7_ebx, EBX7_AVX2) || !has_all(b->xcr0, XCR0_SSE_AVX))
        return 0;
    if (level == RLXB_LEVEL_AVX2)
        return RLXB_SCORE_AVX2;
    if (level == RLXB_LEVEL_AVX512) {
        uint32_t want = EBX7_AVX512F | EBX7_AVX512DQ | EBX7_AVX512BW |
                        EBX7_AVX512VL;
        if (!has_all(b->leaf7_ebx, want) ||
            !has_all(b->xcr0, XCR0_SSE_AVX | XCR0_AVX512))
            return 0;
        return RLXB_SCORE_AVX512;
    }
    return 0; /* a level this file does not know */
}

void rlxb_cpu_bits_read(rlxb_cpu_bits *b)
{
    *b = (rlxb_cpu_bits){ 0 };
#if HAVE_CPUID
    unsigned a, bx, c, d;
    b->is_x86 = 1;
    if (!__get_cpuid(0, &a, &bx, &c, &d))
        return;
    b->max_leaf = a;
    if (a >= 1 && __get_cpuid(1, &a, &bx, &c, &d))
        b->leaf1_ecx = c;
    if (b->max_leaf >= 7 && __get_cpuid_count(7, 0, &a, &bx, &c, &d))
        b->leaf7_ebx = bx;
    if (b->leaf1_ecx & ECX1_OSXSAVE) {
        unsigned lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        b->xcr0 = ((uint64_t)hi << 32) | lo;
    }
#endif
}

RLX_PLUGIN_EXPORT int32_t rlx_plugin_host_fit(const char **family)
{
    rlxb_cpu_bits bits;
    if (family)
        *family = "cpu-openblas";
    rlxb_cpu_bits_read(&bits);
    return rlxb_host_fit_decide(RLXB_LEVEL, &bits);
}
