/* EVMMAX field contexts (SETMODX's precomputation), kernel dispatch, the vector
 * operations and LOADX/STOREX conversions. See evmmax.h. */
#include "evmmax.h"
#include "evm384.h"
#include "evmmax_kernels.h"
#include "secp256k1_plain.h"
#include "fp2_product.h"
#include "mont384_mulx.h"
#include "sqr384_mulx.h"

/* The EIP's vectors: out, x and y of one operation. */
#define LONGEST_VECTOR EVMMAX_MAX_IMMEDIATE

/* --- power-of-two moduli: plain arithmetic mod 2^k ----------------------------------- */

/* Registers hold values below 2^k: full limbs under a top limb of top_mask bits. */
static void pow2_add(limb_t *out, const limb_t *x, const limb_t *y,
                     const struct evmmax_context *ctx)
{
    limb_t carry = 0;
    for (uint32_t i = 0; i < ctx->limbs; i++)
        out[i] = add_with_carry(x[i], y[i], &carry);
    out[ctx->limbs - 1] &= ctx->top_mask;
}

static void pow2_sub(limb_t *out, const limb_t *x, const limb_t *y,
                     const struct evmmax_context *ctx)
{
    limb_t borrow = 0;
    for (uint32_t i = 0; i < ctx->limbs; i++)
        out[i] = sub_with_borrow(x[i], y[i], &borrow);
    out[ctx->limbs - 1] &= ctx->top_mask;
}

/* The low limbs of x*y, schoolbook. */
static void pow2_mul(limb_t *out, const limb_t *x, const limb_t *y,
                     const struct evmmax_context *ctx)
{
    const uint32_t n = ctx->limbs;
    limb_t acc[EVMMAX_MAX_LIMBS] = {0};
    for (uint32_t i = 0; i < n; i++) {
        limb_t carry = 0;
        for (uint32_t j = 0; i + j < n; j++) {
            dlimb_t t = (dlimb_t)x[i] * y[j] + acc[i + j] + carry;
            acc[i + j] = (limb_t)t;
            carry = (limb_t)(t >> 64);
        }
    }
    acc[n - 1] &= ctx->top_mask;
    memcpy(out, acc, n * sizeof(limb_t));
}

/* --- dispatch ------------------------------------------------------------------------- */

/* The dispatch's own op after enum evmmax_op's: a MULMODX element whose x and y are one
 * register. Its kernel is the product's unless the modulus has a squaring of its own. */
#define OP_SQUARE 3
#define DISPATCHED_OPS 4

static evmmax_op_fn *kernel_for(const struct evmmax_context *ctx, int op)
{
    static evmmax_op_fn *const pow2_kernels[] = {pow2_add, pow2_sub, pow2_mul, pow2_mul};
    if (ctx->power_of_two)
        return pow2_kernels[op];
    if (op == EVMMAX_OP_ADD)
        return evmmax_add_kernels[ctx->limbs - 1];
    if (op == EVMMAX_OP_SUB)
        return evmmax_sub_kernels[ctx->limbs - 1];
#if defined(__x86_64__)
    /* The one implementation switch of evm384_ops.c decides for EVMMAX too. */
    if (evm384_current_implementation() == EVM384_IMPL_MULX) {
        if (op == OP_SQUARE && ctx->mulx_square != NULL)   /* chosen by evmmax_setup */
            return ctx->mulx_square;
        if (ctx->mulx_mul != NULL)
            return ctx->mulx_mul;
        return evmmax_mulx_mul_kernels[ctx->limbs - 1];
    }
#endif
    if (ctx->plain_form)   /* whichever implementation runs: the registers' form is ctx's */
        return evmmax_secp256k1_portable_mul;
    return evmmax_portable_mul_kernels[ctx->limbs - 1];
}

static int valid_op(int op)
{
    return op == EVMMAX_OP_ADD || op == EVMMAX_OP_SUB || op == EVMMAX_OP_MUL;
}

