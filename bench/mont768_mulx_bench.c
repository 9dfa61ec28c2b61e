/* Issue 44: the 12-limb MULX Montgomery product, the register kernel of mont768_mulx.h
 * against the generic rows over a memory accumulator (evmmax_mulx.c's MULX_ROWS, the
 * 12-limb kernel before), both called through a pointer as the engine calls them, modulo
 * BW6-761's p; a dependent chain (x = x * y) and two interleaved chains, ns per product,
 * min of 30 rounds of 100,000. Needs BMI2 and ADX; 100,000 random products modulo p, a
 * random 768-bit modulus and 2^768 - 1 are checked equal first. Numbers: bench/README.md.
 *   gcc -std=gnu11 -O3 -fno-tree-vectorize -Icsrc bench/mont768_mulx_bench.c -o /tmp/m768 && /tmp/m768 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "evmmax_mulx.c"
#include "mont384_mulx.c"
#include "evmmax_mulx768.c"

static const limb_t P[12] = {
    0xf49d00000000008bULL, 0xe6913e6870000082ULL, 0x160cf8aeeaf0a437ULL, 0x98a116c25667a8f8ULL,
    0x71dcd3dc73ebff2eULL, 0x8689c8ed12f9fd90ULL, 0x03cebaff25b42304ULL, 0x707ba638e584e919ULL,
    0x528275ef8087be41ULL, 0xb926186a81d14688ULL, 0xd187c94004faff3eULL, 0x0122e824fb83ce0aULL};
static struct evmmax_context CTX;
MULX_ROWS(rows_12, 12)

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
static uint64_t state = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void) { state ^= state << 13; state ^= state >> 7; state ^= state << 17; return state; }
static void random_below(limb_t *v, const limb_t *m) { for (int i = 0; i < 12; i++) v[i] = next(); v[11] %= m[11]; }
static void random_below_p(limb_t *v) { random_below(v, P); }
static void set_modulus(const limb_t *m) {
    memcpy(CTX.mod_inv, m, 12 * sizeof(limb_t));
    uint64_t inv = m[0];
    for (int i = 0; i < 6; i++) inv *= 2 - m[0] * inv;   /* Newton: m[0]^-1 mod 2^64 */
    CTX.mod_inv[12] = CTX.inv = 0 - inv;
    CTX.limbs = 12;
}

typedef void mul_fn(limb_t *, const limb_t *, const limb_t *, const struct evmmax_context *);
static mul_fn *volatile ROWS = rows_12, *volatile REGS = evmmax_mulx768_mul; /* calls, as the engine's */

__attribute__((noinline)) static void chain1(mul_fn *f, limb_t *x, const limb_t *y, long n) { for (long i = 0; i < n; i++) f(x, x, y, &CTX); }
__attribute__((noinline)) static void chain2(mul_fn *f, limb_t *x, limb_t *z, const limb_t *y, long n) { for (long i = 0; i < n; i++) { f(x, x, y, &CTX); f(z, z, y, &CTX); } }

int main(void) {
    limb_t wide[12], all_ones[12], x[12], y[12], a[12], b[12];
    for (int i = 0; i < 12; i++) wide[i] = next(), all_ones[i] = ~(limb_t)0;
    wide[0] |= 1, wide[11] |= 1ULL << 63;
    const limb_t *moduli[3] = {P, wide, all_ones};
    for (int j = 0; j < 3; j++) {
        set_modulus(moduli[j]);
        for (int k = 0; k < 100000; k++) {
            random_below(x, moduli[j]), random_below(y, moduli[j]);
            ROWS(a, x, y, &CTX), REGS(b, x, y, &CTX);
            if (memcmp(a, b, sizeof a) != 0) { printf("MISMATCH at modulus %d, %d\n", j, k); return 1; }
        }
    }
    set_modulus(P);
    limb_t c[12], d[12], e[12], f[12];
    random_below_p(c), memcpy(d, c, sizeof c), random_below_p(e), memcpy(f, e, sizeof e);
    const long N = 100000;
    double r1 = 1e99, g1 = 1e99, r2 = 1e99, g2 = 1e99;
    for (int r = 0; r < 30; r++) {
        double t0 = now(); chain1(ROWS, c, y, N); double t1 = now(); chain1(REGS, d, y, N);
        double t2 = now(); chain2(ROWS, c, e, y, N / 2); double t3 = now(); chain2(REGS, d, f, y, N / 2);
        double t4 = now();
        if (t1 - t0 < r1) r1 = t1 - t0;
        if (t2 - t1 < g1) g1 = t2 - t1;
        if (t3 - t2 < r2) r2 = t3 - t2;
        if (t4 - t3 < g2) g2 = t4 - t3;
    }
    if (memcmp(c, d, sizeof c) != 0 || memcmp(e, f, sizeof e) != 0) { puts("MISMATCH in the chains"); return 1; }
    printf("dependent chain: rows %.2f ns, registers %.2f ns, ratio %.3f\n", r1 / N, g1 / N, g1 / r1);
    printf("two chains:      rows %.2f ns, registers %.2f ns, ratio %.3f\n", r2 / N, g2 / N, g2 / r2);
    return 0;
}
