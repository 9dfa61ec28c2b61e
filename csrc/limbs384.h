/* 384-bit values as six 64-bit limbs, least significant first, and their
 * little-endian byte encoding in EVM memory (48 bytes, any alignment); the
 * byte-order helpers for 64-bit words in either order live here too. */
#ifndef EVM384_LIMBS384_H
#define EVM384_LIMBS384_H

#include <stdint.h>
#include <string.h>

#define LIMBS384 6
#define BYTES384 48
#define MONT_CONSTANT_BYTES 8 /* inv follows the modulus in memory */

typedef uint64_t limb_t;
typedef unsigned __int128 dlimb_t;

static inline limb_t load_le64(const uint8_t *p)
{
    limb_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void store_le64(uint8_t *p, limb_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
}

/* Big-endian words, for the EVM's stack words in code and memory. */
static inline uint64_t load_be64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline void store_be64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    memcpy(p, &v, sizeof v);
}

static inline void store_limbs384(uint8_t *p, const limb_t v[LIMBS384])
{
    for (int i = 0; i < LIMBS384; i++)
        store_le64(p + 8 * i, v[i]);
}

/* Add/subtract with carry. On x86-64 the intrinsics give clean ADC/SBB
 * chains (baseline ISA); elsewhere, or with EVM384_GENERIC_CARRIES (the
 * sanitizer build defines it so CI covers this code), double-width math. */
#if defined(__x86_64__) && !defined(EVM384_GENERIC_CARRIES)
#include <x86intrin.h>

static inline limb_t add_with_carry(limb_t a, limb_t b, limb_t *carry)
{
    unsigned long long sum;
    *carry = _addcarry_u64((unsigned char)*carry, a, b, &sum);
    return sum;
}

static inline limb_t sub_with_borrow(limb_t a, limb_t b, limb_t *borrow)
{
    unsigned long long diff;
    *borrow = _subborrow_u64((unsigned char)*borrow, a, b, &diff);
    return diff;
}
#else
static inline limb_t add_with_carry(limb_t a, limb_t b, limb_t *carry)
{
    dlimb_t sum = (dlimb_t)a + b + *carry;
    *carry = (limb_t)(sum >> 64);
    return (limb_t)sum;
}

static inline limb_t sub_with_borrow(limb_t a, limb_t b, limb_t *borrow)
{
    dlimb_t diff = (dlimb_t)a - b - *borrow;
    *borrow = (limb_t)(diff >> 64) & 1;
    return (limb_t)diff;
}
#endif

/* out = x - y over n limbs; returns the borrow (1 when it is negative, wrapped). */
static inline __attribute__((always_inline)) limb_t
sub_limbs(limb_t *out, const limb_t *x, const limb_t *y, int n)
{
    limb_t borrow = 0;
    for (int i = 0; i < n; i++)
        out[i] = sub_with_borrow(x[i], y[i], &borrow);
    return borrow;
}

#endif