/* --- SETMODX -------------------------------------------------------------------------- */

static int bit_length(const limb_t *v, uint32_t n)
{
    for (int i = (int)n - 1; i >= 0; i--)
        if (v[i])
            return 64 * i + 64 - __builtin_clzll(v[i]);
    return 0;
}

/* -m^-1 mod 2^64 by Newton's iteration: m*m = 1 mod 8 starts with 3 good bits
 * and each step doubles them (3, 6, 12, 24, 48, 96). */
static limb_t montgomery_constant(limb_t m0)
{
    limb_t inverse = m0;
    for (int i = 0; i < 5; i++)
        inverse *= 2 - m0 * inverse;
    return (limb_t)0 - inverse;
}

/* R^2 mod m, R = 2^(64n): 2^(b-1) < m (b = m's bit length) is doubled into
 * R mod m and on into 2^64 * R mod m, the Montgomery form of 2^64, whose n-th
 * Montgomery power is the Montgomery form of R, i.e. R^2 mod m. */
static void compute_r_squared(struct evmmax_context *ctx, int bits)
{
    const uint32_t n = ctx->limbs;
    evmmax_op_fn *add = kernel_for(ctx, EVMMAX_OP_ADD);
    evmmax_op_fn *mul = kernel_for(ctx, EVMMAX_OP_MUL);
    limb_t r[EVMMAX_MAX_LIMBS] = {0}, two_64[EVMMAX_MAX_LIMBS];
    r[(bits - 1) / 64] = (limb_t)1 << ((bits - 1) % 64);
    for (int doublings = 64 * (int)n - (bits - 1) + 64; doublings > 0; doublings--)
        add(r, r, r, ctx);
    memcpy(two_64, r, n * sizeof(limb_t));
    for (uint32_t i = 1; i < n; i++)
        mul(r, r, two_64, ctx);
    memcpy(ctx->r_squared, r, n * sizeof(limb_t));
}

int evmmax_setup(struct evmmax_context *ctx, const uint8_t *modulus_be, size_t size)
{
    if (size > EVMMAX_MAX_MODULUS_BYTES)
        return EVMMAX_MODULUS_TOO_LONG;
    limb_t m[EVMMAX_MAX_LIMBS] = {0};
    for (size_t i = 0; i < size; i++) { /* byte i from the end goes to bit 8i */
        size_t bit = 8 * (size - 1 - i);
        m[bit / 64] |= (limb_t)modulus_be[i] << (bit % 64);
    }
    int bits = bit_length(m, EVMMAX_MAX_LIMBS);
    if (bits <= 2 && m[0] < 3)
        return EVMMAX_MODULUS_TOO_SMALL;
    int set_bits = 0;
    for (int i = 0; i < EVMMAX_MAX_LIMBS; i++)
        set_bits += __builtin_popcountll(m[i]);
    const int power_of_two = set_bits == 1;
    if (!(m[0] & 1) && !power_of_two)
        return EVMMAX_MODULUS_EVEN;

    memset(ctx, 0, sizeof *ctx);
    ctx->limbs = (uint32_t)(bits + 63) / 64;
    memcpy(ctx->mod_inv, m, ctx->limbs * sizeof(limb_t));
    if (power_of_two) {
        ctx->power_of_two = 1;
        const int k = bits - 1; /* modulus 2^k */
        ctx->top_mask = ((limb_t)1 << (k % 64)) - 1;
        return EVMMAX_OK;
    }
    ctx->inv = montgomery_constant(m[0]);
    ctx->mod_inv[ctx->limbs] = ctx->inv;
    /* by the limb count's Montgomery products (the same R^2 mod m as a modulus's own
     * kernels give), before plain_form changes what a product is */
    compute_r_squared(ctx, bits);
    ctx->plain_form = ctx->limbs == 4
        && memcmp(m, SECP256K1_MODULUS, sizeof SECP256K1_MODULUS) == 0;
    if (ctx->limbs == 4 && m[3] >> 61 == 1)
        ctx->top_reciprocal = (limb_t)(((dlimb_t)1 << 125) / (m[3] + 1));
#if defined(__x86_64__)
    evmmax_mulx_select_kernels(ctx);
#endif
    return EVMMAX_OK;
}

