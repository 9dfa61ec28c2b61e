#include "evm_fast.h"

#include <stdlib.h>
#include <string.h>

#include "evm_fast_gas.h"
#include "fp2_product.h"
#include "fp2_square.h"
#include "fp4_square.h"
#include "evm_word_ops.h"
#include "keccak256.h"
#include "mont384.h"
#include "mont384_mulx.h"

#if defined(__SANITIZE_ADDRESS__)
#define MULMONT384_MULX_IN_LOOP mulmont384_mulx
#else
#define MULMONT384_MULX_IN_LOOP mulmont384_mulx_inline
#endif

#define KECCAK256_WORD_GAS 6
#define EXP_BYTE_GAS 50
/* Operands at or past 2^42 bytes are out of gas before any arithmetic on them
 * could overflow; memory itself stops at MAX_MEMORY_BYTES (as the Python engine:
 * beyond 4 GiB would cost over 3.6e13 gas, so it is out of gas, never allocated). */
#define PAYABLE_MEMORY_LIMIT ((uint64_t)1 << 42)
#define MAX_MEMORY_BYTES ((uint64_t)1 << 32)

enum opcode {
    OP_STOP = 0x00, OP_ADD = 0x01, OP_MUL = 0x02, OP_SUB = 0x03, OP_DIV = 0x04, OP_SDIV = 0x05,
    OP_MOD = 0x06, OP_SMOD = 0x07, OP_ADDMOD = 0x08, OP_MULMOD = 0x09, OP_EXP = 0x0a,
    OP_SIGNEXTEND = 0x0b,
    OP_LT = 0x10, OP_GT = 0x11, OP_SLT = 0x12, OP_SGT = 0x13, OP_EQ = 0x14, OP_ISZERO = 0x15,
    OP_AND = 0x16, OP_OR = 0x17, OP_XOR = 0x18, OP_NOT = 0x19, OP_BYTE = 0x1a,
    OP_SHL = 0x1b, OP_SHR = 0x1c, OP_SAR = 0x1d, OP_CLZ = 0x1e, OP_KECCAK256 = 0x20,
    OP_CALLDATALOAD = 0x35, OP_CALLDATASIZE = 0x36, OP_CALLDATACOPY = 0x37,
    OP_CODESIZE = 0x38, OP_CODECOPY = 0x39, OP_RETURNDATASIZE = 0x3d, OP_RETURNDATACOPY = 0x3e,
    OP_POP = 0x50, OP_MLOAD = 0x51, OP_MSTORE = 0x52, OP_MSTORE8 = 0x53,
    OP_JUMP = 0x56, OP_JUMPI = 0x57, OP_PC = 0x58, OP_MSIZE = 0x59, OP_GAS = 0x5a,
    OP_JUMPDEST = 0x5b, OP_MCOPY = 0x5e, OP_PUSH0 = 0x5f, OP_PUSH1 = 0x60, OP_PUSH2 = 0x61, OP_PUSH32 = 0x7f,
    OP_DUP1 = 0x80, OP_DUP16 = 0x8f, OP_SWAP1 = 0x90, OP_SWAP16 = 0x9f,
    OP_ADDMOD384 = 0xc0, OP_SUBMOD384 = 0xc1, OP_MULMODMONT384 = 0xc2,
    OP_RETURN = 0xf3, OP_REVERT = 0xfd,
};

int evm_fast_implements(int opcode)
{
    switch (opcode) {
    case OP_STOP: case OP_ADD: case OP_MUL: case OP_SUB: case OP_SIGNEXTEND:
    case OP_DIV: case OP_SDIV: case OP_MOD: case OP_SMOD: case OP_ADDMOD: case OP_MULMOD:
    case OP_EXP: case OP_KECCAK256:
    case OP_LT: case OP_GT: case OP_SLT: case OP_SGT: case OP_EQ: case OP_ISZERO:
    case OP_AND: case OP_OR: case OP_XOR: case OP_NOT: case OP_BYTE:
    case OP_SHL: case OP_SHR: case OP_SAR: case OP_CLZ: /* CLZ: Osaka's tables only */
    case OP_CALLDATALOAD: case OP_CALLDATASIZE: case OP_CALLDATACOPY:
    case OP_CODESIZE: case OP_CODECOPY: case OP_RETURNDATASIZE: case OP_RETURNDATACOPY:
    case OP_POP: case OP_MLOAD: case OP_MSTORE: case OP_MSTORE8:
    case OP_JUMP: case OP_JUMPI: case OP_PC: case OP_MSIZE: case OP_GAS:
    case OP_JUMPDEST: case OP_MCOPY:
    case OP_ADDMOD384: case OP_SUBMOD384: case OP_MULMODMONT384:
    case OP_RETURN: case OP_REVERT:
        return 1;
    default:
        return (opcode >= OP_PUSH0 && opcode <= OP_PUSH32) ||
               (opcode >= OP_DUP1 && opcode <= OP_SWAP16);
    }
}

