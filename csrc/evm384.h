/* The C API wrapped by evm384_native._native (see build_ffi.py). */
#ifndef EVM384_H
#define EVM384_H

#include <stddef.h>
#include <stdint.h>

/* Which Montgomery multiplication is used. */
enum evm384_implementation {
    EVM384_IMPL_AUTO = 0, /* MULX/ADX when the CPU has them, else portable */
    EVM384_IMPL_PORTABLE = 1,
    EVM384_IMPL_MULX = 2,
};

/* Returns the implementation now in use, or -1 (nothing changed) when the
 * requested one is not available on this CPU/build. */
int evm384_select_implementation(int requested);
int evm384_current_implementation(void);
int evm384_mulx_available(void);

/* Opcode adapters on EVM memory. Offsets are byte offsets into mem[0..len).
 * Return 0 on success, else which operand's range lies outside the buffer;
 * memory is then untouched. */
enum evm384_status {
    EVM384_OK = 0,
    EVM384_RANGE_OUT = 1,
    EVM384_RANGE_X = 2,
    EVM384_RANGE_Y = 3,
    EVM384_RANGE_MOD = 4,
};
int evm384_addmod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
int evm384_submod384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
/* The 56 bytes at `mod` are the modulus then inv (both little-endian). */
int evm384_mulmodmont384_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod);

/* Batches over n rows of six little-endian limbs, one modulus for all. */
void evm384_addmod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_submod384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                            size_t n, const uint64_t *mod);
void evm384_mulmont384_batch(uint64_t *out, const uint64_t *x, const uint64_t *y,
                             size_t n, const uint64_t *mod, uint64_t inv);

#endif
