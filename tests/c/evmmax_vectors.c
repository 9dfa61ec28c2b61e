/* EVMMAX kernels: known answers at several limb counts (odd and power-of-two
 * moduli), the EIP's overlapping-vector rule and the status codes, in C, so that
 * CI can run them on aarch64 under qemu-user (the portable path) as well.
 * Expected values are canonical results from Python integers:
 * (x + y) % m, (x - y) % m and x * y % m, all big-endian hex of the element size. */
#include <stdio.h>
#include <string.h>

#include "evm384.h"
#include "evmmax.h"

struct known_answer {
    const char *modulus, *x, *y, *sum, *difference, *product;
};

static const struct known_answer CASES[] = {
    {"0000000000000003",
     "0000000000000002",
     "0000000000000001",
     "0000000000000000",
     "0000000000000001",
     "0000000000000002"},
    {"ffffffffffffffc5",
     "2474f1d524d0047e",
     "01f71656cead428d",
     "266c082bf37d470b",
     "227ddb7e5622c1f1",
     "4dc4c5004751466e"},
    {"000000000000000400000000000000000000000000000000",
     "0000000000000001203e142d8e56b24dc5ba05b6e5a3d5a8",
     "000000000000000254cee217f41b11b01e010677d81d214c",
     "0000000000000003750cf6458271c3fde3bb0c2ebdc0f6f4",
     "0000000000000002cb6f32159a3ba09da7b8ff3f0d86b45c",
     "0000000000000003d7345f536523660cc142c6d33f3615e0"},
    {"7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed",
     "077e1e9f70b11dc4d4c9bb41186e8a22101298f31ee6fa217600fe276f11b21d",
     "2b39c6beb8f8035652de8c2efb6f7e29db0e9200bb21983b932de516de33d57c",
     "32b7e55e29a9211b27a8477013de084beb212af3da08925d092ee33e4d458799",
     "5c4457e0b7b91a6e81eb2f121cff0bf8350406f263c561e5e2d3191090dddc8e",
     "02d94735b9977e2f6d2fafdc13065987c082372e2ce86538dd8419c2492d88d3"},
    {"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
     "01e68e87e5093168e2ef37ed71261c9f0417682fea73d84d09ff8f3d54c099ec646e2ddafbafb26c294eb91717465e2d",
     "02ad3f52233613df019d9d6e65660b11f5b33972d090cdb72e2e0591ee367890d95b08b640a90494477dd845a57e1778",
     "0493cdda083f4547e48cd55bd68c27b0f9caa1a2bb04a604382d94cf42f7127d3dc936913c58b70070cc915cbcc475a5",
     "193a611ffb5304242c6d42354f0bbe6472db7a420d681d5543025c4c5d3b177fa9bf25236c5aadd79bcfe0d171c7f160",
     "050f592b1716c22213a96f8e40a3f65356ecc6367dfd9af97cf210db8aca55a526bcf00c06de7ea60f4197ff3d6da835"},
    {"00000000000001ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
     "00000000000000854e92efbaea8707e82b6de4eea4764b70abf87ce56cc88359f8ebeab90b5245036ca66dbc9e67ead7878e45c81b63a83e6f863f2d6b26cdfdf035e01f0749b23a",
     "00000000000001b0ee1a2723534d00d3c9e3c854224acd55b29da7e8152d8571eeea88002863e4b17dd2354f7519b54a1ef8d5e843b00337c1ec44cabfbf313c77857877d24dcbeb",
     "00000000000000363cad16de3dd408bbf551ad42c6c118c65e9624cd81f608cbe7d672b933b629b4ea78a30c1381a021a6871bb05f13ab76317283f82ae5ff3a67bb5896d9977e26",
     "00000000000000d46078c897973a0714618a1c9a822b7e1af95ad4fd579afde80a0162b8e2ee6051eed4386d294e358d68956fdfd7b3a506ad99fa62ab679cc178b067a734fbe64e",
     "000000000000011c548e6e9f9c9980773c2a4da92c0b7ff6eae9859007636e34f779cdcb8e88ea96ccd56f432b9f93d8e0dbb311935e3cc8a97324601bc9fee2669c621bff9c404a"},
    {"f973dd1cfa855ddbb91708f6c521bf2bae2951ba482f474e6c4a07affcc077e6ba46bb957472acd09c08940cbfa7f1f3cb74b8cf8be8f1e5675fc7943044626bca6c01e0ca0f94a094717b547e163b2894f350e828967bba683ad727b27e4ca7",
     "5fb8b89dd5d32f12a382630ef6a9063995b0767d5d1a95f5f12e728107510efae6bbc740b0b78974cea842b02fb653599812b5d078ce1da9478a689ee9c1fe354114b6efc581aa2bfb5c679e1cf2d602a8685273588f02de4efa90549ea6d812",
     "28b15042082b70e752fa22131cd8508a18326f0b51ef9794a5c3668f58a257408c9a458cd33c04642a4255152572b85c2183312ab698eced719cb487dcab1983bdd455a4d5acd3ae1c163d0e35bb6e9c9456f0a6c46220f16c8ae6c80ab339bd",
     "886a08dfddfe9ff9f67c8522138156c3ade2e588af0a2d8a96f1d9105ff3663b73560ccd83f38dd8f8ea97c555290bb5b995e6fb2f670a96b9271d26c66d17b8fee90c949b2e7dda1772a4ac52ae449f3cbf431a1cf123cfbb85771ca95a11cf",
     "3707685bcda7be2b508840fbd9d0b5af7d7e07720b2afe614b6b0bf1aeaeb7ba5a2181b3dd7b8510a465ed9b0a439afd768f84a5c23530bbd5edb4170d16e4b18340614aefd4d67ddf462a8fe7376766141161cc942ce1ece26fa98c93f39e55",
     "d4ea05bd1dd27e4ee3fda6be88e5b7f853672f49dfef88a13d3f80acae7b67cc6e07cbde97467f547912e0dae70ab3fb73ccaf22da140e596ce56d5eebc231b416412650bb81cdc98514417ad7d8112c684474860c547acbd9495a8310d29edf"},
    {"800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000",
     "6f1e3d66d5956756768dfd2eea72927aa036daef4f385689993bf29b6b14e69a5c9345bcb568d668b28394b97d7f7a408b9f3ae0b631b6041d49baf4cf62d4524744b1186365e6cc6e7d2fcd07e45523ceb3b22c5ee0380461cac405dce6e831",
     "3ed73ee256a30626a1093b8139c23c89a86e10287f56fe3211e723051dc1c0b7e520859c3d61d3ecca707a37b731f765c8b9099f6f7b5446d9bcf709b90677f3fd990b2edda5ff5097213350c12dcb1ef27f9598b6e59d44494ded2f8b5b4e76",
     "2df57c492c386d7d179738b02434cf0448a4eb17ce8f54bbab2315a088d6a75241b3cb58f2caaa557cf40ef134b171a65458448025ad0a4af706b1fe88694c4644ddbc47410be61d059e631dc9122042c13347c515c5d548ab18b135684236a7",
     "3046fe847ef2612fd584c1adb0b055f0f7c8cac6cfe158578754cf964d5325e27772c0207807027be8131a81c64d82dac2e6314146b661bd438cc3eb165c5c5e49aba5e985bfe77bd75bfc7c46b68a04dc341c93a7fa9ac0187cd6d6518b99bb",
     "713d96d78feac4c7f140b0b8666d04d462ea3046fe61d3205ecd986dc757b05f0a465d332e00853605084d570002177bb6fb823968efeeee1d65e7e7e7929c3ef381ed0911bd6d0ed5e326af03da6537758d807478187196db4e08285198f496"},
};

