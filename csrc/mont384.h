/* The three EVM384 field operations, on values as they lie in EVM memory:
 * 48-byte little-endian integers at any alignment (see limbs384.h).
 * Every function reads all inputs before writing `out`, so `out` may overlap
 * `x`, `y` and `mod` in any way. Inputs need not be reduced; the modulus may be even and
 * `inv` arbitrary: results follow the EVM384 "v7" definitions exactly.
 * Working on memory directly (limbs in registers, 8-byte loads and stores)
 * matters: copying through limb arrays cost as much as ADDMOD384 itself. */
#ifndef EVM384_MONT384_H
#define EVM384_MONT384_H

#include "limbs384.h"

/* The bytes at `mod_inv`: the modulus (48) then inv = -mod^-1 mod 2^64 (8). */
#define MODULUS_WITH_INV_BYTES (BYTES384 + MONT_CONSTANT_BYTES)

/* CIOS Montgomery product x*y/2^384 with the final conditional subtraction. */
typedef void mulmont384_fn(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                           const uint8_t y[BYTES384],
                           const uint8_t mod_inv[MODULUS_WITH_INV_BYTES]);

mulmont384_fn mulmont384_portable;
#if defined(__x86_64__)
mulmont384_fn mulmont384_mulx; /* needs BMI2 + ADX: see cpu_features.h */
#endif

/* The implementation chosen by evm384_select_implementation (evm384_ops.c). */
mulmont384_fn *selected_mulmont(void);

#if defined(__x86_64__) && !defined(EVM384_GENERIC_CARRIES)
/* ADDMOD384 and SUBMOD384 in x86-64 baseline assembly: one carry chain each
 * way and a CMOV select, with every limb in a register. The C versions below
 * compile to flag round trips (SETB, masks) and spills that made a dependent
 * chain of additions ~1.6x slower than blst's add_mod_384. The pointer
 * registers of x and y are reused once their limbs are loaded. */
/* a0..a5 = the limbs at the pointer in operand P. */
#define LOAD_A_ASM(P)                                                     \
    "movq 0(%[" P "]), %[a0]\n\t"                                         \
    "movq 8(%[" P "]), %[a1]\n\t"                                         \
    "movq 16(%[" P "]), %[a2]\n\t"                                        \
    "movq 24(%[" P "]), %[a3]\n\t"                                        \
    "movq 32(%[" P "]), %[a4]\n\t"                                        \
    "movq 40(%[" P "]), %[a5]\n\t"

/* a0..a5 op= the limbs at the pointer in operand P, one carry chain: FIRST is
 * addq or subq, NEXT adcq or sbbq. */
#define CHAIN_A_ASM(FIRST, NEXT, P)                                       \
    FIRST " 0(%[" P "]), %[a0]\n\t"                                       \
    NEXT " 8(%[" P "]), %[a1]\n\t"                                        \
    NEXT " 16(%[" P "]), %[a2]\n\t"                                       \
    NEXT " 24(%[" P "]), %[a3]\n\t"                                       \
    NEXT " 32(%[" P "]), %[a4]\n\t"                                       \
    NEXT " 40(%[" P "]), %[a5]\n\t"

static inline void addmod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t a0, a1, a2, a3, a4, a5, d0, d1, d2, d3, top;
    uintptr_t d4 = (uintptr_t)x, d5 = (uintptr_t)y;
    __asm__(LOAD_A_ASM("d4")
            CHAIN_A_ASM("addq", "adcq", "d5")
            "sbbq %[top], %[top]\n\t" /* -carry: the sum's 385th bit */
            "movq %[a0], %[d0]\n\t"
            "subq 0(%[mod]), %[d0]\n\t"
            "movq %[a1], %[d1]\n\t"
            "sbbq 8(%[mod]), %[d1]\n\t"
            "movq %[a2], %[d2]\n\t"
            "sbbq 16(%[mod]), %[d2]\n\t"
            "movq %[a3], %[d3]\n\t"
            "sbbq 24(%[mod]), %[d3]\n\t"
            "movq %[a4], %[d4]\n\t"
            "sbbq 32(%[mod]), %[d4]\n\t"
            "movq %[a5], %[d5]\n\t"
            "sbbq 40(%[mod]), %[d5]\n\t"
            "sbbq $0, %[top]\n\t" /* CF: borrow and no carry, i.e. sum < mod */
            "cmovcq %[a0], %[d0]\n\t"
            "cmovcq %[a1], %[d1]\n\t"
            "cmovcq %[a2], %[d2]\n\t"
            "cmovcq %[a3], %[d3]\n\t"
            "cmovcq %[a4], %[d4]\n\t"
            "cmovcq %[a5], %[d5]\n\t"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
              [a4] "=&r"(a4), [a5] "=&r"(a5), [d0] "=&r"(d0), [d1] "=&r"(d1),
              [d2] "=&r"(d2), [d3] "=&r"(d3), [top] "=&r"(top), [d4] "+&r"(d4), [d5] "+&r"(d5)
            : [mod] "r"(mod)
            : "cc", "memory");
    const limb_t result[LIMBS384] = {d0, d1, d2, d3, d4, d5};
    store_limbs384(out, result);
}

