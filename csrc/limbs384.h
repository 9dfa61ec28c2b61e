/* 384-bit values as six 64-bit limbs, least significant first, and their
 * little-endian byte encoding in EVM memory (48 bytes, any alignment). */
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

static inline void load_limbs384(limb_t out[LIMBS384], const uint8_t *p)
{
    for (int i = 0; i < LIMBS384; i++)
        out[i] = load_le64(p + 8 * i);
}

static inline void store_limbs384(uint8_t *p, const limb_t v[LIMBS384])
{
    for (int i = 0; i < LIMBS384; i++)
        store_le64(p + 8 * i, v[i]);
}

#endif