#define MAX_BYTES (8 * EVMMAX_MAX_LIMBS)
#define REGISTERS 6

static int failures = 0;

static void expect(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    failures += !ok;
}

static size_t from_hex(uint8_t *out, const char *hex)
{
    size_t size = strlen(hex) / 2;
    for (size_t i = 0; i < size; i++)
        sscanf(hex + 2 * i, "%2hhx", &out[i]);
    return size;
}

/* registers 0, 1 = x, y; 2, 3, 4 = x + y, x - y, x * y; LOADX gives them back. */
static void check_known_answer(const struct known_answer *c)
{
    struct evmmax_context ctx;
    uint8_t modulus[MAX_BYTES], memory[3 * MAX_BYTES], expected[MAX_BYTES];
    uint64_t regs[REGISTERS * EVMMAX_MAX_LIMBS] = {0};
    size_t size = from_hex(modulus, c->modulus);
    expect(evmmax_setup(&ctx, modulus, size) == EVMMAX_OK, "SETMODX");
    expect(8 * ctx.limbs == size, "element size");
    from_hex(memory, c->x);
    from_hex(memory + size, c->y);
    expect(evmmax_storex(&ctx, regs, REGISTERS, 0, memory, 2 * size, 2) == EVMMAX_OK, "STOREX");
    for (int op = EVMMAX_OP_ADD; op <= EVMMAX_OP_MUL; op++)
        expect(evmmax_vector_op(&ctx, op, regs, REGISTERS, (uint8_t)(2 + op), 1, 0, 1, 1, 1, 1)
               == EVMMAX_OK, "arithmetic runs");
    expect(evmmax_loadx(&ctx, regs, REGISTERS, 2, memory, sizeof memory, 3) == EVMMAX_OK, "LOADX");
    static const char *const ANSWER_NAMES[] = {"ADDMODX", "SUBMODX", "MULMODX"};
    const char *answers[] = {c->sum, c->difference, c->product};
    for (int i = 0; i < 3; i++) {
        from_hex(expected, answers[i]);
        printf("%zu limbs, ", size / 8);
        expect(memcmp(memory + i * size, expected, size) == 0, ANSWER_NAMES[i]);
    }
}