/* --- 256-bit words in code and memory --------------------------------------------- */

static evm_word word_load_be(const uint8_t *p)
{
    evm_word w = {{load_be64(p + 24), load_be64(p + 16), load_be64(p + 8), load_be64(p)}};
    return w;
}

static void word_store_be(uint8_t *p, const evm_word *w)
{
    for (int i = 0; i < 4; i++)
        store_be64(p + 8 * (3 - i), w->limb[i]);
}

/* The value of n big-endian bytes (n <= 32), read in place: going through a
 * byte buffer would stall on store forwarding in the hottest path. */
static evm_word word_from_be_bytes(const uint8_t *p, size_t n)
{
    evm_word w = {{0, 0, 0, 0}};
    size_t low = 0; /* bytes taken from the end so far */
    for (; n - low >= 8; low += 8)
        w.limb[low / 8] = load_be64(p + n - low - 8);
    uint64_t high = 0;
    for (size_t j = 0; j < n - low; j++)
        high = (high << 8) | p[j];
    if (low < 32)
        w.limb[low / 8] = high;
    return w;
}

/* Big-endian bytes src[offset, offset + 32) with zeros past src_size. */
static evm_word word_load_padded(const uint8_t *src, size_t src_size, const evm_word *offset)
{
    uint8_t buf[WORD_BYTES] = {0};
    if (word_below(offset, src_size)) {
        size_t start = (size_t)offset->limb[0];
        size_t n = src_size - start < WORD_BYTES ? src_size - start : WORD_BYTES;
        memcpy(buf, src + start, n);
    }
    return word_load_be(buf);
}

/* --- gas and memory ------------------------------------------------------------ */

/* Gas to grow memory to cover [0, end) in whole words, for end past its size. The
 * opcode set's extra bytes (EVMMAX's registers) count as if they followed memory. */
static uint64_t growth_cost(const evm_frame *f, uint64_t end)
{
    uint64_t extra = f->extra_memory_bytes;
    return memory_cost(words(words(end) * WORD_BYTES + extra)) -
           memory_cost(words(f->memory_size + extra));
}

int evm_frame_grow_memory(evm_frame *f, size_t size)
{
    if (size <= f->memory_size)
        return 0;
    if (size > f->memory_capacity) {
        size_t capacity = f->memory_capacity ? 2 * f->memory_capacity : 4096;
        while (capacity < size)
            capacity *= 2;
        uint8_t *grown = realloc(f->memory, capacity);
        if (grown == NULL)
            return EVM_OUT_OF_MEMORY;
        f->memory = grown;
        f->memory_capacity = capacity;
    }
    memset(f->memory + f->memory_size, 0, size - f->memory_size);
    f->memory_size = size;
    return 0;
}

/* Charge for and grow memory to cover [0, end), in whole words. */
static int expand_to(evm_frame *f, uint64_t end)
{
    if (end <= f->memory_size)
        return -1;
    if (end > MAX_MEMORY_BYTES)
        return EVM_OUT_OF_GAS;
    int status = charge(f, growth_cost(f, end));
    if (status >= 0)
        return status;
    status = evm_frame_grow_memory(f, words(end) * WORD_BYTES);
    return status ? status : -1;
}

int evm_fast_expand_to(evm_frame *f, uint64_t end)
{
    return expand_to(f, end);
}

/* A memory access of `size` bytes at `offset` (stack words): checks, charges and
 * expands; *start receives the offset. An empty access touches nothing. */
static int access_memory(evm_frame *f, const evm_word *offset, const evm_word *size,
                         uint64_t *start)
{
    *start = 0;
    if (word_is_zero(size))
        return -1;
    if (!word_below(offset, PAYABLE_MEMORY_LIMIT) || !word_below(size, PAYABLE_MEMORY_LIMIT))
        return EVM_OUT_OF_GAS;
    *start = offset->limb[0];
    return expand_to(f, offset->limb[0] + size->limb[0]);
}

static int charge_copy(evm_frame *f, const evm_word *size)
{
    if (!word_below(size, PAYABLE_MEMORY_LIMIT))
        return EVM_OUT_OF_GAS;
    return charge(f, COPY_WORD_GAS * ((size->limb[0] + WORD_BYTES - 1) / WORD_BYTES));
}

