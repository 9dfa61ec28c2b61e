/* EVMMAX (EIP-6690) arithmetic kernels: one field context per modulus, and the
 * vector operations of ADDMODX/SUBMODX/MULMODX, LOADX and STOREX on a register
 * file. Wrapped by evm384_native.evm.kernels.modx (see build_ffi.py); docs/evmmax.md has the
 * semantics chosen where the EIP leaves a choice.
 *
 * Register file: `register_count` registers of ctx->limbs uint64 limbs each,
 * least significant limb first, register i at regs[i * limbs]. Odd moduli keep
 * values in Montgomery form (x * R mod m, R = 2^(64 * limbs)); power-of-two
 * moduli and secp256k1's p (plain_form: secp256k1_plain.h) keep them as they are.
 * Every register holds a value below the modulus
 * (STOREX checks it, the operations keep it); the kernels rely on that. */
#ifndef EVMMAX_H
#define EVMMAX_H

#include <stddef.h>
#include <stdint.h>

#define EVMMAX_MAX_LIMBS 12
#define EVMMAX_MOD_INV_LIMBS 13        /* EVMMAX_MAX_LIMBS + 1: cffi wants a literal */
#define EVMMAX_MAX_MODULUS_BYTES 96    /* SETMODX: modulus_size <= 96 */
#define EVMMAX_MAX_IMMEDIATE 255       /* the seven immediates are single bytes */

enum evmmax_op {
    EVMMAX_OP_ADD = 0,
    EVMMAX_OP_SUB = 1,
    EVMMAX_OP_MUL = 2,
};

/* The EIP's asserts, in the order they are checked. Nothing is written
 * unless the status is EVMMAX_OK. */
enum evmmax_status {
    EVMMAX_OK = 0,
    EVMMAX_NO_CONTEXT = 1,         /* no active field context (ctx is NULL) */
    EVMMAX_MODULUS_TOO_LONG = 2,   /* more than 96 modulus bytes */
    EVMMAX_MODULUS_TOO_SMALL = 3,  /* modulus < 3 */
    EVMMAX_MODULUS_EVEN = 4,       /* even and not a power of two */
    EVMMAX_COUNT_ZERO = 5,
    EVMMAX_OUT_STRIDE_ZERO = 6,
    EVMMAX_RANGE_OUT = 7,          /* a register index past the register file */
    EVMMAX_RANGE_X = 8,
    EVMMAX_RANGE_Y = 9,
    EVMMAX_MEMORY_TOO_SHORT = 10,  /* LOADX/STOREX byte buffer smaller than count values */
    EVMMAX_NOT_REDUCED = 11,       /* STOREX value >= modulus */
    EVMMAX_RANGE_REGISTERS = 12,   /* LOADX/STOREX registers past the register file */
    EVMMAX_UNKNOWN_OP = 13,        /* op is not an enum evmmax_op */
};

struct evmmax_context;

/* One element: out = op(x, y) on ctx->limbs limbs, inputs below the modulus; out may
 * alias x and y. */
typedef void evmmax_op_fn(uint64_t *out, const uint64_t *x, const uint64_t *y,
                          const struct evmmax_context *ctx);

/* What SETMODX precomputes. Fill it with evmmax_setup only. */
struct evmmax_context {
    uint32_t limbs;          /* 1..12: the element size is 8 * limbs bytes */
    uint32_t power_of_two;   /* non-zero: modulus = 2^k, plain arithmetic mod 2^k */
    uint64_t top_mask;       /* power of two: the bits of the top limb below 2^k */
    uint64_t inv;            /* odd: -modulus^-1 mod 2^64 */
    /* The modulus limbs, then inv at mod_inv[limbs]: the 6-limb kernels of
     * mont384.h read exactly this layout. */
    uint64_t mod_inv[EVMMAX_MOD_INV_LIMBS];
    uint64_t r_squared[EVMMAX_MAX_LIMBS]; /* odd: R^2 mod modulus, to enter Montgomery form */
    uint32_t plain_form;     /* non-zero: secp256k1's p, registers as they are (no Montgomery
                              * form), products by secp256k1_plain.h's kernels */
    /* The MULX kernels chosen for this modulus by evmmax_setup (mont256_mulx.h), run while
     * the MULX implementation is selected: P-256's and secp256k1's own product and
     * squaring; for any other 4-limb odd modulus a squaring (the product is the limb
     * count's). NULL where none is chosen (the limb count's product runs) and without MULX. */
    evmmax_op_fn *mulx_mul;
    evmmax_op_fn *mulx_square;
    /* For a 4-limb modulus with 2^253 <= m < 2^254: floor(2^125 / (m[3] + 1)), with which
     * the products by xi = k + u for a small k estimate their quotients (evmmax_kernels.h's
     * small_product_sum_4); 0 for any other modulus. */
    uint64_t top_reciprocal;
};

/* SETMODX's precomputation from the modulus as big-endian bytes. The element
 * size follows the modulus value (leading zero bytes do not widen it). */