/* --- vector operations ---------------------------------------------------------------- */

/* The EIP's bound: idx + stride * count < register_count (at most 255 + 255 * 255). */
static int vector_fits(uint8_t idx, uint8_t stride, uint8_t count, size_t register_count)
{
    return (size_t)idx + (size_t)stride * count < register_count;
}

/* True when no register that iteration i writes is read by a later iteration:
 * the input is the output itself (same index and stride) or their spans are
 * disjoint. Otherwise the results wait in a scratch buffer. */
static int reads_before_writes(uint8_t out_idx, uint8_t out_stride, uint8_t in_idx,
                               uint8_t in_stride, uint8_t count)
{
    if (in_idx == out_idx && in_stride == out_stride)
        return 1;
    size_t out_last = out_idx + (size_t)out_stride * (count - 1u);
    size_t in_last = in_idx + (size_t)in_stride * (count - 1u);
    return out_last < in_idx || in_last < out_idx;
}

int evmmax_vector_check(size_t register_count, uint8_t out_idx, uint8_t out_stride,
                        uint8_t x_idx, uint8_t x_stride, uint8_t y_idx, uint8_t y_stride,
                        uint8_t count)
{
    if (count == 0)
        return EVMMAX_COUNT_ZERO;
    if (out_stride == 0)
        return EVMMAX_OUT_STRIDE_ZERO;
    if (!vector_fits(out_idx, out_stride, count, register_count))
        return EVMMAX_RANGE_OUT;
    if (!vector_fits(x_idx, x_stride, count, register_count))
        return EVMMAX_RANGE_X;
    if (!vector_fits(y_idx, y_stride, count, register_count))
        return EVMMAX_RANGE_Y;
    return EVMMAX_OK;
}

int evmmax_vector_op(const struct evmmax_context *ctx, int op, uint64_t *regs,
                     size_t register_count, uint8_t out_idx, uint8_t out_stride,
                     uint8_t x_idx, uint8_t x_stride, uint8_t y_idx, uint8_t y_stride,
                     uint8_t count)
{
    if (ctx == NULL)
        return EVMMAX_NO_CONTEXT;
    int status = evmmax_vector_check(register_count, out_idx, out_stride, x_idx, x_stride,
                                     y_idx, y_stride, count);
    if (status != EVMMAX_OK)
        return status;
    if (!valid_op(op))
        return EVMMAX_UNKNOWN_OP;

    if (op == EVMMAX_OP_MUL && x_idx == y_idx && x_stride == y_stride)
        op = OP_SQUARE;   /* every element's x and y are one register */
    evmmax_op_fn *kernel = kernel_for(ctx, op);
    const size_t n = ctx->limbs;
    if (reads_before_writes(out_idx, out_stride, x_idx, x_stride, count)
        && reads_before_writes(out_idx, out_stride, y_idx, y_stride, count)) {
        for (size_t i = 0; i < count; i++)
            kernel(regs + n * (out_idx + i * out_stride), regs + n * (x_idx + i * x_stride),
                   regs + n * (y_idx + i * y_stride), ctx);
        return EVMMAX_OK;
    }
    limb_t scratch[LONGEST_VECTOR * EVMMAX_MAX_LIMBS];
    for (size_t i = 0; i < count; i++)
        kernel(scratch + n * i, regs + n * (x_idx + i * x_stride),
               regs + n * (y_idx + i * y_stride), ctx);
    for (size_t i = 0; i < count; i++)
        memcpy(regs + n * (out_idx + i * out_stride), scratch + n * i, n * sizeof(limb_t));
    return EVMMAX_OK;
}

