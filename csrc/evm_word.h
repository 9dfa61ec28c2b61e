/* 256-bit EVM stack words, and the arithmetic on them too large to inline into
 * the interpreter loop: division (unsigned and signed), ADDMOD, MULMOD and EXP,
 * with the EVM's results (x / 0 = x % 0 = 0, modulus 0 gives 0, wrapping mod 2^256).
 * Each takes time bounded by the word size, never by the operands' values. */
#ifndef EVM_WORD_H
#define EVM_WORD_H

#include <stdint.h>

/* 256-bit stack word, least significant limb first. */
typedef struct {
    uint64_t limb[4];
} evm_word;

/* DIV and MOD: *quotient = a / b and *remainder = a % b, both 0 when b is 0. */
void evm_word_divmod(const evm_word *a, const evm_word *b, evm_word *quotient,
                     evm_word *remainder);

/* SDIV and SMOD on two's complement words: the quotient truncates toward zero
 * (-2^255 / -1 wraps to -2^255), the remainder takes the dividend's sign. */
evm_word evm_word_sdiv(const evm_word *a, const evm_word *b);
evm_word evm_word_smod(const evm_word *a, const evm_word *b);

/* ADDMOD and MULMOD: (a + b) % n and (a * b) % n without wrapping first. */
evm_word evm_word_addmod(const evm_word *a, const evm_word *b, const evm_word *n);
evm_word evm_word_mulmod(const evm_word *a, const evm_word *b, const evm_word *n);

/* EXP: base ** exponent mod 2^256. */
evm_word evm_word_exp(const evm_word *base, const evm_word *exponent);

/* Bytes of the exponent's big-endian encoding without leading zeros (EXP's gas). */
unsigned evm_word_byte_length(const evm_word *w);

#endif
