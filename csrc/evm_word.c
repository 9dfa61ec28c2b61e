#include "evm_word.h"

#include <string.h>

#include "evm_word_ops.h"

#define WORD_LIMBS 4
#define PRODUCT_LIMBS 8 /* MULMOD's full product */

typedef unsigned __int128 u128;

/* n without the leading zero limbs of x[0..n). */
static int significant_limbs(const uint64_t *x, int n)
{
    while (n > 0 && x[n - 1] == 0)
        n--;
    return n;
}

/* out[0..n) = x[0..n) << s (s < 64): the low n limbs; the bits shifted out of x[n - 1]
 * are the caller's (x[n - 1] >> (64 - s)). */
static void shift_limbs_left(uint64_t *out, const uint64_t *x, int n, unsigned s)
{
    for (int i = n - 1; i > 0; i--)
        out[i] = (x[i] << s) | (s ? x[i - 1] >> (64 - s) : 0);
    out[0] = x[0] << s;
}

/* u[0..n) -= q * v[0..n); the product's carry out of the top limb and the subtraction's
 * borrow, which the caller takes off the limb above. */
static void multiply_subtract(uint64_t *u, uint64_t q, const uint64_t *v, int n,
                              uint64_t *carry_out, uint64_t *borrow_out)
{
    uint64_t carry = 0, borrow = 0;
    for (int i = 0; i < n; i++) {
        u128 product = (u128)q * v[i] + carry;
        carry = (uint64_t)(product >> 64);
        u128 difference = (u128)u[i] - (uint64_t)product - borrow;
        u[i] = (uint64_t)difference;
        borrow = (uint64_t)(difference >> 64) & 1;
    }
    *carry_out = carry;
    *borrow_out = borrow;
}

/* u[0..m) mod v (v != 0), and, when quotient is not NULL, quotient[0..m) = u / v
 * (the caller zeroes it). Knuth's algorithm D (TAOCP 4.3.1) in base 2^64: at most
 * m - 1 quotient digits, each from one 128/64 division and one pass over v. */
static evm_word divide_limbs(const uint64_t *u, int m, const evm_word *v, uint64_t *quotient)
{
    evm_word remainder = {{0, 0, 0, 0}};
    int n = significant_limbs(v->limb, WORD_LIMBS);
    m = significant_limbs(u, m);
    if (m < n) { /* u < v: u has fewer than four significant limbs */
        memcpy(remainder.limb, u, (size_t)m * sizeof(uint64_t));
        return remainder;
    }
    if (n == 1) { /* short division, digit by digit */
        uint64_t d = v->limb[0];
        u128 r = 0;
        for (int i = m - 1; i >= 0; i--) {
            u128 digits = (r << 64) | u[i];
            if (quotient)
                quotient[i] = (uint64_t)(digits / d);
            r = digits % d;
        }
        remainder.limb[0] = (uint64_t)r;
        return remainder;
    }
    /* Normalise: shift both so that v's top limb has its top bit set; then each
     * estimated quotient digit is at most 2 too large. */
    unsigned s = (unsigned)__builtin_clzll(v->limb[n - 1]);
    uint64_t vn[WORD_LIMBS], un[PRODUCT_LIMBS + 1];
    shift_limbs_left(vn, v->limb, n, s);
    un[m] = s ? u[m - 1] >> (64 - s) : 0;
    shift_limbs_left(un, u, m, s);

    for (int j = m - n; j >= 0; j--) {
        u128 top = ((u128)un[j + n] << 64) | un[j + n - 1];
        u128 qhat = top / vn[n - 1];
        u128 rhat = top - qhat * vn[n - 1];
        while ((qhat >> 64) || qhat * vn[n - 2] > ((rhat << 64) | un[j + n - 2])) {
            qhat--;
            rhat += vn[n - 1];
            if (rhat >> 64)
                break;
        }
        /* un[j .. j + n] -= qhat * vn (qhat < 2^64 here: the loop above ends below b) */
        uint64_t carry, borrow;
        multiply_subtract(un + j, (uint64_t)qhat, vn, n, &carry, &borrow);
        u128 difference = (u128)un[j + n] - carry - borrow;
        un[j + n] = (uint64_t)difference;
        if (difference >> 64) { /* qhat was one too large: add v back */
            qhat--;
            u128 sum = 0;
            for (int i = 0; i < n; i++) {
                sum = (u128)un[i + j] + vn[i] + (uint64_t)(sum >> 64);
                un[i + j] = (uint64_t)sum;
            }
            un[j + n] += (uint64_t)(sum >> 64);
        }
        if (quotient)
            quotient[j] = (uint64_t)qhat;
    }
    for (int i = 0; i < n; i++)
        remainder.limb[i] = (un[i] >> s) | (s ? un[i + 1] << (64 - s) : 0);
    return remainder;
}