#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
/* An operation on 6-limb registers of an odd modulus with the EVM384 kernels, inlined. */
static inline __attribute__((always_inline)) void
apply_384(int op, uint8_t *out, const uint8_t *x, const uint8_t *y, const uint8_t *mod)
{
    if (op == EVMMAX_OP_MUL && x == y)   /* one register: a squaring */
        sqrmont384_mulx_inline(out, x, mod);
    else if (op == EVMMAX_OP_MUL)
        mulmont384_mulx_inline(out, x, y, mod);
    else if (op == EVMMAX_OP_ADD)
        addmod384(out, x, y, mod);
    else
        submod384(out, x, y, mod);
}
#endif

/* One element: each kernel reads both inputs before it writes, so out may alias them.
 * `kernels` are kernel_for's of the DISPATCHED_OPS ops, a product of one register by itself
 * takes OP_SQUARE's. `mulx384` (a constant where it is inlined) runs the EVM384 kernels
 * inlined in place of the kernels' calls (6 limbs, an odd modulus, MULX), as the EVM384
 * segment loop does: both reduce fully, so the results are the same. */
static inline __attribute__((always_inline)) void
apply_element(const struct evmmax_context *ctx, evmmax_op_fn *const kernels[DISPATCHED_OPS],
              int op, limb_t *out, const limb_t *x, const limb_t *y, int mulx384, int odd4)
{
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
    if (mulx384) {
        apply_384(op, (uint8_t *)out, (const uint8_t *)x, (const uint8_t *)y,
                  (const uint8_t *)ctx->mod_inv);
        return;
    }
#endif
    (void)mulx384;
    if (odd4 && op == EVMMAX_OP_ADD)
        addmod_n(out, x, y, ctx->mod_inv, 4);
    else if (odd4 && op == EVMMAX_OP_SUB)
        submod_n(out, x, y, ctx->mod_inv, 4);
    else
        kernels[op == EVMMAX_OP_MUL && x == y ? OP_SQUARE : op](out, x, y, ctx);
}

/* A vector addition or subtraction (op) of the record r on 4-limb registers of an odd
 * modulus m, whose elements the caller has checked read nothing an earlier one wrote: one
 * loop per op with the operands' addresses stepped, so the op is tested once a record and
 * no index is multiplied per element (as apply_element's loop did). */
static inline __attribute__((always_inline)) void
add_sub_vector_4(const limb_t *m, int op, uint64_t *regs, const uint8_t *r)
{
    enum { N = 4 };
    limb_t *out = regs + N * r[1];
    const limb_t *x = regs + N * r[3], *y = regs + N * r[5];
    const size_t out_step = N * (size_t)r[2], x_step = N * (size_t)r[4],
                 y_step = N * (size_t)r[6];
    if (op == EVMMAX_OP_ADD)
        for (size_t k = r[7]; k > 0; k--, out += out_step, x += x_step, y += y_step)
            addmod_4(out, x, y, m);
    else
        for (size_t k = r[7]; k > 0; k--, out += out_step, x += x_step, y += y_step)
            submod_4(out, x, y, m);
}

/* The Fp2 product whose six one-element records start at r (EVMMAX_FP2_PRODUCT_GROUP),
 * on 6-limb registers (48 little-endian bytes each) the caller has bounds-checked: 1 if it
 * ran as Karatsuba (fp2_product.h) with `mulmont`, 0 if nothing was written. */
static inline __attribute__((always_inline)) int
fp2_product_registers(const struct evmmax_context *ctx, uint64_t *regs, const uint8_t *r,
                      mulmont384_fn *mulmont)
{
    enum { R = EVMMAX_RECORD_BYTES, OUT = 1, X = 3, Y = 5 };
#define REGISTER(index) ((uint8_t *)(regs + 6 * (size_t)(index)))
    return fp2_product(uses_mulx(mulmont), (const uint8_t *)ctx->mod_inv,
                       REGISTER(r[3 * R + OUT]), REGISTER(r[5 * R + OUT]), REGISTER(r[X]),
                       REGISTER(r[R + X]), REGISTER(r[Y]), REGISTER(r[R + Y]));
#undef REGISTER
}

