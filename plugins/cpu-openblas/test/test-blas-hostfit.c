/* test-blas-hostfit.c - the variant score decision, fed made-up CPUID and
 * XCR0 values: AVX2 in CPUID is not enough, the OS must enable the AVX
 * state (XCR0 bits 1-2; 5-7 for AVX-512), and XCR0 means nothing unless
 * CPUID says OSXSAVE. And on this host, the decision agrees with the
 * compiler's own CPU checks. */
#include <stdio.h>

#include "harness.h"
#include "hostfit.h"

#define FMA (1u << 12)
#define OSXSAVE (1u << 27)
#define AVX (1u << 28)
#define AVX2 (1u << 5)
#define AVX512 ((1u << 16) | (1u << 17) | (1u << 30) | (1u << 31))

static rlxb_cpu_bits avx2_host(void)
{
    return (rlxb_cpu_bits){ .is_x86 = 1, .max_leaf = 13,
                                 .leaf1_ecx = FMA | OSXSAVE | AVX,
                                 .leaf7_ebx = AVX2, .xcr0 = 0x7 };
}

TEST(portable_always_runs)
{
    rlxb_cpu_bits none = { 0 };
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_PORTABLE, &none),
              RLXB_SCORE_PORTABLE);
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &none), 0);
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &none), 0);
}

TEST(avx2_needs_cpuid_and_os_state)
{
    rlxb_cpu_bits b = avx2_host();
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b),
              RLXB_SCORE_AVX2);
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &b), 0);
    /* a VM that lists AVX2 but keeps the YMM state off */
    b.xcr0 = 0x3;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    b.xcr0 = 0x5; /* x87 + YMM without XMM */
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    /* no OSXSAVE: XCR0 is not to be trusted (XGETBV would fault) */
    b = avx2_host();
    b.leaf1_ecx &= ~OSXSAVE;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    /* each feature bit matters */
    b = avx2_host();
    b.leaf1_ecx &= ~FMA;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    b = avx2_host();
    b.leaf1_ecx &= ~AVX;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    b = avx2_host();
    b.leaf7_ebx = 0;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
    b = avx2_host();
    b.max_leaf = 6; /* leaf 7 not there: its bits are garbage */
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b), 0);
}

TEST(avx512_needs_zmm_state)
{
    rlxb_cpu_bits b = avx2_host();
    b.leaf7_ebx |= AVX512;
    b.xcr0 = 0x7; /* AVX-512 in CPUID, opmask/ZMM state off */
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &b), 0);
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b),
              RLXB_SCORE_AVX2);
    b.xcr0 = 0xe7;
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &b),
              RLXB_SCORE_AVX512);
    b.leaf7_ebx &= ~(1u << 30); /* no AVX512BW */
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &b), 0);
    ASSERT_EQ(rlxb_host_fit_decide(99, &b), 0);
}

TEST(this_host_agrees_with_the_compiler)
{
    rlxb_cpu_bits b;
    rlxb_cpu_bits_read(&b);
    __builtin_cpu_init();
    int avx2 = __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
    int avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                 __builtin_cpu_supports("avx512dq") &&
                 __builtin_cpu_supports("avx512bw") &&
                 __builtin_cpu_supports("avx512vl");
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX2, &b) > 0, avx2);
    ASSERT_EQ(rlxb_host_fit_decide(RLXB_LEVEL_AVX512, &b) > 0,
              avx512);
    printf("# this host: avx2+fma %d, avx512 %d, xcr0 0x%llx\n", avx2,
           avx512, (unsigned long long)b.xcr0);
}

RLX_TEST_LIST(
    TEST_ENTRY(portable_always_runs),
    TEST_ENTRY(avx2_needs_cpuid_and_os_state),
    TEST_ENTRY(avx512_needs_zmm_state),
    TEST_ENTRY(this_host_agrees_with_the_compiler),
)