/* memory[dst, dst + n) = src[offset, offset + n) with zeros past src_size. */
static void copy_padded(uint8_t *dst, uint64_t n, const uint8_t *src, size_t src_size,
                        const evm_word *offset)
{
    uint64_t copied = 0;
    if (word_below(offset, src_size)) {
        uint64_t available = src_size - offset->limb[0];
        copied = available < n ? available : n;
        memcpy(dst, src + offset->limb[0], copied);
    }
    memset(dst + copied, 0, n - copied);
}

/* --- EVM384 ---------------------------------------------------------------------- */

/* Inlined at each use (always_inline), so a constant `mulmont` becomes a direct call
 * and the add/sub kernels sit in the caller's loop: an out-of-line call here cost a
 * fifth of the engine's time in the pairing check (argument spills, a 7th argument
 * on the stack, the call itself). */
static inline __attribute__((always_inline)) void
apply_evm384(uint8_t *m, mulmont384_fn *mulmont, int opcode, uint64_t out, uint64_t x,
             uint64_t y, uint64_t mod)
{
    if (opcode == OP_ADDMOD384)
        addmod384(m + out, m + x, m + y, m + mod);
    else if (opcode == OP_SUBMOD384)
        submod384(m + out, m + x, m + y, m + mod);
    else if (opcode == OP_MCOPY)
        memmove(m + out, m + x, (size_t)y);
    else
        mulmont(m + out, m + x, m + y, m + mod);
}

/* The Fp2 product whose six records start at r (fp2_product.h; memory covers every
 * operand): 1 if it ran as Karatsuba, 0 if nothing was written. */
static inline __attribute__((always_inline)) int
run_fp2_product(uint8_t *m, mulmont384_fn *mulmont, const uint32_t *r)
{
    return fp2_product_of_records(uses_mulx(mulmont), m, r, EVM_SEGMENT_RECORD_FIELDS, 2);
}

/* A segment's records (its memory already covers every operand). */
static inline __attribute__((always_inline)) void
run_records(uint8_t *m, mulmont384_fn *mulmont, const uint32_t *r, uint32_t count)
{
    for (const uint32_t *end = r + (size_t)count * EVM_SEGMENT_RECORD_FIELDS; r != end;
         r += EVM_SEGMENT_RECORD_FIELDS) {
        int opcode = (int)r[1];
        if (opcode == (OP_MULMODMONT384 | EVM_FP2_PRODUCT_GROUP)) {
            if (run_fp2_product(m, mulmont, r)) {
                r += 5 * EVM_SEGMENT_RECORD_FIELDS; /* the group's other records */
                continue;
            }
            opcode = OP_MULMODMONT384; /* its guards failed: op by op */
        } else if (opcode == (OP_ADDMOD384 | EVM_FP4_SQUARE_GROUP)) {
            if (fp4_square_of_records(uses_mulx(mulmont), m, r, EVM_SEGMENT_RECORD_FIELDS, 2)) {
                r += (EVM384_FP4_SQUARE_RECORDS - 1) * EVM_SEGMENT_RECORD_FIELDS;
                continue;
            }
            opcode = OP_ADDMOD384;
        } else if (opcode == (OP_ADDMOD384 | EVM_FP2_SQUARE_GROUP)) {
            if (fp2_square_of_records(mulmont, m, r, EVM_SEGMENT_RECORD_FIELDS, 2)) {
                r += (EVM384_FP2_SQUARE_RECORDS - 1) * EVM_SEGMENT_RECORD_FIELDS;
                continue;
            }
            opcode = OP_ADDMOD384;
        }
        apply_evm384(m, mulmont, opcode, r[2], r[3], r[4], r[5]);
    }
}

int evm_fast_fp2_product(uint8_t *memory, const uint32_t *records)
{
    return run_fp2_product(memory, selected_mulmont(), records);
}

enum { SEGMENT_RAN = -1, SEGMENT_DECLINED = -2 };

/* Whether the stack lets the segment run whole: room for its PUSHes, and for a return
 * a valid destination on top. */
static int stack_allows(const evm_frame *f, const evm_segment *s)
{
    if (f->stack_size + s->stack_room > EVM_STACK_LIMIT)
        return 0;
    if (s->exit != EVM_SEGMENT_RETURN)
        return 1;
    if (f->stack_size == 0)
        return 0;
    const evm_word *dest = &f->stack[f->stack_size - 1];
    return word_below(dest, f->code_size) && f->jumpdest[dest->limb[0]];
}

