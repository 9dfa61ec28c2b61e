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
    for (int i = n - 1; i > 0; i--)
        vn[i] = (v->limb[i] << s) | (s ? v->limb[i - 1] >> (64 - s) : 0);
    vn[0] = v->limb[0] << s;
    un[m] = s ? u[m - 1] >> (64 - s) : 0;
    for (int i = m - 1; i > 0; i--)
        un[i] = (u[i] << s) | (s ? u[i - 1] >> (64 - s) : 0);
    un[0] = u[0] << s;

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
        /* un[j .. j + n] -= qhat * vn */
        uint64_t carry = 0, borrow = 0;
        for (int i = 0; i < n; i++) {
            u128 product = qhat * vn[i] + carry;
            carry = (uint64_t)(product >> 64);
            u128 difference = (u128)un[i + j] - (uint64_t)product - borrow;
            un[i + j] = (uint64_t)difference;
            borrow = (uint64_t)(difference >> 64) & 1;
        }
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
