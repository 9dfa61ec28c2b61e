/* The spec's known-answer vectors and range checks, in C, for builds that
 * cannot run the Python tests: CI cross-compiles this for aarch64 and runs it
 * under qemu-user to prove the portable path there. */
#include <stdio.h>
#include <string.h>

#include "evm384.h"
#include "evm384_block.h"

static const char *KAT_X = "3c119b3934156e9d9a495378725bb6c7fdcd12784743919063f5a383d2d2af117e025fdb0fb03fa723a62a4d6d968d2b";
static const char *KAT_Y = "f1562b8a749c87046d34a6d1101226508bb99a91982faeac365505dc7d9366404d9808a02531e3e80c82cdbab995821e";
static const char *KAT_MOD = "ec1e91ae1c738c60602becdaa2c68049efc48e8efa17054cdfb487bd3ccf137fe7e517dbee90eef07123d231ea794fa5";
static const char *KAT_ADD = "2d68c6c3a8b1f5a1077ef949836ddc178987ad09e0723f3d9a4aa95f50661652cb9a677b35e122903028f807272c104a";
static const char *KAT_MUL = "b0f9fdbafea7416d7d306f04e96da1f87f72296a25bdb9263fbd57a66982d129208bf5683e3191274250b21744c12997";

static void from_hex(uint8_t *out, const char *hex)
{
    for (size_t i = 0; i < strlen(hex) / 2; i++)
        sscanf(hex + 2 * i, "%2hhx", &out[i]);
}

static int failures = 0;

