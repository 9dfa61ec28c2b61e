/* EVMMAX in the fast engine; see evm_fast_evmmax.h. Each instruction checks its
 * asserts in the Python engine's order before it changes anything, then charges
 * and runs: the work of every step is bounded by the gas it charges. */
#include "evm_fast_evmmax.h"

#include <pthread.h>
#include <string.h>

#include "evm_fast_gas.h"
#include "evm_word_ops.h"

enum {
    OP_SETMODX = 0xc0, OP_LOADX = 0xc1, OP_STOREX = 0xc2,
    OP_ADDMODX = 0xc3, OP_SUBMODX = 0xc4, OP_MULMODX = 0xc5,
};
#define VECTOR_IMMEDIATES 7
#define LIMB_BYTES 8

#define TOP(i) (f->stack[f->stack_size - 1 - (i)])

int evm_fast_evmmax_implements(int opcode)
{
    return opcode >= OP_SETMODX && opcode <= OP_MULMODX;
}

/* memory[offset, offset + size) as a pointer, if it lies inside memory; an empty
 * range always does (the pointer is then not to be read). */
static int memory_range(const evm_frame *f, const evm_word *offset, uint64_t size,
                        uint8_t **start)
{
    *start = f->memory;
    if (size == 0)
        return 1;
    if (size > f->memory_size || !word_below(offset, f->memory_size - size + 1))
        return 0;
    *start = f->memory + offset->limb[0];
    return 1;
}

/* --- SETMODX ---------------------------------------------------------------------- */

/* SETMODX's precomputation for the moduli that any run of this process set up: contracts
 * set the same few moduli at every call, and R^2 mod m (some 70 modular doublings and a
 * Montgomery power) costs a short contract more than its arithmetic. An entry is written
 * once, under the lock, and published by the count with release order, so that runs on
 * other threads (the loop runs without the GIL) read the entries below the count with
 * acquire order and no lock. When the table is full, moduli are set up per run. */
#define SHARED_MODULI 64
static struct evm_evmmax_modulus shared_moduli[SHARED_MODULI];
static uint32_t shared_count;
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;

static const struct evm_evmmax_modulus *find_modulus(const struct evm_evmmax_modulus *known,
                                                     uint32_t count, const uint8_t *bytes,
                                                     uint64_t size)
{
    for (uint32_t i = 0; i < count; i++)
        if (known[i].size == size && memcmp(known[i].bytes, bytes, size) == 0)
            return &known[i];
    return NULL;
}