/* fp2_cross on the five one-element records at r (EVMMAX_FP2_CROSS_GROUP), on 6-limb
 * registers as fp2_product_registers: 1 if it ran, 0 if nothing was written. */
static inline __attribute__((always_inline)) int
fp2_cross_registers(const struct evmmax_context *ctx, uint64_t *regs, const uint8_t *r,
                    mulmont384_fn *mulmont)
{
    enum { R = EVMMAX_RECORD_BYTES, OUT = 1, X = 3, Y = 5 };
#define REGISTER(index) ((uint8_t *)(regs + 6 * (size_t)(index)))
    return fp2_cross(uses_mulx(mulmont), (const uint8_t *)ctx->mod_inv, REGISTER(r[OUT]),
                     REGISTER(r[R + OUT]), REGISTER(r[3 * R + OUT]), REGISTER(r[X]),
                     REGISTER(r[R + X]), REGISTER(r[Y]), REGISTER(r[R + Y]));
#undef REGISTER
}

/* The fused Fp2 steps on 4-limb registers (evmmax_kernels.h), NULL where the records run. */
struct fp2_steps_4 {
    evmmax_fp2_product_4_fn *product;
    evmmax_fp2_square_4_fn *square;
    evmmax_fp2_xi_product_4_fn *xi_product;
};

/* The steps for the context whose products are `mul`, for an odd 4-limb modulus in
 * Montgomery form (secp256k1's registers are in plain form: none): the MULX ones where the
 * products are MULX code (the row's, or the kernel of a modulus with its own, P-256's:
 * ctx->mulx_mul), else the portable ones. The steps inline the row's generic product: for
 * P-256 the Fp2 product and the squaring decline (they run below 2^254 only), the product
 * by xi runs on it. */
static struct fp2_steps_4 fp2_steps_4_for(const struct evmmax_context *ctx, evmmax_op_fn *mul)
{
    struct fp2_steps_4 none = {NULL, NULL, NULL};
    if (ctx->limbs != 4 || ctx->power_of_two || ctx->plain_form)   /* Montgomery steps */
        return none;
#if defined(__x86_64__)
    if (mul == evmmax_mulx_mul_kernels[3] || (mul != NULL && mul == ctx->mulx_mul)) {
        struct fp2_steps_4 mulx = {evmmax_mulx_fp2_product_4, evmmax_mulx_fp2_square_4,
                                   evmmax_mulx_fp2_xi_product_4};
        return mulx;
    }
#endif
    (void)mul;
    struct fp2_steps_4 portable = {evmmax_portable_fp2_product_4, evmmax_portable_fp2_square_4,
                                   evmmax_portable_fp2_xi_product_4};
    return portable;
}

/* The EVM384 Montgomery product for the context's Fp2 products, or NULL: 6-limb odd moduli
 * on a little-endian machine, where registers are EVM384's 48-byte values. */
static mulmont384_fn *fp2_product_kernel(const struct evmmax_context *ctx)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (ctx->limbs == LIMBS384 && !ctx->power_of_two)
        return selected_mulmont();
#endif
    (void)ctx;
    return NULL;
}

/* evmmax_vector_run's loop. `bounded` (a constant): the caller has checked that every
 * operand of every record lies inside register_count. */