static inline void submod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t a0, a1, a2, a3, a4, a5, m0, m1, m2, m3, mask;
    uintptr_t m4 = (uintptr_t)x, m5 = (uintptr_t)y;
    __asm__(LOAD_A_ASM("m4")
            CHAIN_A_ASM("subq", "sbbq", "m5")
            "sbbq %[mask], %[mask]\n\t" /* all ones when x < y: add mod back */
            "movq 0(%[mod]), %[m0]\n\t"
            "movq 8(%[mod]), %[m1]\n\t"
            "movq 16(%[mod]), %[m2]\n\t"
            "movq 24(%[mod]), %[m3]\n\t"
            "movq 32(%[mod]), %[m4]\n\t"
            "movq 40(%[mod]), %[m5]\n\t"
            "andq %[mask], %[m0]\n\t"
            "andq %[mask], %[m1]\n\t"
            "andq %[mask], %[m2]\n\t"
            "andq %[mask], %[m3]\n\t"
            "andq %[mask], %[m4]\n\t"
            "andq %[mask], %[m5]\n\t"
            "addq %[m0], %[a0]\n\t"
            "adcq %[m1], %[a1]\n\t"
            "adcq %[m2], %[a2]\n\t"
            "adcq %[m3], %[a3]\n\t"
            "adcq %[m4], %[a4]\n\t"
            "adcq %[m5], %[a5]\n\t"
            : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
              [a4] "=&r"(a4), [a5] "=&r"(a5), [m0] "=&r"(m0), [m1] "=&r"(m1),
              [m2] "=&r"(m2), [m3] "=&r"(m3), [mask] "=&r"(mask), [m4] "+&r"(m4), [m5] "+&r"(m5)
            : [mod] "r"(mod)
            : "cc", "memory");
    const limb_t result[LIMBS384] = {a0, a1, a2, a3, a4, a5};
    store_limbs384(out, result);
}
#else
/* The tail of ADDMOD384 (the portable product has its own, in mont_cios.h):
 * a 385-bit accumulator (six limbs plus a top bit) minus mod if it
 * is >= mod, truncated to 384 bits. */
static inline void subtract_mod_if_not_below(uint8_t out[BYTES384], const limb_t acc[LIMBS384],
                                             limb_t acc_top, const uint8_t mod[BYTES384])
{
    limb_t diff[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++)
        diff[i] = sub_with_borrow(acc[i], load_le64(mod + 8 * i), &borrow);
    /* acc >= mod exactly when the 385-bit subtraction does not borrow. */
    limb_t keep_acc = (limb_t)0 - (borrow & ~acc_top & 1);
    for (int i = 0; i < LIMBS384; i++)
        store_le64(out + 8 * i, (acc[i] & keep_acc) | (diff[i] & ~keep_acc));
}

static inline void addmod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t sum[LIMBS384];
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        sum[i] = add_with_carry(load_le64(x + 8 * i), load_le64(y + 8 * i), &carry);
    subtract_mod_if_not_below(out, sum, carry, mod);
}

static inline void submod384(uint8_t out[BYTES384], const uint8_t x[BYTES384],
                             const uint8_t y[BYTES384], const uint8_t mod[BYTES384])
{
    limb_t diff[LIMBS384], m[LIMBS384];
    limb_t borrow = 0;
    for (int i = 0; i < LIMBS384; i++) { /* every input is read before out is written */
        diff[i] = sub_with_borrow(load_le64(x + 8 * i), load_le64(y + 8 * i), &borrow);
        m[i] = load_le64(mod + 8 * i);
    }
    limb_t add_mod = (limb_t)0 - borrow;
    limb_t carry = 0;
    for (int i = 0; i < LIMBS384; i++)
        store_le64(out + 8 * i, add_with_carry(diff[i], m[i] & add_mod, &carry));
}

#endif

#endif
