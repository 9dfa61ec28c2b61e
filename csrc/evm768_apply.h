/* One EVM768 operation on operands already inside memory (internal: the memory
 * adapters of evm768.c and the fast engine's extension, evm_fast_evm768.c, call it). */
#ifndef EVM768_APPLY_H
#define EVM768_APPLY_H

#include <stdint.h>

/* op: an enum evmmax_op (add, sub, mul); mod_inv: the modulus, and for mul inv after it. */
void evm768_apply(int op, uint8_t *out, const uint8_t *x, const uint8_t *y,
                  const uint8_t *mod_inv);

#endif