static inline __attribute__((always_inline)) int
run_program(const struct evmmax_context *ctx, uint64_t *regs, size_t register_count,
            const uint8_t *r, size_t ops, evmmax_op_fn *const kernels[DISPATCHED_OPS],
            mulmont384_fn *fp2_mulmont, evmmax_fp2_product_4_fn *fp2_4,
            evmmax_fp2_square_4_fn *square_4, evmmax_fp2_xi_product_4_fn *xi_4,
            int mulx384, int odd4, int bounded)
{
    const size_t n = mulx384 ? 6 : odd4 ? 4 : ctx->limbs;   /* a constant where it helps */
    struct evmmax_xi_multiplier xi_known = {.seen = 0};   /* learnt at the run's first */
    for (size_t i = 0; i < ops; i++, r += EVMMAX_RECORD_BYTES) {
        const size_t count = r[7];
        int op = r[0];
        if (__builtin_expect(op == (EVMMAX_OP_ADD | EVMMAX_FP2_PRODUCT_GROUP), 0)) {
            op = EVMMAX_OP_ADD;   /* as five records, unless the squaring runs */
            if (bounded && i + 5 <= ops && square_4 != NULL && square_4(ctx, regs, r)) {
                i += 4, r += 4 * EVMMAX_RECORD_BYTES;
                continue;
            }
        }
        if (__builtin_expect(op == (EVMMAX_OP_MUL | EVMMAX_XI_PRODUCT_GROUP), 0)) {
            op = EVMMAX_OP_MUL;   /* as three records, unless the step runs */
            if (bounded && i + 3 <= ops && xi_4 != NULL
                && xi_4(ctx, regs, r, &xi_known)) {
                i += 2, r += 2 * EVMMAX_RECORD_BYTES;
                continue;
            }
        }
        if (__builtin_expect(op == (EVMMAX_OP_MUL | EVMMAX_FP2_PRODUCT_GROUP), 0)) {
            op = EVMMAX_OP_MUL;   /* as six records, unless Karatsuba runs */
            if (bounded && i + 6 <= ops
                && (fp2_mulmont != NULL ? fp2_product_registers(ctx, regs, r, fp2_mulmont)
                    : fp2_4 != NULL && fp2_4(ctx, regs, r))) {
                i += 5, r += 5 * EVMMAX_RECORD_BYTES;
                continue;
            }
        } else if (__builtin_expect(op == (EVMMAX_OP_MUL | EVMMAX_FP2_CROSS_GROUP), 0)) {
            op = EVMMAX_OP_MUL;   /* as five records, unless Karatsuba runs */
            if (bounded && i + 5 <= ops && fp2_mulmont != NULL
                && fp2_cross_registers(ctx, regs, r, fp2_mulmont)) {
                i += 4, r += 4 * EVMMAX_RECORD_BYTES;
                continue;
            }
        }
        if (__builtin_expect(op > EVMMAX_OP_MUL || count == 0 || r[2] == 0, 0)
            || (!bounded && (r[1] + r[2] * count >= register_count
                             || r[3] + r[4] * count >= register_count
                             || r[5] + r[6] * count >= register_count))) {
            int status = evmmax_vector_op(ctx, op, regs, register_count, r[1], r[2], r[3],
                                          r[4], r[5], r[6], r[7]);
            if (status != EVMMAX_OK)
                return status;
            continue;
        }
        if (__builtin_expect(count == 1, 1)) {   /* most of a field tower's operations */
            apply_element(ctx, kernels, op, regs + n * r[1], regs + n * r[3], regs + n * r[5],
                          mulx384, odd4);
            continue;
        }
        if (!reads_before_writes(r[1], r[2], r[3], r[4], r[7])
            || !reads_before_writes(r[1], r[2], r[5], r[6], r[7])) {
            evmmax_vector_op(ctx, op, regs, register_count, r[1], r[2], r[3], r[4], r[5],
                             r[6], r[7]);   /* results buffered: checked above, it runs */
            continue;
        }
        if (odd4 && op != EVMMAX_OP_MUL) {
            add_sub_vector_4(ctx->mod_inv, op, regs, r);
            continue;
        }
        for (size_t k = 0; k < count; k++)
            apply_element(ctx, kernels, op, regs + n * (r[1] + k * r[2]),
                          regs + n * (r[3] + k * r[4]), regs + n * (r[5] + k * r[6]), mulx384,
                          odd4);
    }
    return EVMMAX_OK;
}

