/* EVM768 in the fast engine: ADDMOD768, SUBMOD768 and MULMODMONT768 (0xc0..0xc2), run
 * through the opcode table's extension (evm_fast.h) with the memory expansion, gas and
 * halts of the Python engine (evm384_native/evm/evm768.py). They never leave an
 * instruction to the host and keep no state (the frame's extension is NULL). */
#ifndef EVM_FAST_EVM768_H
#define EVM_FAST_EVM768_H

#include "evm_fast.h"

/* The extension (evm_extension_fn) for the opcodes of evm_fast_evm768_implements. */
int evm_fast_evm768_step(evm_frame *f, int opcode);

/* 1 for the opcodes evm_fast_evm768_step runs: 0xc0..0xc2. */
int evm_fast_evm768_implements(int opcode);

#endif
