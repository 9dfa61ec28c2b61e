/* Issue 44: the generic 4-limb MULX Montgomery product (evmmax_mulx.c's mulx_mul_4) against
 * the P-256 and secp256k1 kernels of mont256_mulx.h (products and squarings), inlined as
 * the EVMMAX engine calls them; a dependent chain (x = x * y, x = x * x) and two interleaved
 * chains, ns per operation, min of 40 rounds of 200,000. Needs BMI2 and ADX; every kernel's
 * results are checked first: the Montgomery ones against the generic product's, secp256k1's
 * plain-form ones (x y mod p) against the portable plain product (secp256k1_plain.h).
 * Numbers: bench/README.md.
 *   gcc -std=gnu11 -O3 -fno-tree-vectorize -Icsrc bench/mont256_mulx_bench.c csrc/evmmax.c \
 *       csrc/evmmax_portable.c csrc/evmmax_mulx768.c csrc/mont384_mulx.c csrc/mont384_portable.c \
 *       csrc/evm384_ops.c \
 *       csrc/cpu_features.c -o /tmp/m256 && /tmp/m256 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "../csrc/evmmax_mulx.c"
#include "mont256_mulx.h"

static struct evmmax_context CTX;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }

#define CHAINS(NAME, ONE)                                                                     \
    __attribute__((noinline)) static void NAME##_1(limb_t *x, const limb_t *y, long n)        \
    { for (long i = 0; i < n; i++) { ONE(x, y); } }                                           \
    __attribute__((noinline)) static void NAME##_2(limb_t *x, limb_t *z, const limb_t *y, long n) \
    { for (long i = 0; i < n; i++) { ONE(x, y); ONE(z, y); } }
#define GENERIC_MUL(x, y) mulx_mul_4(x, x, y, &CTX)
#define GENERIC_SQR(x, y) mulx_mul_4(x, x, x, &CTX)
#define P256_MUL(x, y) p256_mul_mulx(x, x, y)
#define P256_SQR(x, y) p256_square_mulx(x, x)
#define SECP_MUL(x, y) secp256k1_plain_mul_mulx(x, x, y)
#define SECP_SQR(x, y) secp256k1_plain_square_mulx(x, x)
#define SECP_PORTABLE_MUL(x, y) secp256k1_plain_mul_portable(x, x, y)
#define SECP_PORTABLE_SQR(x, y) secp256k1_plain_mul_portable(x, x, x)
#define ANY_SQR(x, y) mont256_square_mulx(x, x, CTX.mod_inv)
CHAINS(generic_mul, GENERIC_MUL) CHAINS(generic_sqr, GENERIC_SQR)
CHAINS(p256_mul, P256_MUL) CHAINS(p256_sqr, P256_SQR)
CHAINS(secp_mul, SECP_MUL) CHAINS(secp_sqr, SECP_SQR) CHAINS(any_sqr, ANY_SQR)
CHAINS(secp_portable_mul, SECP_PORTABLE_MUL) CHAINS(secp_portable_sqr, SECP_PORTABLE_SQR)

typedef void chain1(limb_t *, const limb_t *, long);
typedef void chain2(limb_t *, limb_t *, const limb_t *, long);
static const limb_t START_X[4] = {0x0123456789abcdefULL, 0x1122334455667788ULL,
                                  0x99aabbccddeeff00ULL, 0x7edcba9876543210ULL};
static const limb_t START_Z[4] = {0xfedcba9876543210ULL, 0x0f1e2d3c4b5a6978ULL,
                                  0x8796a5b4c3d2e1f0ULL, 0x3c3c3c3c5a5a5a5aULL};
static const limb_t Y[4] = {0xdeadbeefcafebabeULL, 0x0badf00d0ddba11ULL,
                            0x5555aaaa5555aaaaULL, 0x6666777788889999ULL};

/* The special kernel's chain against the generic's (or the portable plain product's) from
 * the same start: equal limbs. */
