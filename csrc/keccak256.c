/* Keccak-256 written from the Keccak reference (FIPS 202 section 3 permutation,
 * rate 1088 bits, Keccak's pad10*1 with domain bits 0x01). Lanes are indexed
 * x + 5 * y and read and written little-endian. */
#include "keccak256.h"

#include <string.h>

#include "limbs384.h" /* load_le64, store_le64 */

#define KECCAK_ROUNDS 24
#define RATE_BYTES 136

/* iota: from the LFSR x^8 + x^6 + x^5 + x^4 + 1 */
static const uint64_t round_constants[KECCAK_ROUNDS] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho: rotation of lane x + 5 * y */
static const unsigned rotations[25] = {
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
};

static inline uint64_t rotl64(uint64_t v, unsigned r)
{
    return r ? (v << r) | (v >> (64 - r)) : v;
}

static void keccak_f1600(uint64_t a[25])
{
    for (int round = 0; round < KECCAK_ROUNDS; round++) {
        uint64_t c[5], b[25];
        for (int x = 0; x < 5; x++) /* theta */
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int x = 0; x < 5; x++) {
            uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5)
                a[x + y] ^= d;
        }
        for (int x = 0; x < 5; x++) /* rho and pi: B[y, 2x + 3y] = rot(A[x, y]) */
            for (int y = 0; y < 5; y++)
                b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(a[x + 5 * y], rotations[x + 5 * y]);
        for (int y = 0; y < 25; y += 5) /* chi */
            for (int x = 0; x < 5; x++)
                a[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
        a[0] ^= round_constants[round]; /* iota */
    }
}

static void absorb_block(uint64_t a[25], const uint8_t *block)
{
    for (int i = 0; i < RATE_BYTES / 8; i++)
        a[i] ^= load_le64(block + 8 * i);
    keccak_f1600(a);
}

void evm_keccak256(const uint8_t *data, size_t len, uint8_t *out)
{
    uint64_t a[25] = {0};
    for (; len >= RATE_BYTES; data += RATE_BYTES, len -= RATE_BYTES)
        absorb_block(a, data);
    uint8_t last[RATE_BYTES] = {0};
    if (len)
        memcpy(last, data, len);
    last[len] ^= 0x01;
    last[RATE_BYTES - 1] ^= 0x80;
    absorb_block(a, last);
    for (int i = 0; i < 4; i++)
        store_le64(out + 8 * i, a[i]);
}
