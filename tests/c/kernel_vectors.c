/* The spec's known-answer vectors and range checks, in C, for builds that
 * cannot run the Python tests: CI cross-compiles this for aarch64 and runs it
 * under qemu-user to prove the portable path there. */
#include <stdio.h>
#include <string.h>

#include "evm384.h"

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
    return failures != 0;
}
