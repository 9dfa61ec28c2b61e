/* secp256k1's field p = 2^256 - c, c = 2^32 + 977, with registers in plain form (issue 44).
 *
 * For this modulus SETMODX keeps register values as they are (x, not x R mod p), so a
 * MULMODX element is x y mod p by folding: 2^256 = c mod p, so t = x y = H 2^256 + L is
 * H c + L, and the fold's own top limb T (below 2^33) folds once more. Each fold is
 * independent multiplications by c, where Montgomery's reduction is four dependent
 * rounds (an IMUL, then a MULX on its result), so the product's latency, which bounds
 * ecrecover's chains of field operations, is shorter (bench/README.md). LOADX and STOREX
 * then copy (evmmax.c), as for a power of two; the values LOADX returns, gas, halts and
 * counts are unchanged. The MULX kernels of this form are in mont256_mulx.h; the portable
 * one below serves every other implementation, so the register form follows the modulus
 * alone, whichever implementation runs. */
#ifndef EVM384_SECP256K1_PLAIN_H
#define EVM384_SECP256K1_PLAIN_H

#include <stdint.h>

/* p's limbs, least significant first, and c = 2^256 - p. */
static const uint64_t SECP256K1_MODULUS[4] = {0xfffffffefffffc2fULL, ~0ULL, ~0ULL, ~0ULL};
static const uint64_t SECP256K1_C = 0x1000003d1ULL;

/* out = x y mod p for x, y < p, in plain form; out may alias x and y. Bounds: t < p^2;
 * H c + L < 2^256 (2^33 + 1), so the first fold's top limb T < 2^33 + 1 and T c < 2^67;
 * v = T c + (the fold's low 256 bits) < 2^256 + 2^67. If v >= 2^256, v - 2^256 + c <
 * 2^68 < p is the result (and the sum with c cannot carry); else v < 2^256 < 2p, and
 * v >= p exactly when v + c carries out of 2^256, whose low 256 bits are then v - p. */
static inline __attribute__((always_inline)) void
secp256k1_plain_mul_portable(uint64_t out[4], const uint64_t x[4], const uint64_t y[4])
{
    typedef unsigned __int128 wide;
    uint64_t t[8] = {0};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < 4; j++) {
            wide s = (wide)x[i] * y[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)s;
            carry = (uint64_t)(s >> 64);
        }
        t[i + 4] = carry;
    }
    uint64_t v[4], top = 0;
    for (int i = 0; i < 4; i++) {           /* H c + L */
        wide s = (wide)t[i + 4] * SECP256K1_C + t[i] + top;
        v[i] = (uint64_t)s;
        top = (uint64_t)(s >> 64);
    }
    wide s = (wide)top * SECP256K1_C + v[0];  /* T c + the low limbs */
    v[0] = (uint64_t)s;
    uint64_t carry = (uint64_t)(s >> 64);
    for (int i = 1; i < 4; i++) {
        s = (wide)v[i] + carry;
        v[i] = (uint64_t)s;
        carry = (uint64_t)(s >> 64);
    }
    uint64_t w[4];                          /* v + c: v - p when it carries */
    s = (wide)v[0] + SECP256K1_C;
    w[0] = (uint64_t)s;
    uint64_t w_carry = (uint64_t)(s >> 64);
    for (int i = 1; i < 4; i++) {
        s = (wide)v[i] + w_carry;
        w[i] = (uint64_t)s;
        w_carry = (uint64_t)(s >> 64);
    }
    const uint64_t take_w = (uint64_t)0 - (carry | w_carry);
    for (int i = 0; i < 4; i++)
        out[i] = (w[i] & take_w) | (v[i] & ~take_w);
}

#endif