/* evmmax_setup through the process's table. */
static int setup_shared(struct evmmax_context *context, const uint8_t *bytes, uint64_t size)
{
    const struct evm_evmmax_modulus *shared = find_modulus(
        shared_moduli, __atomic_load_n(&shared_count, __ATOMIC_ACQUIRE), bytes, size);
    if (shared != NULL) {
        *context = shared->context;
        return EVMMAX_OK;
    }
    int status = evmmax_setup(context, bytes, size);
    if (status != EVMMAX_OK)
        return status;
    pthread_mutex_lock(&shared_lock);
    uint32_t count = shared_count; /* only written under the lock */
    if (count < SHARED_MODULI && find_modulus(shared_moduli, count, bytes, size) == NULL) {
        struct evm_evmmax_modulus *entry = &shared_moduli[count];
        entry->context = *context;
        entry->size = (uint32_t)size;
        memcpy(entry->bytes, bytes, size);
        __atomic_store_n(&shared_count, count + 1, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&shared_lock);
    return EVMMAX_OK;
}

/* The context of the modulus in `bytes` (big-endian), from the run's earlier ones or
 * set up now; NULL if SETMODX refuses the modulus (too small, or even and not a power
 * of two). */
static const struct evmmax_context *context_for(struct evm_fast_evmmax *s,
                                                const uint8_t *bytes, uint64_t size)
{
    for (; size && *bytes == 0; size--)
        bytes++;
    const struct evm_evmmax_modulus *known = find_modulus(s->moduli, s->modulus_count, bytes,
                                                          size);
    if (known != NULL)
        return &known->context;
    if (s->modulus_count == EVM_EVMMAX_CONTEXTS) /* cannot happen: see the struct */
        return NULL;
    struct evm_evmmax_modulus *entry = &s->moduli[s->modulus_count];
    if (setup_shared(&entry->context, bytes, size) != EVMMAX_OK)
        return NULL;
    entry->size = (uint32_t)size;
    memcpy(entry->bytes, bytes, size);
    s->modulus_count++;
    return &entry->context;
}

/* SETMODX for an id that has no context yet: offset, size, alloc_count are its
 * operands below the id. */
static int create_context(evm_frame *f, struct evm_fast_evmmax *s, struct evm_evmmax_slot *slot,
                          const evm_word *offset, const evm_word *size, const evm_word *alloc)
{
    uint8_t *modulus;
    if (!word_below(size, EVMMAX_MAX_MODULUS_BYTES + 1) ||
        !memory_range(f, offset, size->limb[0], &modulus))
        return EVM_NEEDS_HOST;
    const struct evmmax_context *context = context_for(s, modulus, size->limb[0]);
    if (context == NULL || word_is_zero(alloc) ||
        !word_below(alloc, EVM_EVMMAX_MAX_REGISTERS + 1))
        return EVM_NEEDS_HOST;
    uint64_t new_bytes = alloc->limb[0] * LIMB_BYTES * context->limbs;
    uint64_t used = f->memory_size + f->extra_memory_bytes;
    if (f->extra_memory_bytes + new_bytes > EVM_EVMMAX_REGISTER_BYTES)
        return EVM_NEEDS_HOST;
    uint64_t cost = memory_cost(words(used + new_bytes)) - memory_cost(words(used));
    if (!context->power_of_two)
        cost += s->gas->setmodx_odd[context->limbs - 1];
    int status = charge(f, cost);
    if (status >= 0)
        return status;
    slot->context = context;
    slot->registers = s->registers + f->extra_memory_bytes / LIMB_BYTES;
    memset(slot->registers, 0, new_bytes); /* the state is not cleared up front: its init */
    slot->register_count = (uint32_t)alloc->limb[0];
    f->extra_memory_bytes += new_bytes;
    return EVM_CONTINUE;
}

static int setmodx(evm_frame *f, struct evm_fast_evmmax *s)
{
    if (!word_below(&TOP(0), EVM_EVMMAX_CONTEXTS))
        return EVM_NEEDS_HOST;
    struct evm_evmmax_slot *slot = &s->slots[TOP(0).limb[0]];
    if (slot->context == NULL) { /* an existing id is only activated */
        int status = create_context(f, s, slot, &TOP(1), &TOP(2), &TOP(3));
        if (status >= 0)
            return status;
    }
    s->active = slot;
    f->stack_size -= 4;
    return EVM_CONTINUE;
}

/* --- LOADX / STOREX ---------------------------------------------------------------- */

/* A multiplication per value (the Montgomery conversion) for odd moduli, a memory
 * copy for powers of two. */
static uint64_t transfer_gas(const struct evm_fast_evmmax *s, const struct evmmax_context *context,
                             uint64_t count)
{
    if (context->power_of_two)
        return COPY_WORD_GAS * words(count * LIMB_BYTES * context->limbs);
    return count * s->gas->mul[context->limbs - 1];
}

/* LOADX/STOREX's first asserts: a context is active and registers [first, first +
 * count) lie inside its file (count is TOP(2)). The active slot, with the count and
 * the values' bytes; NULL when an assert fails. */
static const struct evm_evmmax_slot *transfer_slot(const evm_frame *f,
                                                   const struct evm_fast_evmmax *s,
                                                   const evm_word *first, uint64_t *count,
                                                   uint64_t *size)
{
    const struct evm_evmmax_slot *slot = s->active;
    if (slot == NULL)
        return NULL;
    uint64_t registers = slot->register_count;
    if (!word_below(first, registers + 1) || !word_below(&TOP(2), registers + 1) ||
        first->limb[0] + TOP(2).limb[0] > registers)
        return NULL;
    *count = TOP(2).limb[0];
    *size = *count * LIMB_BYTES * slot->context->limbs;
    return slot;
}

/* LOADX dest (memory), source (register), count. */
static int loadx(evm_frame *f, const struct evm_fast_evmmax *s)
{
    uint64_t count, size;
    const struct evm_evmmax_slot *slot = transfer_slot(f, s, &TOP(1), &count, &size);
    if (slot == NULL)
        return EVM_NEEDS_HOST;
    const struct evmmax_context *context = slot->context;
    uint8_t *memory;
    if (!memory_range(f, &TOP(0), size, &memory))
        return EVM_NEEDS_HOST;
    int status = charge(f, transfer_gas(s, context, count));
    if (status >= 0)
        return status;
    if (count)
        evmmax_loadx(context, slot->registers, slot->register_count, TOP(1).limb[0], memory,
                     size, count);
    f->stack_size -= 3;
    return EVM_CONTINUE;
}

/* STOREX dest (register), source (memory), count. Gas is asserted payable before
 * the memory range and the values, as the Python engine charges it, and taken
 * once they pass. */
static int storex(evm_frame *f, const struct evm_fast_evmmax *s)
{
    uint64_t count, size;
    const struct evm_evmmax_slot *slot = transfer_slot(f, s, &TOP(0), &count, &size);
    if (slot == NULL)
        return EVM_NEEDS_HOST;
    const struct evmmax_context *context = slot->context;
    uint64_t cost = transfer_gas(s, context, count);
    if (cost > (uint64_t)f->gas)
        return EVM_OUT_OF_GAS;
    uint8_t *memory;
    if (!memory_range(f, &TOP(1), size, &memory))
        return EVM_NEEDS_HOST;
    if (count && evmmax_storex(context, slot->registers, slot->register_count, TOP(0).limb[0],
                               memory, size, count) != EVMMAX_OK)
        return EVM_NEEDS_HOST; /* a value not below the modulus; no register written */
    f->gas -= (int64_t)cost;
    f->stack_size -= 3;
    return EVM_CONTINUE;
}

/* --- ADDMODX / SUBMODX / MULMODX ----------------------------------------------------- */

/* The run starting at the instruction being run, on the active context's `slot`, if its
 * checks pass: 1 if it ran (the frame past it), 0 if declined (nothing changed). The loop
 * has counted the first instruction. */
static int vector_run(evm_frame *f, const struct evm_fast_evmmax *s,
                      const struct evm_evmmax_slot *slot, const struct evm_evmmax_run *run,
                      int opcode)
{
    if (run->register_end >= slot->register_count)
        return 0;
    uint32_t limbs = slot->context->limbs;
    uint64_t gas = run->add_sub_elements * s->gas->add_sub[limbs - 1]
                 + run->mul_elements * s->gas->mul[limbs - 1];
    if (gas > (uint64_t)f->gas)
        return 0;
    f->gas -= (int64_t)gas;
    evmmax_vector_run_bounded(slot->context, slot->registers, slot->register_count,
                              run->program, run->count, run->register_end);
    f->counts[OP_ADDMODX] += run->adds;
    f->counts[OP_SUBMODX] += run->subs;
    f->counts[OP_MULMODX] += run->muls;
    f->counts[opcode]--;
    f->pc = run->next_pc;
    return 1;
}

static int vector_op(evm_frame *f, const struct evm_fast_evmmax *s, int opcode)
{
    const struct evm_evmmax_slot *slot = s->active;
    if (slot == NULL)
        return EVM_NEEDS_HOST;
    int32_t run = s->run_at != NULL ? s->run_at[f->pc - 1] : -1;
    if (run >= 0 && vector_run(f, s, slot, &s->runs[run], opcode))
        return EVM_CONTINUE;
    uint8_t im[VECTOR_IMMEDIATES] = {0}; /* cut off by the end of the code: zeros */
    size_t available = f->code_size - f->pc;
    size_t n = available < VECTOR_IMMEDIATES ? available : VECTOR_IMMEDIATES;
    memcpy(im, f->code + f->pc, n);
    if (evmmax_vector_check(slot->register_count, im[0], im[1], im[2], im[3], im[4], im[5],
                            im[6]) != EVMMAX_OK)
        return EVM_NEEDS_HOST;
    const struct evmmax_context *context = slot->context;
    const uint32_t *gas = opcode == OP_MULMODX ? s->gas->mul : s->gas->add_sub;
    int status = charge(f, (uint64_t)im[6] * gas[context->limbs - 1]);
    if (status >= 0)
        return status;
    int op = opcode == OP_ADDMODX ? EVMMAX_OP_ADD
           : opcode == OP_SUBMODX ? EVMMAX_OP_SUB : EVMMAX_OP_MUL;
    evmmax_vector_op(context, op, slot->registers, slot->register_count, im[0], im[1], im[2],
                     im[3], im[4], im[5], im[6]);
    f->pc += n;
    return EVM_CONTINUE;
}

void evm_fast_evmmax_init(struct evm_fast_evmmax *s, const struct evm_evmmax_gas *gas,
                          const int32_t *run_at, const struct evm_evmmax_run *runs)
{
    s->gas = gas;
    s->run_at = run_at;
    s->runs = runs;
    s->active = NULL;
    s->modulus_count = 0;
    memset(s->slots, 0, sizeof s->slots);
}

int evm_fast_evmmax_step(evm_frame *f, int opcode)
{
    struct evm_fast_evmmax *s = f->extension;
    switch (opcode) {
    case OP_SETMODX:
        return setmodx(f, s);
    case OP_LOADX:
        return loadx(f, s);
    case OP_STOREX:
        return storex(f, s);
    default:
        return vector_op(f, s, opcode);
    }
}