static void expect(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

static const uint64_t BLS12_381_P[6] = {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL,
                                         0x6730d2a0f6b0f624ULL, 0x64774b84f38512bfULL,
                                         0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL};

/* mem[0..end): BLS12-381's p and its inv at 0, pseudo-random bytes after, the `inputs`
 * 48-byte slots from `first` on (48 apart) below p. */
static void random_image(uint8_t *mem, int end, int first, int inputs, uint64_t *state)
{
    uint64_t inv = 1;
    for (int i = 0; i < 6; i++)   /* inv = -p^-1 mod 2^64 by Newton's iteration */
        inv *= 2 - BLS12_381_P[0] * inv;
    inv = 0 - inv;
    for (int i = 0; i < end; i++) {
        *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
        mem[i] = (uint8_t)(*state >> 56);
    }
    for (int k = 0; k < inputs; k++)
        mem[first + 48 * k + 47] &= 0x0f;
    for (int i = 0; i < 6; i++)
        for (int b = 0; b < 8; b++)
            mem[8 * i + b] = (uint8_t)(BLS12_381_P[i] >> (8 * b));
    for (int b = 0; b < 8; b++)
        mem[48 + b] = (uint8_t)(inv >> (8 * b));
}

/* Runs `n` records op by op and, flagged by `flag` in the first, as the fused step, on 200
 * images of `end` bytes (random_image, four inputs from 64): whether the `out_bytes` at
 * `out` agree every time, and whether the 48 bytes at `temporary`, which the step leaves
 * alone, differ every time (so the step did run). */
static void compare_group(const uint32_t *records, int n, uint32_t flag, int end, int out,
                          int out_bytes, int temporary, uint64_t state, int *same,
                          int *fused)
{
    uint32_t grouped[EVM384_FP4_SQUARE_RECORDS * 5];
    uint8_t by_ops[1024], by_group[1024];
    memcpy(grouped, records, sizeof(uint32_t) * 5 * (size_t)n);
    grouped[0] |= flag;
    *same = *fused = 1;
    for (int round = 0; round < 200; round++) {
        random_image(by_ops, end, 64, 4, &state);
        memcpy(by_group, by_ops, (size_t)end);
        *same &= evm384_run_records(by_ops, (size_t)end, records, (size_t)n) == (size_t)n;
        *same &= evm384_run_records(by_group, (size_t)end, grouped, (size_t)n) == (size_t)n;
        *same &= memcmp(by_ops + out, by_group + out, (size_t)out_bytes) == 0;
        *fused &= memcmp(by_ops + temporary, by_group + temporary, 48) != 0;
    }
}

/* The Fp4 squaring's 23 records (fp4_square.h) as one step leave in its four outputs what
 * they leave op by op. Slots: a0 a1 b0 b1 o00 o01 o10 o11 ta0 ta1 tb0 tb1 from 64. */
static void fp4_square_group(void)
{
    enum { A0 = 64, A1 = 112, B0 = 160, B1 = 208, O00 = 256, O01 = 304, O10 = 352, O11 = 400,
           TA0 = 448, TA1 = 496, TB0 = 544, TB1 = 592, END = 640 };
    enum { ADD = EVM384_OP_ADDMOD384, SUB = EVM384_OP_SUBMOD384, MUL = EVM384_OP_MULMODMONT384 };
    const uint32_t ops[EVM384_FP4_SQUARE_RECORDS][5] = {
        {ADD, O00, A0, B0, 0}, {ADD, O01, A1, B1, 0}, {ADD, O10, O00, O01, 0},
        {SUB, O11, O00, O01, 0}, {MUL, O10, O10, O11, 0}, {MUL, O11, O00, O01, 0},
        {ADD, TA0, A0, A1, 0}, {SUB, TA1, A0, A1, 0}, {MUL, TA0, TA0, TA1, 0},
        {MUL, TA1, A0, A1, 0}, {ADD, TB0, B0, B1, 0}, {SUB, TB1, B0, B1, 0},
        {MUL, TB0, TB0, TB1, 0}, {MUL, TB1, B0, B1, 0}, {ADD, TA0, TA0, TB0, 0},
        {ADD, TA1, TA1, TB1, 0}, {SUB, O10, O10, TA0, 0}, {SUB, O11, O11, TA1, 0},
        {ADD, O11, O11, O11, 0}, {ADD, TB1, TB1, TB1, 0}, {SUB, O00, TA0, TB1, 0},
        {ADD, TA1, TA1, TA1, 0}, {ADD, O01, TA1, TB0, 0}};
    int same, fused;    /* the step leaves ta0 alone */
    compare_group(&ops[0][0], EVM384_FP4_SQUARE_RECORDS, EVM384_FP4_SQUARE_GROUP, END, O00,
                  4 * 48, TA0, 0xf4, &same, &fused);
    expect(same, "Fp4 squaring group: its outputs as the 23 ops leave them");
    expect(fused, "Fp4 squaring group: run as one step");
}

/* An Fp2 product group (fp2_product.h: Karatsuba at double width, the kernels of this
 * build) leaves in c1 and c0 what its six records leave op by op, on BLS12-381's p and
 * reduced inputs. */
static void fp2_product_group(void)
{
    enum { A0 = 64, A1 = 112, B0 = 160, B1 = 208, T0 = 256, T1 = 304, T2 = 352, C1 = 400,
           C0 = 448, END = 496 };
    const uint32_t six[6][5] = {
        {EVM384_OP_MULMODMONT384, T0, A0, B0, 0}, {EVM384_OP_MULMODMONT384, T1, A1, B1, 0},
        {EVM384_OP_MULMODMONT384, T2, A0, B1, 0}, {EVM384_OP_MULMODMONT384, C1, A1, B0, 0},
        {EVM384_OP_ADDMOD384, C1, C1, T2, 0}, {EVM384_OP_SUBMOD384, C0, T0, T1, 0}};
    int same, fused;    /* the step leaves t2 alone */
    compare_group(&six[0][0], 6, EVM384_FP2_PRODUCT_GROUP, END, C1, 96, T2, 0x5eed, &same,
                  &fused);
    expect(same, "Fp2 product group: c1 and c0 as the six ops leave them");
    expect(fused, "Fp2 product group: run as Karatsuba");
}

/* An Fp2 squaring group (fp2_square.h: two products of unreduced sums, the kernel of this
 * build) leaves in c1 and c0 what its five records leave op by op. */
static void fp2_square_group(void)
{
    enum { A0 = 64, A1 = 112, T0 = 160, T1 = 208, C1 = 256, C0 = 304, END = 352 };
    const uint32_t five[5][5] = {
        {EVM384_OP_ADDMOD384, T0, A0, A1, 0}, {EVM384_OP_SUBMOD384, T1, A0, A1, 0},
        {EVM384_OP_MULMODMONT384, C1, A0, A1, 0}, {EVM384_OP_ADDMOD384, C1, C1, C1, 0},
        {EVM384_OP_MULMODMONT384, C0, T0, T1, 0}};
    int same, fused;    /* the step leaves t0 alone */
    compare_group(&five[0][0], 5, EVM384_FP2_SQUARE_GROUP, END, C1, 96, T0, 0x5a5a, &same,
                  &fused);
    expect(same, "Fp2 squaring group: c1 and c0 as the five ops leave them");
    expect(fused, "Fp2 squaring group: run as two products");
}

int main(void)
{
    uint8_t mem[152], expected[48];
    printf("implementation: %s\n",
           evm384_current_implementation() == EVM384_IMPL_MULX ? "mulx" : "portable");

    from_hex(mem, KAT_X), from_hex(mem + 48, KAT_Y), from_hex(mem + 96, KAT_MOD);
    memset(mem + 144, 0xff, 8);
    expect(evm384_addmod384_mem(mem, sizeof mem, 0, 0, 48, 96) == EVM384_OK, "ADDMOD384 runs");
    from_hex(expected, KAT_ADD);
    expect(memcmp(mem, expected, 48) == 0, "ADDMOD384 known answer");
    expect(evm384_submod384_mem(mem, sizeof mem, 0, 0, 48, 96) == EVM384_OK, "SUBMOD384 runs");
    from_hex(expected, KAT_X);
    expect(memcmp(mem, expected, 48) == 0, "SUBMOD384 known answer");
    from_hex(mem, KAT_ADD);
    expect(evm384_mulmodmont384_mem(mem, sizeof mem, 0, 0, 48, 96) == EVM384_OK, "MULMODMONT384 runs");
    from_hex(expected, KAT_MUL);
    expect(memcmp(mem, expected, 48) == 0, "MULMODMONT384 known answer (even modulus, garbage inv)");

    expect(evm384_addmod384_mem(mem, sizeof mem, 105, 0, 0, 0) == EVM384_RANGE_OUT, "out past the end");
    expect(evm384_mulmodmont384_mem(mem, sizeof mem, 0, 0, 0, 97) == EVM384_RANGE_MOD, "inv past the end");
    expect(evm384_submod384_mem(mem, sizeof mem, 0, UINT64_MAX, 0, 0) == EVM384_RANGE_X, "huge offset");
    fp2_product_group();
    fp4_square_group();
    fp2_square_group();
    return failures != 0;
}
