/* The small 256-bit word operations, inline for the interpreter loop (evm_fast.c)
 * and the wide arithmetic (evm_word.c). */
#ifndef EVM_WORD_OPS_H
#define EVM_WORD_OPS_H

#include "evm_word.h"

static inline evm_word word_from_u64(uint64_t v)
{
    evm_word w = {{v, 0, 0, 0}};
    return w;
}

static inline int word_is_zero(const evm_word *w)
{
    return (w->limb[0] | w->limb[1] | w->limb[2] | w->limb[3]) == 0;
}

/* True when w < limit (limit a uint64); the value is then w->limb[0]. */
static inline int word_below(const evm_word *w, uint64_t limit)
{
    return (w->limb[1] | w->limb[2] | w->limb[3]) == 0 && w->limb[0] < limit;
}

/* Bits up to the highest set one (0 for 0). __builtin_clzll(0) is undefined, so zero
 * limbs are skipped, never counted. */
static inline unsigned word_bit_length(const evm_word *w)
{
    for (int i = 3; i >= 0; i--)
        if (w->limb[i])
            return 64 * (unsigned)i + 64 - (unsigned)__builtin_clzll(w->limb[i]);
    return 0;
}

static inline int word_less(const evm_word *a, const evm_word *b)
{
    for (int i = 3; i >= 0; i--)
        if (a->limb[i] != b->limb[i])
            return a->limb[i] < b->limb[i];
    return 0;
}

static inline int word_negative(const evm_word *w)
{
    return (int)(w->limb[3] >> 63);
}

static inline int word_signed_less(const evm_word *a, const evm_word *b)
{
    if (word_negative(a) != word_negative(b))
        return word_negative(a);
    return word_less(a, b);
}

static inline evm_word word_add(const evm_word *a, const evm_word *b)
{
    evm_word r;
    unsigned __int128 carry = 0;
    for (int i = 0; i < 4; i++) {
        carry += (unsigned __int128)a->limb[i] + b->limb[i];
        r.limb[i] = (uint64_t)carry;
        carry >>= 64;
    }
    return r;
}

static inline evm_word word_sub(const evm_word *a, const evm_word *b)
{
    evm_word r;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; i++) {
        unsigned __int128 d = (unsigned __int128)a->limb[i] - b->limb[i] - borrow;
        r.limb[i] = (uint64_t)d;
        borrow = (uint64_t)(d >> 64) & 1;
    }
    return r;
}

static inline evm_word word_mul(const evm_word *a, const evm_word *b)
{
    evm_word r = {{0, 0, 0, 0}};
    for (int i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (int j = 0; i + j < 4; j++) {
            unsigned __int128 t = (unsigned __int128)a->limb[i] * b->limb[j] + r.limb[i + j] + carry;
            r.limb[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    return r;
}

static inline evm_word word_shift_left(const evm_word *w, unsigned shift)
{
    evm_word r = {{0, 0, 0, 0}};
    unsigned limbs = shift / 64, bits = shift % 64;
    for (int i = 3; i >= (int)limbs; i--) {
        r.limb[i] = w->limb[i - limbs] << bits;
        if (bits && i - (int)limbs - 1 >= 0)
            r.limb[i] |= w->limb[i - limbs - 1] >> (64 - bits);
    }
    return r;
}

/* Shift right by shift < 256, filling with `fill` (0 or all ones) from the top. */
static inline evm_word word_shift_right(const evm_word *w, unsigned shift, uint64_t fill)
{
    evm_word r;
    unsigned limbs = shift / 64, bits = shift % 64;
    for (unsigned i = 0; i < 4; i++) {
        uint64_t lo = i + limbs < 4 ? w->limb[i + limbs] : fill;
        uint64_t hi = i + limbs + 1 < 4 ? w->limb[i + limbs + 1] : fill;
        r.limb[i] = bits ? (lo >> bits) | (hi << (64 - bits)) : lo;
    }
    return r;
}

#endif
