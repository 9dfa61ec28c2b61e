/* EVM768 in the fast engine; see evm_fast_evm768.h. */
#include "evm_fast_evm768.h"

#include "evm768.h"
#include "evm768_apply.h"
#include "evm_fast_gas.h"
#include "evmmax.h"

enum { OP_ADDMOD768 = 0xc0, OP_SUBMOD768 = 0xc1, OP_MULMODMONT768 = 0xc2 };

int evm_fast_evm768_implements(int opcode)
{
    return opcode >= OP_ADDMOD768 && opcode <= OP_MULMODMONT768;
}

int evm_fast_evm768_step(evm_frame *f, int opcode)
{
    /* the loop checked the stack depth and charged the static gas */
    const evm_word word = f->stack[--f->stack_size];
    const int op = opcode - OP_ADDMOD768; /* enum evmmax_op: add, sub, mul */
    const struct packed_operands p = unpack_operands(
        word.limb[0], word.limb[1], EVM768_BYTES,
        op == EVMMAX_OP_MUL ? EVM768_MODULUS_WITH_INV_BYTES : EVM768_BYTES);
    int status = evm_fast_expand_to(f, p.end);
    if (status >= 0)
        return status;
    evm768_apply(op, f->memory + p.out, f->memory + p.x, f->memory + p.y, f->memory + p.mod);
    return EVM_CONTINUE;
}