/* r[i+1] = r[i] + r[i] for i < 3 must read the old r[1], r[2]: 1,2,3,4 -> 1,2,4,6. */
static void check_overlap_and_statuses(void)
{
    struct evmmax_context ctx;
    const uint8_t seven[] = {7}, even[] = {6}, two[] = {2}, memory[] = {0, 0, 0, 0, 0, 0, 0, 7};
    uint8_t values[4 * 8] = {0};
    uint64_t regs[5] = {0};
    for (int i = 0; i < 4; i++)
        values[8 * i + 7] = (uint8_t)(i + 1);
    expect(evmmax_setup(&ctx, seven, 1) == EVMMAX_OK, "SETMODX 7");
    expect(evmmax_storex(&ctx, regs, 5, 0, values, sizeof values, 4) == EVMMAX_OK, "STOREX");
    expect(evmmax_vector_op(&ctx, EVMMAX_OP_ADD, regs, 5, 1, 1, 0, 1, 0, 1, 3) == EVMMAX_OK, "overlap runs");
    expect(evmmax_loadx(&ctx, regs, 5, 0, values, sizeof values, 4) == EVMMAX_OK, "LOADX");
    expect(values[7] == 1 && values[15] == 2 && values[23] == 4 && values[31] == 6,
           "overlapping vector reads the old values");

    expect(evmmax_setup(&ctx, even, 1) == EVMMAX_MODULUS_EVEN, "even modulus");
    expect(evmmax_setup(&ctx, two, 1) == EVMMAX_MODULUS_TOO_SMALL, "modulus 2");
    expect(evmmax_setup(&ctx, values, 97) == EVMMAX_MODULUS_TOO_LONG, "97-byte modulus");
    expect(evmmax_setup(&ctx, seven, 1) == EVMMAX_OK, "SETMODX 7 again");
    expect(evmmax_vector_op(NULL, 0, regs, 5, 0, 1, 0, 1, 0, 1, 1) == EVMMAX_NO_CONTEXT, "no context");
    expect(evmmax_vector_op(&ctx, 0, regs, 5, 0, 1, 0, 1, 0, 1, 0) == EVMMAX_COUNT_ZERO, "count 0");
    expect(evmmax_vector_op(&ctx, 0, regs, 5, 0, 0, 0, 1, 0, 1, 1) == EVMMAX_OUT_STRIDE_ZERO, "out_stride 0");
    expect(evmmax_vector_op(&ctx, 0, regs, 5, 4, 1, 0, 1, 0, 1, 1) == EVMMAX_RANGE_OUT, "out: 4 + 1 >= 5");
    expect(evmmax_vector_op(&ctx, 0, regs, 5, 0, 1, 255, 0, 0, 1, 1) == EVMMAX_RANGE_X, "x past the end");
    expect(evmmax_vector_op(&ctx, 0, regs, 5, 0, 1, 0, 0, 0, 255, 1) == EVMMAX_RANGE_Y, "y past the end");
    expect(evmmax_storex(&ctx, regs, 5, 4, memory, sizeof memory, 2) == EVMMAX_RANGE_REGISTERS, "STOREX past the end");
    expect(evmmax_storex(&ctx, regs, 5, 0, memory, sizeof memory, 1) == EVMMAX_NOT_REDUCED, "STOREX 7 mod 7");
    expect(evmmax_loadx(&ctx, regs, 5, 0, values, 15, 2) == EVMMAX_MEMORY_TOO_SHORT, "LOADX memory too short");
}