static int same(chain1 *special, chain1 *generic)
{
    limb_t a[4], b[4];
    memcpy(a, START_X, 32), memcpy(b, START_X, 32);
    special(a, Y, 1000), generic(b, Y, 1000);
    return memcmp(a, b, 32) == 0;
}

static void race(const char *what, chain1 *g1, chain2 *g2, chain1 *s1, chain2 *s2)
{
    const long N = 200000;
    double best[4] = {1e99, 1e99, 1e99, 1e99};
    limb_t a[4], b[4], c[4], d[4];
    memcpy(a, START_X, 32), memcpy(b, START_X, 32), memcpy(c, START_Z, 32), memcpy(d, START_Z, 32);
    for (int r = 0; r < 40; r++) {
        double t0 = now(); g1(a, Y, N); double t1 = now(); s1(b, Y, N); double t2 = now();
        g2(a, c, Y, N / 2); double t3 = now(); s2(b, d, Y, N / 2); double t4 = now();
        double t[4] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3};
        for (int k = 0; k < 4; k++)
            if (t[k] < best[k]) best[k] = t[k];
    }
    printf("%-26s chain: generic %.2f ns, special %.2f ns, ratio %.3f | two chains: %.2f, %.2f, %.3f\n",
           what, best[0] / N, best[1] / N, best[1] / best[0], best[2] / N, best[3] / N,
           best[3] / best[2]);
}

static int setup(uint64_t top, uint64_t l2, uint64_t l1, uint64_t l0)
{
    uint8_t be[32];
    const uint64_t limbs[4] = {top, l2, l1, l0};
    for (int i = 0; i < 32; i++) be[i] = (uint8_t)(limbs[i / 8] >> (56 - 8 * (i % 8)));
    return evmmax_setup(&CTX, be, 32);
}

int main(void) {
    setup(0xffffffff00000001ULL, 0, 0x00000000ffffffffULL, 0xffffffffffffffffULL);
    if (!same(p256_mul_1, generic_mul_1) || !same(p256_sqr_1, generic_sqr_1)) { puts("P-256 MISMATCH"); return 1; }
    race("P-256 product (x = x y)", generic_mul_1, generic_mul_2, p256_mul_1, p256_mul_2);
    race("P-256 squaring (x = x x)", generic_sqr_1, generic_sqr_2, p256_sqr_1, p256_sqr_2);
    setup(~0ULL, ~0ULL, ~0ULL, 0xfffffffefffffc2fULL);
    if (!same(secp_mul_1, secp_portable_mul_1) || !same(secp_sqr_1, secp_portable_sqr_1)) { puts("secp256k1 MISMATCH"); return 1; }
    race("secp256k1 product", generic_mul_1, generic_mul_2, secp_mul_1, secp_mul_2);
    race("secp256k1 squaring", generic_sqr_1, generic_sqr_2, secp_sqr_1, secp_sqr_2);
    race("secp256k1 portable product", generic_mul_1, generic_mul_2, secp_portable_mul_1,
         secp_portable_mul_2);
    /* the generic squaring on BN254's p, P-256's group order n and 2^256 - 189 */
    const uint64_t others[3][4] = {
        {0x30644e72e131a029ULL, 0xb85045b68181585dULL, 0x97816a916871ca8dULL, 0x3c208c16d87cfd47ULL},
        {0xffffffff00000000ULL, 0xffffffffffffffffULL, 0xbce6faada7179e84ULL, 0xf3b9cac2fc632551ULL},
        {~0ULL, ~0ULL, ~0ULL, 0xffffffffffffff43ULL}};
    const char *names[3] = {"any squaring, BN254 p", "any squaring, P-256 n", "any squaring, 2^256-189"};
    for (int i = 0; i < 3; i++) {
        setup(others[i][0], others[i][1], others[i][2], others[i][3]);
        if (!same(any_sqr_1, generic_sqr_1)) { printf("%s MISMATCH\n", names[i]); return 1; }
        race(names[i], generic_sqr_1, generic_sqr_2, any_sqr_1, any_sqr_2);
    }
    return 0;
}