/* The whole segment, if the frame can pay for all of it: SEGMENT_RAN; else
 * SEGMENT_DECLINED (the caller goes instruction by instruction, halting where a
 * step-by-step EVM would), or EVM_OUT_OF_MEMORY. */
static int run_segment(evm_frame *f, mulmont384_fn *mulmont, const evm_segment *s)
{
    if (!stack_allows(f, s) || s->gas > (uint64_t)f->gas)
        return SEGMENT_DECLINED;
    if (s->memory_end > f->memory_size) {
        if (s->memory_end > MAX_MEMORY_BYTES)
            return SEGMENT_DECLINED;
        if (s->gas + growth_cost(f, s->memory_end) > (uint64_t)f->gas)
            return SEGMENT_DECLINED;
    }
    int status = expand_to(f, s->memory_end); /* charges the growth */
    if (status >= 0)
        return status;
    f->gas -= (int64_t)s->gas;
    for (uint32_t i = 0; i < s->tally_size; i++)
        f->counts[s->tally[2 * i] & 0xff] += s->tally[2 * i + 1];
#if defined(__x86_64__)
    if (mulmont == mulmont384_mulx) /* the usual choice, inlined (as a call under ASan,
                                     * whose frame leaves the kernel too few registers) */
        run_records(f->memory, MULMONT384_MULX_IN_LOOP, s->records, s->count);
    else
#endif
        run_records(f->memory, mulmont, s->records, s->count);
    switch (s->exit) {
    case EVM_SEGMENT_RETURN:
        f->pc = (size_t)f->stack[--f->stack_size].limb[0];
        break;
    case EVM_SEGMENT_CALL:
        f->stack[f->stack_size++] = word_from_u64(s->pushed);
        /* fall through */
    case EVM_SEGMENT_JUMP:
        f->pc = s->jump_pc;
        break;
    default:
        f->pc = s->next_pc;
    }
    return SEGMENT_RAN;
}

/* lo and hi are bits 0..63 and 64..127 of the packed offsets word. */
static int run_evm384(evm_frame *f, mulmont384_fn *mulmont, int opcode, uint64_t lo, uint64_t hi)
{
    const struct packed_operands p =
        unpack_operands(lo, hi, BYTES384, opcode == OP_MULMODMONT384 ? 56 : 48);
    int status = expand_to(f, p.end);
    if (status >= 0)
        return status;
    apply_evm384(f->memory, mulmont, opcode, p.out, p.x, p.y, p.mod); /* memory covers them */
    return -1;
}

/* --- the loop ---------------------------------------------------------------------- */

/* The loop keeps pc, gas and the stack's size in locals (each store to the stack could
 * alias them in the frame, which made every instruction reload and store all three): the
 * frame has them again (SYNC) before any call that reads or writes them and at every
 * exit, and they are read back (LOAD) after such a call. */
#define SYNC() (f->pc = pc, f->gas = gas, f->stack_size = sp)
#define LOAD() (pc = f->pc, gas = f->gas, sp = f->stack_size)
#define EXIT(status)                   \
    do {                               \
        SYNC();                        \
        return (status);               \
    } while (0)
#define TOP(i) (stack[sp - 1 - (i)])
/* A helper that takes the frame (charges, grows memory): its halt, or go on. */
#define CHECKED(call)                  \
    do {                               \
        SYNC();                        \
        int status_ = (call);          \
        LOAD();                        \
        if (status_ >= 0)              \
            return status_;            \
    } while (0)

/* The instruction at pc, counted and charged, goes to the host after all: undo both,
 * as for any instruction left to the host. */
static int leave_to_host(evm_frame *f, size_t pc, int op, uint64_t static_gas)
{
    f->pc = pc;
    f->counts[op]--;
    f->gas += (int64_t)static_gas;
    return EVM_NEEDS_HOST;
}

/* The static gas of `count` instructions, 0 if one of them is not this engine's own plain
 * instruction (a fused sequence then declines). */
static inline uint64_t plain_gas(const evm_opcode_table *table, const uint8_t *ops,
                                 size_t count)
{
    uint64_t cost = 0;
    for (size_t i = 0; i < count; i++) {
        const evm_opcode_info info = table->op[ops[i]];
        if (!info.native || info.extended)
            return 0;
        cost += info.static_gas;
    }
    return cost;
}