void evm_word_divmod(const evm_word *a, const evm_word *b, evm_word *quotient,
                     evm_word *remainder)
{
    evm_word q = {{0, 0, 0, 0}}, r = {{0, 0, 0, 0}};
    if (!word_is_zero(b))
        r = divide_limbs(a->limb, WORD_LIMBS, b, q.limb);
    *quotient = q; /* written last: the outputs may alias the inputs */
    *remainder = r;
}

static evm_word word_negate(const evm_word *w)
{
    evm_word zero = {{0, 0, 0, 0}};
    return word_sub(&zero, w);
}

static evm_word word_abs(const evm_word *w)
{
    return word_negative(w) ? word_negate(w) : *w;
}

evm_word evm_word_sdiv(const evm_word *a, const evm_word *b)
{
    evm_word x = word_abs(a), y = word_abs(b), q, r;
    evm_word_divmod(&x, &y, &q, &r);
    return word_negative(a) != word_negative(b) ? word_negate(&q) : q;
}

evm_word evm_word_smod(const evm_word *a, const evm_word *b)
{
    evm_word x = word_abs(a), y = word_abs(b), q, r;
    evm_word_divmod(&x, &y, &q, &r);
    return word_negative(a) ? word_negate(&r) : r;
}

/* --- division by a full-width modulus seen before -------------------------------- */

/* MULMOD by a modulus of four significant limbs divides its 512-bit product as Knuth's
 * algorithm D does, each quotient digit from the top three limbs of the running
 * remainder by a 3-by-2 division with a precomputed reciprocal instead of a 128/64
 * hardware division (__udivti3) and its correction loop: Moller and Granlund, "Improved
 * division by invariant integers", IEEE Trans. Computers 60(2), 2011, algorithm 5.
 * Contracts run long chains of MULMOD by one or two moduli (a field's p, 2^256 - 1's
 * fold aside), so the normalised modulus and its reciprocal are kept per thread for the
 * last two moduli seen. */
struct invariant_divisor {
    evm_word modulus;
    uint64_t normalised[WORD_LIMBS]; /* modulus << shift: the top bit set */
    unsigned shift;
    uint64_t reciprocal; /* floor((2^192 - 1) / (normalised's top two limbs)) - 2^64 */
};

static void invariant_divisor_init(struct invariant_divisor *d, const evm_word *modulus)
{
    d->modulus = *modulus;
    unsigned s = (unsigned)__builtin_clzll(modulus->limb[WORD_LIMBS - 1]);
    d->shift = s;
    shift_limbs_left(d->normalised, modulus->limb, WORD_LIMBS, s);
    /* The top two limbs are at least 2^127, so the quotient lies in [2^64, 2^65). */
    const uint64_t all_ones[3] = {~(uint64_t)0, ~(uint64_t)0, ~(uint64_t)0};
    evm_word top = {{d->normalised[WORD_LIMBS - 2], d->normalised[WORD_LIMBS - 1], 0, 0}};
    uint64_t quotient[3] = {0, 0, 0};
    divide_limbs(all_ones, 3, &top, quotient);
    d->reciprocal = quotient[0];
}

