/* Issue 44: the 6-limb MULX Montgomery product (mont384_mulx.h) against the squaring of
 * sqr384_mulx.h, inlined as the EVMMAX engine inlines them; a dependent chain (x = x * x)
 * and two interleaved chains, ns per operation, min of 40 rounds of 200,000. Needs BMI2 and
 * ADX; the results are checked equal first. Numbers: bench/README.md.
 *   gcc -std=gnu11 -O3 -fno-tree-vectorize -Icsrc bench/sqr384_mulx_bench.c -o /tmp/sqr && /tmp/sqr */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "mont384_mulx.h"
#include "sqr384_mulx.h"

static uint8_t MOD[MODULUS_WITH_INV_BYTES];
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
__attribute__((noinline)) static void mul1(uint8_t *x, long n) { for (long i = 0; i < n; i++) mulmont384_mulx_inline(x, x, x, MOD); }
__attribute__((noinline)) static void sqr1(uint8_t *x, long n) { for (long i = 0; i < n; i++) sqrmont384_mulx_inline(x, x, MOD); }
__attribute__((noinline)) static void mul2(uint8_t *x, uint8_t *y, long n) { for (long i = 0; i < n; i++) { mulmont384_mulx_inline(x, x, x, MOD); mulmont384_mulx_inline(y, y, y, MOD); } }
__attribute__((noinline)) static void sqr2(uint8_t *x, uint8_t *y, long n) { for (long i = 0; i < n; i++) { sqrmont384_mulx_inline(x, x, MOD); sqrmont384_mulx_inline(y, y, MOD); } }
int main(void) {
    const uint64_t p[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,
                           0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};
    uint64_t inv = 0x89f3fffcfffcfffdULL;
    memcpy(MOD, p, 48); memcpy(MOD + 48, &inv, 8);
    uint8_t a[48] = {0}, b[48], c[48] = {0}, d[48];
    for (int i = 0; i < 47; i++) a[i] = (uint8_t)(i * 37 + 11), c[i] = (uint8_t)(i * 91 + 5);
    memcpy(b, a, 48); memcpy(d, c, 48);
    mul1(a, 1000); sqr1(b, 1000);
    if (memcmp(a, b, 48) != 0) { puts("MISMATCH"); return 1; }
    const long N = 200000; double m1 = 1e99, s1 = 1e99, m2 = 1e99, s2 = 1e99;
    for (int r = 0; r < 40; r++) {
        double t0 = now(); mul1(a, N); double t1 = now(); sqr1(b, N); double t2 = now();
        mul2(a, c, N / 2); double t3 = now(); sqr2(b, d, N / 2); double t4 = now();
        if (t1 - t0 < m1) m1 = t1 - t0;
        if (t2 - t1 < s1) s1 = t2 - t1;
        if (t3 - t2 < m2) m2 = t3 - t2;
        if (t4 - t3 < s2) s2 = t4 - t3;
    }
    printf("dependent chain: product %.2f ns, squaring %.2f ns, ratio %.3f\n", m1 / N, s1 / N, s1 / m1);
    printf("two chains:      product %.2f ns, squaring %.2f ns, ratio %.3f\n", m2 / N, s2 / N, s2 / m2);
    return 0;
}