int evmmax_setup(struct evmmax_context *ctx, const uint8_t *modulus_be, size_t size);

/* ADDMODX/SUBMODX/MULMODX: for i < count,
 *   regs[out_idx + i*out_stride] = op(regs[x_idx + i*x_stride], regs[y_idx + i*y_stride])
 * with every result landing only after the whole loop (the EIP's rule for
 * overlapping operands). Bounds follow the EIP: idx + stride * count < register_count
 * for out, x and y. `regs` must hold register_count * ctx->limbs limbs. */
int evmmax_vector_op(const struct evmmax_context *ctx, int op, uint64_t *regs,
                     size_t register_count, uint8_t out_idx, uint8_t out_stride,
                     uint8_t x_idx, uint8_t x_stride, uint8_t y_idx, uint8_t y_stride,
                     uint8_t count);

/* Several vector operations in order, each as evmmax_vector_op runs it. `program` holds
 * `ops` records of EVMMAX_RECORD_BYTES: enum evmmax_op, then the seven immediates
 * (out_idx, out_stride, x_idx, x_stride, y_idx, y_stride, count). Stops at the first
 * operation that fails and returns its status (the operations before it have run), else
 * EVMMAX_OK. For an engine that checked the asserts of all of them first. */
#define EVMMAX_RECORD_BYTES 8
/* Or'ed into a record's op by the host: on a product (modx_common.fp2_products) this
 * record and the next five are an Fp2 product that the run may compute as Karatsuba
 * (fp2_product.h, evmmax_kernels.h); on an addition (modx_common.fp2_squares) this record
 * and the next four are an Fp2 squaring that it may compute in one step at 4 limbs
 * (evmmax_kernels.h). */
#define EVMMAX_FP2_PRODUCT_GROUP 128
/* Or'ed into a product of two elements by one register (modx_common.fp2_xi_products):
 * with the next two records an Fp2 product by xi = k + u that the run may compute in one
 * step at 4 limbs (evmmax_kernels.h). */
#define EVMMAX_XI_PRODUCT_GROUP 64
/* Or'ed into a product (modx_common.fp2_products): this record and the next four are the
 * first five ops of an Fp2 product for another non-residue (fp2_cross in fp2_product.h:
 * t0, t1 and c1 written, t2 dead), whose last two ops follow as ordinary records. */
#define EVMMAX_FP2_CROSS_GROUP 32
int evmmax_vector_run(const struct evmmax_context *ctx, uint64_t *regs,
                      size_t register_count, const char *program, size_t ops);

/* evmmax_vector_run for a program whose operands all lie below register_end (the
 * largest idx + stride * count of any, which the caller computed once): one bound check
 * for all of them, EVMMAX_RANGE_REGISTERS if register_end >= register_count. */
int evmmax_vector_run_bounded(const struct evmmax_context *ctx, uint64_t *regs,
                              size_t register_count, const char *program, size_t ops,
                              size_t register_end);

/* evmmax_vector_op's asserts on the immediates alone (count, out_stride, the bounds
 * of out, x and y), for an engine that charges gas between asserts and work. */
int evmmax_vector_check(size_t register_count, uint8_t out_idx, uint8_t out_stride,
                        uint8_t x_idx, uint8_t x_stride, uint8_t y_idx, uint8_t y_stride,
                        uint8_t count);

/* STOREX: count big-endian values of 8 * limbs bytes from `memory` into
 * registers [dest, dest + count), converted to the internal form. Checks
 * dest + count <= register_count, memory_size, and that every value is below
 * the modulus, before writing anything. The power-of-two case copies. */
int evmmax_storex(const struct evmmax_context *ctx, uint64_t *regs, size_t register_count,
                  size_t dest, const uint8_t *memory, size_t memory_size, size_t count);

/* LOADX: registers [source, source + count) to `memory` as big-endian values
 * of 8 * limbs bytes, converted back from the internal form. */
int evmmax_loadx(const struct evmmax_context *ctx, const uint64_t *regs, size_t register_count,
                 size_t source, uint8_t *memory, size_t memory_size, size_t count);

/* Batches: rows i of out, x, y (n rows of ctx->limbs limbs, internal form)
 * through one operation. Each x and y row is checked below the modulus just
 * before use (while in cache); at the first row that is not, *bad_row is set
 * and EVMMAX_NOT_REDUCED returned, with out written up to that row only. */
int evmmax_batch(const struct evmmax_context *ctx, int op, uint64_t *out, const uint64_t *x,
                 const uint64_t *y, size_t n, size_t *bad_row);

/* The element kernel the vector operations and batches call for op (an enum evmmax_op)
 * under ctx and the current implementation (evm384_select_implementation), or NULL for
 * an unknown op: for a benchmark that times the kernel alone, as the engines call it. */
evmmax_op_fn *evmmax_element_kernel(const struct evmmax_context *ctx, int op);

#endif