static int vector_run(const struct evmmax_context *ctx, uint64_t *regs, size_t register_count,
                      const char *program, size_t ops, int bounded)
{
    if (ctx == NULL)
        return EVMMAX_NO_CONTEXT;
    evmmax_op_fn *const kernels[DISPATCHED_OPS] = {
        kernel_for(ctx, EVMMAX_OP_ADD), kernel_for(ctx, EVMMAX_OP_SUB),
        kernel_for(ctx, EVMMAX_OP_MUL), kernel_for(ctx, OP_SQUARE)};
    const uint8_t *records = (const uint8_t *)program;
#if defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
    if (kernels[EVMMAX_OP_MUL] == evmmax_mulx_mul_kernels[5]) { /* BLS12-381's size, MULX */
        if (bounded)
            return run_program(ctx, regs, register_count, records, ops, kernels,
                               mulmont384_mulx_inline, NULL, NULL, NULL, 1, 0, 1);
        return run_program(ctx, regs, register_count, records, ops, kernels,
                           mulmont384_mulx_inline, NULL, NULL, NULL, 1, 0, 0);
    }
#endif
    const struct fp2_steps_4 steps = fp2_steps_4_for(ctx, kernels[EVMMAX_OP_MUL]);
    if (ctx->limbs == 4 && !ctx->power_of_two && bounded)   /* 4 limbs, odd: additions inlined */
        return run_program(ctx, regs, register_count, records, ops, kernels, NULL,
                           steps.product, steps.square, steps.xi_product, 0, 1, 1);
    return run_program(ctx, regs, register_count, records, ops, kernels,
                       fp2_product_kernel(ctx), steps.product, steps.square, steps.xi_product,
                       0, 0, bounded);
}

int evmmax_vector_run(const struct evmmax_context *ctx, uint64_t *regs,
                      size_t register_count, const char *program, size_t ops)
{
    return vector_run(ctx, regs, register_count, program, ops, 0);
}

int evmmax_vector_run_bounded(const struct evmmax_context *ctx, uint64_t *regs,
                              size_t register_count, const char *program, size_t ops,
                              size_t register_end)
{
    if (register_end >= register_count)
        return EVMMAX_RANGE_REGISTERS;
    return vector_run(ctx, regs, register_count, program, ops, 1);
}

/* --- LOADX / STOREX ------------------------------------------------------------------- */

/* v < the modulus, both of n limbs (n is ctx->limbs). */
static inline int below_limbs(const limb_t *v, const struct evmmax_context *ctx, size_t n)
{
    for (size_t i = n; i-- > 0;)
        if (v[i] != ctx->mod_inv[i])
            return v[i] < ctx->mod_inv[i];
    return 0;
}

static int below_modulus(const limb_t *v, const struct evmmax_context *ctx)
{
    return below_limbs(v, ctx, ctx->limbs);
}

int evmmax_batch(const struct evmmax_context *ctx, int op, uint64_t *out, const uint64_t *x,
                 const uint64_t *y, size_t n, size_t *bad_row)
{
    if (ctx == NULL)
        return EVMMAX_NO_CONTEXT;
    if (!valid_op(op))
        return EVMMAX_UNKNOWN_OP;
    evmmax_op_fn *kernel = kernel_for(ctx, op);
    const size_t limbs = ctx->limbs;
    for (size_t i = 0; i < n; i++) {
        if (!below_modulus(x + limbs * i, ctx) || !below_modulus(y + limbs * i, ctx)) {
            *bad_row = i;
            return EVMMAX_NOT_REDUCED;
        }
        kernel(out + limbs * i, x + limbs * i, y + limbs * i, ctx);
    }
    return EVMMAX_OK;
}

evmmax_op_fn *evmmax_element_kernel(const struct evmmax_context *ctx, int op)
{
    if (ctx == NULL || !valid_op(op))
        return NULL;
    return kernel_for(ctx, op);
}

/* Big-endian element of 8n bytes <-> n limbs, least significant first. */
static void load_element(limb_t *v, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v[i] = load_be64(p + 8 * (n - 1 - i));
}