/* The cached divisor for `modulus` (four significant limbs), computed on a miss. */
static const struct invariant_divisor *invariant_divisor_for(const evm_word *modulus)
{
    static __thread struct {
        struct invariant_divisor entry[2];
        int filled; /* entries set, the most recent first */
    } recent;
    struct invariant_divisor *cache = recent.entry;
    for (int i = 0; i < recent.filled; i++) {
        if (memcmp(&cache[i].modulus, modulus, sizeof *modulus) == 0) {
            if (i) { /* most recent first: the other modulus of an alternation stays */
                struct invariant_divisor hit = cache[1];
                cache[1] = cache[0];
                cache[0] = hit;
            }
            return &cache[0];
        }
    }
    cache[1] = cache[0];
    recent.filled = recent.filled < 2 ? recent.filled + 1 : 2;
    invariant_divisor_init(&cache[0], modulus);
    return &cache[0];
}

/* (u2 u1 u0) / (d1 d0) for (u2 u1) < (d1 d0), d1's top bit set: the quotient, and the
 * remainder in *r1, *r0 (Moller-Granlund's algorithm 5, with v the reciprocal). */
static uint64_t divide_3by2(uint64_t u2, uint64_t u1, uint64_t u0, uint64_t d1, uint64_t d0,
                            uint64_t v, uint64_t *r1, uint64_t *r0)
{
    u128 q = (u128)v * u2 + (((u128)u2 << 64) | u1);
    uint64_t q1 = (uint64_t)(q >> 64), q0 = (uint64_t)q;
    uint64_t rem1 = u1 - q1 * d1;
    u128 r = (((u128)rem1 << 64) | u0) - (u128)d0 * q1 - (((u128)d1 << 64) | d0);
    q1++;
    u128 d = ((u128)d1 << 64) | d0;
    if ((uint64_t)(r >> 64) >= q0) {
        q1--;
        r += d;
    }
    if (__builtin_expect(r >= d, 0)) {
        q1++;
        r -= d;
    }
    *r1 = (uint64_t)(r >> 64);
    *r0 = (uint64_t)r;
    return q1;
}

/* x[0..m) mod d's modulus (4 <= m <= 8). The running remainder un[j .. j + 4] shrinks by one limb a
 * digit: the 3-by-2 division gives the digit and the top two limbs, the other two take
 * q * normalised[0..1] off, and a borrow out of them (the digit one too large, rare)
 * adds the divisor back. */
static evm_word reduce_limbs(const uint64_t *x, int m, const struct invariant_divisor *d)
{
    const unsigned s = d->shift;
    uint64_t un[PRODUCT_LIMBS + 1];
    un[m] = s ? x[m - 1] >> (64 - s) : 0;
    shift_limbs_left(un, x, m, s);
    const uint64_t *dn = d->normalised;
    const uint64_t d1 = dn[3], d0 = dn[2];
    /* un[m] < 2^s <= d1 (s < 64, or un[m] = 0): the top four limbs are below the divisor */
    uint64_t n1 = un[m];
    for (int j = m - WORD_LIMBS; j >= 0; j--) {
        /* the remainder so far: n1, un[j + 3 .. j] */
        if (__builtin_expect(n1 == d1 && un[j + 3] == d0, 0)) {
            /* the 3-by-2 division's precondition fails; the digit is 2^64 - 1 */
            uint64_t carry, borrow;
            multiply_subtract(un + j, ~(uint64_t)0, dn, WORD_LIMBS, &carry, &borrow);
            n1 = un[j + 3]; /* n1 - carry - borrow is 0: the window is below 2^64 d */
            continue;
        }
        uint64_t n0, q = divide_3by2(n1, un[j + 3], un[j + 2], d1, d0, d->reciprocal, &n1, &n0);
        uint64_t carry, borrow;
        multiply_subtract(un + j, q, dn, 2, &carry, &borrow);
        u128 low = (u128)n0 - carry - borrow;
        n0 = (uint64_t)low;
        u128 high = (u128)n1 - ((uint64_t)(low >> 64) & 1);
        n1 = (uint64_t)high;
        un[j + 2] = n0;
        if (__builtin_expect((uint64_t)(high >> 64) != 0, 0)) { /* one too large */
            u128 sum = 0;
            for (int i = 0; i < 3; i++) {
                sum = (u128)un[j + i] + dn[i] + (uint64_t)(sum >> 64);
                un[j + i] = (uint64_t)sum;
            }
            n1 += d1 + (uint64_t)(sum >> 64);
        }
        un[j + 3] = n1;
    }
    evm_word remainder;
    for (int i = 0; i < WORD_LIMBS - 1; i++)
        remainder.limb[i] = (un[i] >> s) | (s ? un[i + 1] << (64 - s) : 0);
    remainder.limb[WORD_LIMBS - 1] = un[WORD_LIMBS - 1] >> s;
    return remainder;
}