/* PUSH2 a; MLOAD; ISZERO; PUSH2 dest; JUMPI (a test of a memory word, the jump taken when
 * it is 0: how the contracts test a value that LOADX wrote, ~100 times in ecrecover),
 * after the first PUSH2 was counted and charged with pc at its data: the other four
 * instructions in one step when none of them can halt or grow memory (the gas for all
 * four, room for the stack's two words, the word inside memory, a valid dest if taken),
 * and the JUMPDEST it lands on, if there is one and its gas.
 * Returns 1 with *pc past them (or at dest), or 0 if it ran nothing (the loop then goes
 * on one by one, halting where a step-by-step run would). */
static inline int fused_word_test(evm_frame *f, size_t *pc_at, size_t sp, int64_t *gas)
{
    size_t pc = *pc_at;
    static const uint8_t ops[] = {OP_MLOAD, OP_ISZERO, OP_PUSH2, OP_JUMPI};
    const uint8_t *code = f->code;
    if (f->code_size - pc < 8 || code[pc + 2] != OP_MLOAD || code[pc + 3] != OP_ISZERO ||
        code[pc + 4] != OP_PUSH2 || code[pc + 7] != OP_JUMPI || sp + 2 > EVM_STACK_LIMIT)
        return 0;
    uint64_t cost = plain_gas(f->table, ops, sizeof ops);
    size_t offset = ((size_t)code[pc] << 8) | code[pc + 1];
    size_t dest = ((size_t)code[pc + 5] << 8) | code[pc + 6];
    if (cost == 0 || cost > (uint64_t)*gas || f->memory_size < WORD_BYTES ||
        offset > f->memory_size - WORD_BYTES)
        return 0;
    evm_word value = word_load_be(f->memory + offset);
    int zero = word_is_zero(&value);
    if (zero && (dest >= f->code_size || !f->jumpdest[dest]))
        return 0;
    for (size_t i = 0; i < sizeof ops; i++)
        f->counts[ops[i]]++;
    *gas -= (int64_t)cost;
    size_t next = zero ? dest : pc + 8;
    /* the JUMPDEST where either branch lands (the jump's dest, the label after the test) */
    static const uint8_t landing[] = {OP_JUMPDEST};
    uint64_t landing_gas = plain_gas(f->table, landing, 1);
    if (next < f->code_size && code[next] == OP_JUMPDEST && landing_gas != 0 &&
        landing_gas <= (uint64_t)*gas) {
        f->counts[OP_JUMPDEST]++;
        *gas -= (int64_t)landing_gas;
        next++;
    }
    *pc_at = next;
    return 1;
}

/* After DUPn (counted, charged, run; pc past it, its copy w on top, sp items): PUSH1 k;
 * SHR; PUSH2 m; AND, and maybe PUSH2 t; ADD after them (a table record's address from a
 * digit of w: how the contracts look up their windows' records, ~100 times in ecrecover)
 * in one step when none of them can halt (the gas for all, room for the stack's one more
 * word): top = ((w >> k) & m) + t. Returns 1 with *pc past them, or 0 if it ran nothing. */
static inline int fused_digit_address(evm_frame *f, size_t *pc_at, size_t sp, int64_t *gas,
                                      evm_word *top)
{
    static const uint8_t ops[] = {OP_PUSH1, OP_SHR, OP_PUSH2, OP_AND, OP_PUSH2, OP_ADD};
    size_t pc = *pc_at;
    const uint8_t *code = f->code;
    if (f->code_size - pc < 7 || code[pc] != OP_PUSH1 || code[pc + 2] != OP_SHR ||
        code[pc + 3] != OP_PUSH2 || code[pc + 6] != OP_AND || sp + 1 > EVM_STACK_LIMIT)
        return 0;
    int added = f->code_size - pc >= 11 && code[pc + 7] == OP_PUSH2 && code[pc + 10] == OP_ADD;
    size_t count = added ? 6 : 4;
    uint64_t cost = plain_gas(f->table, ops, count);
    if (cost == 0 || cost > (uint64_t)*gas)
        return 0;
    unsigned k = code[pc + 1];
    uint64_t mask = ((uint64_t)code[pc + 4] << 8) | code[pc + 5];
    uint64_t low = top->limb[k / 64] >> (k % 64); /* the bits of w from k up, below m's 16 */
    if (k % 64 > 48 && k / 64 < 3)
        low |= top->limb[k / 64 + 1] << (64 - k % 64);
    uint64_t value = low & mask;
    if (added)
        value += ((uint64_t)code[pc + 8] << 8) | code[pc + 9];
    *top = word_from_u64(value);
    for (size_t i = 0; i < count; i++)
        f->counts[ops[i]]++;
    *gas -= (int64_t)cost;
    *pc_at = pc + (added ? 11 : 7);
    return 1;
}