static void store_element(uint8_t *p, const limb_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        store_be64(p + 8 * (n - 1 - i), v[i]);
}

/* Registers [first, first + count) inside the file, and count elements inside memory. */
static int transfer_status(const struct evmmax_context *ctx, size_t register_count,
                           size_t first, size_t memory_size, size_t count)
{
    if (ctx == NULL)
        return EVMMAX_NO_CONTEXT;
    if (first > register_count || count > register_count - first)
        return EVMMAX_RANGE_REGISTERS;
    if (count > memory_size / (8 * ctx->limbs))
        return EVMMAX_MEMORY_TOO_SHORT;
    return EVMMAX_OK;
}

/* STOREX's and LOADX's elements for n limbs. Inlined with n = 4 too (secp256k1's and
 * P-256's fields, whose contracts transfer a few values at a time, often) so that a plain
 * form's copy is four byte-swapped loads and stores, not loops and a call to memcpy. A
 * plain form's limbs go straight to and from the register: through v, the copy's 16-byte
 * loads read the 8-byte stores just made, which store forwarding cannot serve. */
static inline __attribute__((always_inline)) int
storex_elements(const struct evmmax_context *ctx, uint64_t *regs, size_t dest,
                const uint8_t *memory, size_t count, size_t n)
{
    limb_t v[EVMMAX_MAX_LIMBS];
    for (size_t i = 0; i < count; i++) {
        load_element(v, memory + 8 * n * i, n);
        if (!below_limbs(v, ctx, n))
            return EVMMAX_NOT_REDUCED;
    }
    evmmax_op_fn *to_montgomery =
        ctx->power_of_two || ctx->plain_form ? NULL : kernel_for(ctx, EVMMAX_OP_MUL);
    for (size_t i = 0; i < count; i++) {
        limb_t *reg = regs + n * (dest + i);
        if (to_montgomery) {
            load_element(v, memory + 8 * n * i, n);
            to_montgomery(reg, v, ctx->r_squared, ctx);
        } else {
            load_element(reg, memory + 8 * n * i, n);
        }
    }
    return EVMMAX_OK;
}

static inline __attribute__((always_inline)) void
loadx_elements(const struct evmmax_context *ctx, const uint64_t *regs, size_t source,
               uint8_t *memory, size_t count, size_t n)
{
    static const limb_t one[EVMMAX_MAX_LIMBS] = {1};
    evmmax_op_fn *from_montgomery =
        ctx->power_of_two || ctx->plain_form ? NULL : kernel_for(ctx, EVMMAX_OP_MUL);
    limb_t v[EVMMAX_MAX_LIMBS];
    for (size_t i = 0; i < count; i++) {
        const limb_t *reg = regs + n * (source + i);
        if (from_montgomery)
            from_montgomery(v, reg, one, ctx);
        store_element(memory + 8 * n * i, from_montgomery ? v : reg, n);
    }
}

int evmmax_storex(const struct evmmax_context *ctx, uint64_t *regs, size_t register_count,
                  size_t dest, const uint8_t *memory, size_t memory_size, size_t count)
{
    int status = transfer_status(ctx, register_count, dest, memory_size, count);
    if (status != EVMMAX_OK)
        return status;
    if (ctx->limbs == 4)
        return storex_elements(ctx, regs, dest, memory, count, 4);
    return storex_elements(ctx, regs, dest, memory, count, ctx->limbs);
}

int evmmax_loadx(const struct evmmax_context *ctx, const uint64_t *regs, size_t register_count,
                 size_t source, uint8_t *memory, size_t memory_size, size_t count)
{
    int status = transfer_status(ctx, register_count, source, memory_size, count);
    if (status != EVMMAX_OK)
        return status;
    if (ctx->limbs == 4)
        loadx_elements(ctx, regs, source, memory, count, 4);
    else
        loadx_elements(ctx, regs, source, memory, count, ctx->limbs);
    return EVMMAX_OK;
}
