/*
 * hostfit.h - can this host run a variant of cpu-openblas? The decision
 * is a pure function of CPUID and XCR0 values so tests can feed it a
 * machine that does not exist (AVX2 in CPUID but AVX state off in XCR0,
 * as in VMs that hide it).
 */
#ifndef RLXB_HOSTFIT_H
#define RLXB_HOSTFIT_H

#include <stdint.h>

/* Variant levels, one per built .so. */
#define RLXB_LEVEL_PORTABLE 0
#define RLXB_LEVEL_AVX2 1   /* AVX2 + FMA */
#define RLXB_LEVEL_AVX512 2 /* AVX-512 F, DQ, BW, VL (+ AVX2, FMA) */

/* Scores: higher wins; 0 means "cannot run here". */
#define RLXB_SCORE_PORTABLE 10
#define RLXB_SCORE_AVX2 20
#define RLXB_SCORE_AVX512 30

typedef struct rlxb_cpu_bits {
    int is_x86;          /* 0: no CPUID; only the portable variant runs */
    uint32_t max_leaf;   /* CPUID.0:EAX */
    uint32_t leaf1_ecx;  /* CPUID.1:ECX (FMA, OSXSAVE, AVX) */
    uint32_t leaf7_ebx;  /* CPUID.(7,0):EBX (AVX2, AVX-512 F/DQ/BW/VL) */
    uint64_t xcr0;       /* XGETBV(0); meaningful only with OSXSAVE */
} rlxb_cpu_bits;

/* The score of variant LEVEL on a host with BITS. */
int32_t rlxb_host_fit_decide(int level, const rlxb_cpu_bits *bits);
/* Read this host's bits (XGETBV only when CPUID says OSXSAVE). */
void rlxb_cpu_bits_read(rlxb_cpu_bits *bits);

#endif