int evm_fast_run(evm_frame *f)
{
    const evm_opcode_table *table = f->table;
    mulmont384_fn *const mulmont = selected_mulmont();
    const int32_t *const segment_at = f->segment_at;
    const uint8_t *const code = f->code, *const jumpdest = f->jumpdest;
    const size_t code_size = f->code_size;
    evm_word *const stack = f->stack;
    size_t pc, sp;
    int64_t gas;
    LOAD();
    for (;;) {
        if (pc >= code_size) {
            f->counts[OP_STOP]++; /* running off the end is STOP */
            EXIT(EVM_STOP);
        }
        /* code without entries (EVMMAX's, plain EVM's) reads no array by pc: a cold
         * call would miss on one more cache line every 16 bytes of code it runs */
        int32_t segment = segment_at != NULL ? segment_at[pc] : -1;
        if (segment >= 0) {
            SYNC();
            int status = run_segment(f, mulmont, &f->segments[segment]);
            LOAD();
            if (status == SEGMENT_RAN)
                continue;
            if (status != SEGMENT_DECLINED)
                return status;
        }
        int op = code[pc];
        const evm_opcode_info info = table->op[op];
        if (!info.native)
            EXIT(EVM_NEEDS_HOST);
        f->counts[op]++; /* a halting instruction counts as executed */
        if (sp < info.stack_inputs)
            EXIT(EVM_STACK_UNDERFLOW);
        if (sp - info.stack_inputs + info.stack_outputs > EVM_STACK_LIMIT)
            EXIT(EVM_STACK_OVERFLOW);
        if (info.static_gas > (uint64_t)gas) /* charge()'s test, on the local */
            EXIT(EVM_OUT_OF_GAS);
        gas -= (int64_t)info.static_gas;
        size_t here = pc++;
        if (info.extended) {
            SYNC();
            int status = table->extension(f, op);
            if (status == EVM_NEEDS_HOST)
                return leave_to_host(f, here, op, info.static_gas);
            LOAD();
            if (status >= 0)
                return status;
            continue;
        }

        if (op >= OP_PUSH0 && op <= OP_PUSH32) {
            size_t n = (size_t)(op - OP_PUSH0);
            if (op == OP_PUSH2 && fused_word_test(f, &pc, sp, &gas))
                continue;
            if (code_size - pc >= n) {
                stack[sp++] = word_from_be_bytes(code + pc, n);
                pc += n;
            } else { /* data cut off by the end of the code reads as zero bytes */
                uint8_t buf[WORD_BYTES] = {0};
                memcpy(buf + WORD_BYTES - n, code + pc, code_size - pc);
                stack[sp++] = word_load_be(buf);
                pc = code_size;
            }
            continue;
        }
        if (op >= OP_DUP1 && op <= OP_DUP16) {
            stack[sp] = TOP(op - OP_DUP1);
            sp++;
            fused_digit_address(f, &pc, sp, &gas, &TOP(0));
            continue;
        }
        if (op >= OP_SWAP1 && op <= OP_SWAP16) {
            evm_word t = TOP(0);
            TOP(0) = TOP(op - OP_SWAP1 + 1);
            TOP(op - OP_SWAP1 + 1) = t;
            continue;
        }

        evm_word a, b, c;
        uint64_t start;
        switch (op) {
        case OP_STOP:
            EXIT(EVM_STOP);
        case OP_JUMPDEST:
            break;
        case OP_ADD:
            TOP(1) = word_add(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_MUL:
            TOP(1) = word_mul(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_SUB:
            TOP(1) = word_sub(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_DIV: case OP_MOD:
            evm_word_divmod(&TOP(0), &TOP(1), &a, &b);
            TOP(1) = op == OP_DIV ? a : b;
            sp--;
            break;
        case OP_SDIV:
            TOP(1) = evm_word_sdiv(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_SMOD:
            TOP(1) = evm_word_smod(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_ADDMOD:
            TOP(2) = evm_word_addmod(&TOP(0), &TOP(1), &TOP(2));
            sp -= 2;
            break;
        case OP_MULMOD:
            TOP(2) = evm_word_mulmod(&TOP(0), &TOP(1), &TOP(2));
            sp -= 2;
            break;
        case OP_EXP: /* base, exponent */
            CHECKED(charge(f, EXP_BYTE_GAS * (uint64_t)evm_word_byte_length(&TOP(1))));
            TOP(1) = evm_word_exp(&TOP(0), &TOP(1));
            sp--;
            break;
        case OP_KECCAK256: {
            a = TOP(0), b = TOP(1); /* offset, size */
            sp--;
            if (!word_below(&b, PAYABLE_MEMORY_LIMIT))
                EXIT(EVM_OUT_OF_GAS);
            CHECKED(charge(f, KECCAK256_WORD_GAS * ((b.limb[0] + WORD_BYTES - 1) / WORD_BYTES)));
            CHECKED(access_memory(f, &a, &b, &start));
            uint8_t digest[WORD_BYTES];
            evm_keccak256(word_is_zero(&b) ? digest : f->memory + start, b.limb[0], digest);
            TOP(0) = word_load_be(digest);
            break;
        }
        case OP_SIGNEXTEND:
            if (word_below(&TOP(0), 31)) {
                unsigned sign_bit = 8 * (unsigned)TOP(0).limb[0] + 7;
                evm_word *x = &TOP(1);
                uint64_t fill = (x->limb[sign_bit / 64] >> (sign_bit % 64)) & 1 ? ~(uint64_t)0 : 0;
                for (unsigned i = 0; i < 4; i++) {
                    if (64 * i > sign_bit)
                        x->limb[i] = fill;
                    else if (64 * i + 63 > sign_bit) {
                        uint64_t keep = ((uint64_t)2 << (sign_bit % 64)) - 1;
                        x->limb[i] = (x->limb[i] & keep) | (fill & ~keep);
                    }
                }
            }
            sp--;
            break;
        case OP_LT:
            TOP(1) = word_from_u64(word_less(&TOP(0), &TOP(1)));
            sp--;
            break;
        case OP_GT:
            TOP(1) = word_from_u64(word_less(&TOP(1), &TOP(0)));
            sp--;
            break;
        case OP_SLT:
            TOP(1) = word_from_u64(word_signed_less(&TOP(0), &TOP(1)));
            sp--;
            break;
        case OP_SGT:
            TOP(1) = word_from_u64(word_signed_less(&TOP(1), &TOP(0)));
            sp--;
            break;
        case OP_EQ:
            TOP(1) = word_from_u64(memcmp(&TOP(0), &TOP(1), sizeof(evm_word)) == 0);
            sp--;
            break;
        case OP_ISZERO:
            TOP(0) = word_from_u64(word_is_zero(&TOP(0)));
            break;
        case OP_AND: case OP_OR: case OP_XOR:
            for (int i = 0; i < 4; i++) {
                uint64_t x = TOP(0).limb[i], y = TOP(1).limb[i];
                TOP(1).limb[i] = op == OP_AND ? x & y : op == OP_OR ? x | y : x ^ y;
            }
            sp--;
            break;
        case OP_NOT:
            for (int i = 0; i < 4; i++)
                TOP(0).limb[i] = ~TOP(0).limb[i];
            break;
        case OP_BYTE:
            if (word_below(&TOP(0), 32)) {
                unsigned index = 31 - (unsigned)TOP(0).limb[0]; /* from the little end */
                TOP(1) = word_from_u64((TOP(1).limb[index / 8] >> (8 * (index % 8))) & 0xff);
            } else {
                TOP(1) = word_from_u64(0);
            }
            sp--;
            break;
        case OP_SHL:
            TOP(1) = word_below(&TOP(0), 256) ? word_shift_left(&TOP(1), (unsigned)TOP(0).limb[0])
                                              : word_from_u64(0);
            sp--;
            break;
        case OP_SHR: case OP_SAR: {
            uint64_t fill = op == OP_SAR && word_negative(&TOP(1)) ? ~(uint64_t)0 : 0;
            if (word_below(&TOP(0), 256)) {
                TOP(1) = word_shift_right(&TOP(1), (unsigned)TOP(0).limb[0], fill);
            } else {
                evm_word filled = {{fill, fill, fill, fill}};
                TOP(1) = filled;
            }
            sp--;
            break;
        }
        case OP_CLZ: /* EIP-7939: 256 for 0 */
            TOP(0) = word_from_u64(256 - word_bit_length(&TOP(0)));
            break;
        case OP_CALLDATALOAD:
            TOP(0) = word_load_padded(f->calldata, f->calldata_size, &TOP(0));
            break;
        case OP_CALLDATASIZE:
            stack[sp++] = word_from_u64(f->calldata_size);
            break;
        case OP_CODESIZE:
            stack[sp++] = word_from_u64(f->code_size);
            break;
        case OP_RETURNDATASIZE: /* no calls, so never any return data */
            stack[sp++] = word_from_u64(0);
            break;
        case OP_CALLDATACOPY: case OP_CODECOPY:
            a = TOP(0), b = TOP(1), c = TOP(2); /* memory offset, source offset, size */
            sp -= 3;
            CHECKED(charge_copy(f, &c));
            CHECKED(access_memory(f, &a, &c, &start));
            if (!word_is_zero(&c)) {
                if (op == OP_CALLDATACOPY)
                    copy_padded(f->memory + start, c.limb[0], f->calldata, f->calldata_size, &b);
                else
                    copy_padded(f->memory + start, c.limb[0], code, code_size, &b);
            }
            break;
        case OP_RETURNDATACOPY:
            a = TOP(0), b = TOP(1), c = TOP(2); /* memory offset, data offset, size */
            sp -= 3;
            CHECKED(charge_copy(f, &c));
            CHECKED(access_memory(f, &a, &c, &start));
            if (!word_is_zero(&b) || !word_is_zero(&c)) /* EIP-211: past the empty buffer */
                EXIT(EVM_RETURNDATA_OUT_OF_BOUNDS);
            break;
        case OP_MCOPY: {
            a = TOP(0), b = TOP(1), c = TOP(2); /* destination, source, size */
            sp -= 3;
            uint64_t source;
            CHECKED(charge_copy(f, &c));
            CHECKED(access_memory(f, &b, &c, &source));
            CHECKED(access_memory(f, &a, &c, &start));
            if (!word_is_zero(&c))
                memmove(f->memory + start, f->memory + source, c.limb[0]);
            break;
        }
        case OP_POP:
            sp--;
            break;
        case OP_MLOAD: {
            evm_word size = word_from_u64(WORD_BYTES);
            CHECKED(access_memory(f, &TOP(0), &size, &start));
            TOP(0) = word_load_be(f->memory + start);
            break;
        }
        case OP_MSTORE: case OP_MSTORE8: {
            evm_word size = word_from_u64(op == OP_MSTORE ? WORD_BYTES : 1);
            a = TOP(0), b = TOP(1);
            sp -= 2;
            CHECKED(access_memory(f, &a, &size, &start));
            if (op == OP_MSTORE)
                word_store_be(f->memory + start, &b);
            else
                f->memory[start] = (uint8_t)b.limb[0];
            break;
        }
        case OP_JUMP: case OP_JUMPI:
            a = TOP(0);
            b = op == OP_JUMPI ? TOP(1) : word_from_u64(1);
            sp -= op == OP_JUMPI ? 2 : 1;
            if (!word_is_zero(&b)) {
                if (!word_below(&a, code_size) || !jumpdest[a.limb[0]])
                    EXIT(EVM_INVALID_JUMP);
                pc = (size_t)a.limb[0];
            }
            break;
        case OP_PC:
            stack[sp++] = word_from_u64(here);
            break;
        case OP_MSIZE:
            stack[sp++] = word_from_u64(f->memory_size);
            break;
        case OP_GAS:
            stack[sp++] = word_from_u64((uint64_t)gas);
            break;
        case OP_ADDMOD384: case OP_SUBMOD384: case OP_MULMODMONT384:
            a = TOP(0);
            sp--;
            CHECKED(run_evm384(f, mulmont, op, a.limb[0], a.limb[1]));
            break;
        case OP_RETURN: case OP_REVERT:
            a = TOP(0), b = TOP(1);
            sp -= 2;
            CHECKED(access_memory(f, &a, &b, &start));
            f->output_offset = start;
            f->output_size = word_is_zero(&b) ? 0 : b.limb[0];
            EXIT(op == OP_RETURN ? EVM_RETURN : EVM_REVERT);
        default: /* the host marked an opcode native that this engine lacks */
            SYNC();
            return leave_to_host(f, here, op, info.static_gas);
        }
    }
}

int evm_fast_start(evm_frame *f, const uint8_t *calldata, size_t calldata_size, int64_t gas,
                   void *extension)
{
    f->calldata = calldata;
    f->calldata_size = calldata_size;
    f->gas = gas;
    f->extension = extension;
    f->pc = 0;
    f->stack_size = 0;
    f->extra_memory_bytes = 0;
    memset(f->counts, 0, sizeof f->counts);
    int status = evm_fast_run(f);
    if (status != EVM_RETURN && status != EVM_REVERT && status != EVM_NEEDS_HOST)
        evm_frame_release(f); /* nothing of memory is read: the host's call is saved */
    return status;
}

void evm_frame_release(evm_frame *f)
{
    free(f->memory);
    f->memory = NULL;
    f->memory_size = f->memory_capacity = 0;
}
