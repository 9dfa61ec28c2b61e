/* EVM768: EVM384's three operations (interface v7) at 768-bit values, wrapped by
 * evm384_native.evm.kernels.kernel (see build_ffi.py). Values in memory are 96-byte
 * little-endian integers (twelve 64-bit limbs); MULMODMONT768 reads the 104 bytes at
 * `mod`: the modulus, then inv = -mod^-1 mod 2^64 (8 bytes LE). The formulas are
 * EVM384's with R = 2^768: inputs need not be below mod, the modulus may be even and
 * inv arbitrary, out may overlap any operand. The arithmetic is EVMMAX's 12-limb
 * kernels (evmmax_kernels.h), whose results are exact for such inputs too. */
#ifndef EVM768_H
#define EVM768_H

#include <stddef.h>
#include <stdint.h>

#include "evm384.h"

#define EVM768_BYTES 96
#define EVM768_LIMBS 12
#define EVM768_MODULUS_WITH_INV_BYTES 104

/* Opcode adapters on EVM memory, as evm384_*_mem: 0 (EVM384_OK) on success, else the
 * enum evm384_status of the first operand (out, x, y, mod) whose range lies outside
 * mem[0..len); memory is then untouched. */
int evm768_addmod768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
int evm768_submod768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                         uint64_t y, uint64_t mod);
int evm768_mulmodmont768_mem(uint8_t *mem, size_t len, uint64_t out, uint64_t x,
                             uint64_t y, uint64_t mod);

#endif
