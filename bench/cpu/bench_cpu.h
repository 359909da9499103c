/* bench_cpu.h - what the two files of the CPU benchmark share. */
#ifndef RLX_BENCH_CPU_H
#define RLX_BENCH_CPU_H

#include <stddef.h>

#include <rlx/rlx.h>

double bench_now_ms(void);
/* median of N samples (sorted in place) */
double bench_median(double *v, size_t n);
/* fill N floats uniform in [-1, 1) from SEED */
void bench_fill(float *x, size_t n, unsigned seed);
/* The example models on both CPU backends; prints its table. */
int bench_models(rlx_runtime *rt, const char *examples_dir, int repeat);

#endif