/* evmmax_vector_run: its records in order, stopping at the first that fails. */
static void check_vector_run(void)
{
    struct evmmax_context ctx;
    const uint8_t seven[] = {7};
    uint8_t values[4 * 8] = {0};
    uint64_t regs[6] = {0};
    for (int i = 0; i < 4; i++)
        values[8 * i + 7] = (uint8_t)(i + 1);               /* 1, 2, 3, 4 */
    /* r4 = r1 * r2 = 6; r0 = r4 + r3 = 10 = 3 (mod 7); r1 = r0 - r4 = -3 = 4; then out
     * r5, past the EIP's bound for 6 registers (5 + 1 * 1 >= 6) */
    const char program[] = {EVMMAX_OP_MUL, 4, 1, 1, 1, 2, 1, 1,
                            EVMMAX_OP_ADD, 0, 1, 4, 1, 3, 1, 1,
                            EVMMAX_OP_SUB, 1, 1, 0, 1, 4, 1, 1,
                            EVMMAX_OP_ADD, 5, 1, 0, 1, 0, 1, 1};
    expect(EVMMAX_RECORD_BYTES == 8, "8-byte records");
    expect(evmmax_setup(&ctx, seven, 1) == EVMMAX_OK, "SETMODX 7");
    expect(evmmax_storex(&ctx, regs, 6, 0, values, sizeof values, 4) == EVMMAX_OK, "STOREX");
    expect(evmmax_vector_run(&ctx, regs, 6, program, 4) == EVMMAX_RANGE_OUT, "run stops at r5");
    expect(evmmax_loadx(&ctx, regs, 6, 0, values, sizeof values, 4) == EVMMAX_OK, "LOADX");
    expect(values[7] == 3 && values[15] == 4 && values[23] == 3 && values[31] == 4,
           "a vector run's operations in order");
    /* the first three again, bounded: their largest operand end is 5 (r4's), below 6 */
    expect(evmmax_vector_run_bounded(&ctx, regs, 6, program, 3, 6) == EVMMAX_RANGE_REGISTERS,
           "bounded run refuses an end at the register count");
    expect(evmmax_vector_run_bounded(&ctx, regs, 6, program, 3, 5) == EVMMAX_OK, "bounded run");
    expect(evmmax_loadx(&ctx, regs, 6, 0, values, sizeof values, 2) == EVMMAX_OK, "LOADX");
    /* r4 = r1 * r2 = 4 * 3 = 5; r0 = r4 + r3 = 9 = 2; r1 = r0 - r4 = -3 = 4 */
    expect(values[7] == 2 && values[15] == 4, "a bounded run's operations in order");
}

int main(void)
{
    for (int implementation = EVM384_IMPL_PORTABLE; implementation <= EVM384_IMPL_MULX; implementation++) {
        if (evm384_select_implementation(implementation) < 0)
            continue;
        printf("implementation: %s\n", implementation == EVM384_IMPL_MULX ? "mulx" : "portable");
        for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
            check_known_answer(&CASES[i]);
        check_overlap_and_statuses();
        check_vector_run();
    }
    return failures != 0;
}