/* --- ADDMOD and MULMOD --------------------------------------------------------------- */

static int word_is_all_ones(const evm_word *w)
{
    return (w->limb[0] & w->limb[1] & w->limb[2] & w->limb[3]) == ~(uint64_t)0;
}

evm_word evm_word_addmod(const evm_word *a, const evm_word *b, const evm_word *n)
{
    if (word_is_zero(n))
        return word_from_u64(0);
    uint64_t sum[WORD_LIMBS + 1];
    u128 carry = 0;
    for (int i = 0; i < WORD_LIMBS; i++) {
        carry += (u128)a->limb[i] + b->limb[i];
        sum[i] = (uint64_t)carry;
        carry >>= 64;
    }
    sum[WORD_LIMBS] = (uint64_t)carry;
    if (word_less(a, n) && word_less(b, n)) { /* reduced operands: a + b < 2n */
        evm_word s = {{sum[0], sum[1], sum[2], sum[3]}};
        return sum[WORD_LIMBS] || !word_less(&s, n) ? word_sub(&s, n) : s;
    }
    if (n->limb[WORD_LIMBS - 1] != 0) /* BN254's unreduced sums: two digits */
        return reduce_limbs(sum, WORD_LIMBS + 1, invariant_divisor_for(n));
    return divide_limbs(sum, WORD_LIMBS + 1, n, NULL);
}

evm_word evm_word_mulmod(const evm_word *a, const evm_word *b, const evm_word *n)
{
    if (word_is_zero(n))
        return word_from_u64(0);
    uint64_t product[PRODUCT_LIMBS] = {0};
    for (int i = 0; i < WORD_LIMBS; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < WORD_LIMBS; j++) {
            u128 t = (u128)a->limb[i] * b->limb[j] + product[i + j] + carry;
            product[i + j] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
        product[i + WORD_LIMBS] = carry;
    }
    if (word_is_all_ones(n)) { /* 2^256 = 1 mod n: low + high, folded once more */
        evm_word low = {{product[0], product[1], product[2], product[3]}};
        evm_word high = {{product[4], product[5], product[6], product[7]}};
        evm_word sum = word_add(&low, &high);
        if (word_less(&sum, &low)) /* the carry out is 2^256 = 1: no second carry */
            sum = word_add(&sum, &(evm_word){{1, 0, 0, 0}});
        return word_is_all_ones(&sum) ? word_from_u64(0) : sum;
    }
    if (n->limb[WORD_LIMBS - 1] != 0)
        return reduce_limbs(product, PRODUCT_LIMBS, invariant_divisor_for(n));
    return divide_limbs(product, PRODUCT_LIMBS, n, NULL);
}

unsigned evm_word_byte_length(const evm_word *w)
{
    return (word_bit_length(w) + 7) / 8;
}

evm_word evm_word_exp(const evm_word *base, const evm_word *exponent)
{
    evm_word result = word_from_u64(1), power = *base; /* power = base^(2^i) */
    unsigned bits = word_bit_length(exponent);
    for (unsigned i = 0; i < bits; i++) {
        if ((exponent->limb[i / 64] >> (i % 64)) & 1)
            result = word_mul(&result, &power);
        if (i + 1 < bits)
            power = word_mul(&power, &power);
    }
    return result;
}
