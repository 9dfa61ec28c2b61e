"""evmone's EVMMAX vectors, its NTT tests and its Poseidon bytecode, legacy and EOF
(tests/vectors/evmone, SOURCE.md there) through the adapter for its SETMODX variant and value
width (tests/evmone_adapter.py; EOF through tests/eof_legacy.py), on both engines: each gives
evmone's expected output, the engines agree on output and gas, and the Poseidon hash is also
the package's pure-Python Poseidon's and the ``poseidon_t3`` contract's. Then the vectors
of evmone's EVMMAX precompiles (BN254 ECADD, ECMUL; ECRECOVER) through this project's
contracts, on every target they build for and both engines."""
import pytest

from evm384_native import execute
from evm384_native.contracts import run_contract
from evm384_native.evm.kernels.modx_reference import FieldContext
from evm384_native.poseidon.reference import poseidon
from eof_legacy import MAGIC
from evmone_adapter import SETMODX, adapt, spare_last_register
from peer_vectors import VECTORS, Vector, cases, check_both_engines, read_json

EVMONE = read_json(VECTORS / "evmone" / "evmmax.json")
POSEIDON = [v for v in EVMONE if "poseidon" in v["Name"]]
EOF = [v for v in EVMONE if v["Code"].startswith(MAGIC.hex())]
# the vectors whose values evmone moves in another width than this project's registers
WIDENED = [v for v in EVMONE if "Widths" in v]
GAS = 10 ** 8                       # the NTT: ~1.1 million here


def run(vector, engine, widths=True):
    code = adapt(bytes.fromhex(vector["Code"]), vector["Variant"],
                 widths=tuple(vector["Widths"]) if widths and "Widths" in vector else None)
    return execute(code, bytes.fromhex(vector["Input"]), opcodes="evmmax", engine=engine,
                   gas=GAS)


def test_every_vector_is_read():
    assert (len(EVMONE), len(POSEIDON), len(EOF), len(WIDENED)) == (13, 4, 5, 7)
    assert {v["Variant"] for v in EVMONE} == {"evmmax-poseidon", "evmmax-vectorized"}
    assert sum("ntt" in v["Name"] for v in EVMONE) == 3


@pytest.mark.parametrize("vector", EVMONE, ids=lambda v: f"{v['Variant']}:{v['Name']}")
def test_evmone_vectors_on_both_engines(vector):
    fast, python = run(vector, "fast"), run(vector, "python")
    assert fast.success, fast.error
    assert fast.output.hex() == vector["Expected"]
    assert (python.output, python.gas_used, python.success) == (fast.output, fast.gas_used, True)


@pytest.mark.parametrize("vector", WIDENED, ids=lambda v: f"{v['Variant']}:{v['Name']}")
def test_the_widths_are_the_registers_and_the_rewrite_is_needed(vector):
    """This project's width is its register's (8 * limbs of the modulus's value); without the
    width rewrite evmone's values are read in other bytes: another output, or a halt (a
    value not below the modulus)."""
    evmone_width, width = vector["Widths"]
    modulus = bytes.fromhex(vector["Modulus"])
    assert FieldContext.from_bytes(modulus).element_size == width != evmone_width
    result = run(vector, "fast", widths=False)
    assert not result.success or result.output.hex() != vector["Expected"]


def test_the_32_byte_modulus_7_without_the_rewrite_reads_zeros():
    """The modulus 7 declared in 32 bytes: unrewritten, STOREX reads the zero bytes before
    each 32-byte word's value, so the result is 0, not evmone's 6."""
    vector = next(v for v in WIDENED if v["Name"].endswith("evmmax_32bytes_modulus_test"))
    result = run(vector, "fast", widths=False)
    assert result.success and result.output == bytes(32) != bytes.fromhex(vector["Expected"])


def test_the_poseidon_answer_is_the_references_and_the_contracts():
    for vector in POSEIDON:
        data = bytes.fromhex(vector["Input"])
        words = [int.from_bytes(data[i:i + 32], "big") for i in (0, 32)]
        assert poseidon(words).to_bytes(32, "big").hex() == vector["Expected"]
        assert run_contract("poseidon_t3", words, engine="fast").output.hex() == vector["Expected"]


def test_the_variant_matters():
    """evmone-poseidon's SETMODX size is in bits: read as bytes it asks for a 254-byte
    modulus, which SETMODX refuses; and no adapter at all halts at the first STOREX past
    memory or at SETMODX's missing operand."""
    vector = POSEIDON[0]
    code = bytes.fromhex(vector["Code"])
    wrong = execute(adapt(code, "evmmax-vectorized"), bytes.fromhex(vector["Input"]),
                    opcodes="evmmax", engine="fast")
    assert not wrong.success and "SETMODX" in wrong.error, wrong.error
    raw = execute(code, bytes.fromhex(vector["Input"]), opcodes="evmmax", engine="fast")
    assert not raw.success


def test_the_adapter_refuses_what_it_cannot_rewrite():
    with pytest.raises(ValueError, match="jumps"):
        adapt(bytes([0x60, 3, 0x56, 0x5B]), "evmmax-vectorized")
    with pytest.raises(ValueError, match="unknown evmone variant"):
        adapt(b"", "evmmax")
    with pytest.raises(ValueError, match="truncated"):
        adapt(bytes([0xC3, 0, 1]), "evmmax-vectorized")


def test_the_adapter_rewrites_only_setmodx_and_one_element_strides():
    code = bytes([0x60, 0xC0, 0xC3, 2, 0, 1, 0, 0, 0, 1, 0xC5, 2, 1, 1, 1, 0, 1, 3, 0x00])
    out = adapt(code, "evmmax-vectorized", memory=64)
    assert out.startswith(bytes([0x60, 0, 0x62, 0, 0, 63, 0x53]))
    body = out[7:]
    assert body[:2] == bytes([0x60, 0xC0])                          # PUSH data kept
    assert body[2:10] == bytes([0xC3, 2, 1, 1, 0, 0, 0, 1])          # count 1: out stride 1
    assert body[10:18] == bytes([0xC5, 2, 1, 1, 1, 0, 1, 3])         # count 3: unchanged
    assert adapt(bytes([SETMODX]), "evmmax-poseidon").count(SETMODX) == 1


# --- evmone's EVMMAX precompile vectors: BN254 ECADD and ECMUL, ECRECOVER ------------------

PRECOMPILES = [Vector(v["Contract"], v["Name"], bytes.fromhex(v["Input"]),
                      bytes.fromhex(v["Expected"]))
               for v in read_json(VECTORS / "evmone" / "precompiles.json")]


def test_every_precompile_vector_is_read():
    counts = {name: sum(v.contract == name for v in PRECOMPILES)
              for name in ("bn254_add", "bn254_mul", "ecrecover")}
    assert counts == {"bn254_add": 42, "bn254_mul": 90, "ecrecover": 8}
    assert sum(v.expected == b"" for v in PRECOMPILES) == 5          # ECRECOVER's rejections


@pytest.mark.parametrize("vector,target", cases(PRECOMPILES))
def test_evmone_precompile_vectors(vector, target):
    check_both_engines(vector, target)


# --- the last register: evmone's NTT writes register 255 of 256 --------------------------

def test_the_bound_read_here_forbids_writing_the_last_register():
    """SUBMODX 255 (one element, out stride 1) on 256 registers: refused by the EIP's bound
    as read here, which is why the adapter renames evmone's register 255."""
    code = bytes.fromhex("6007600053"            # MSTORE8(0, 7)
                         "610100" "6001" "6000" "6000" "c0"   # SETMODX(id 0, at 0, 1 byte, 256)
                         "c4ff01ff00ff0001" "00")            # SUBMODX 255,1,255,0,255,0,1
    result = execute(code, b"", opcodes="evmmax", engine="fast")
    assert not result.success and "must be below the 256 registers" in result.error


def test_the_ntt_renames_register_255_to_a_register_it_never_touches():
    vector = next(v for v in EVMONE if v["Name"].endswith("nttfw.json"))
    code = bytes.fromhex(vector["Code"])
    renamed = spare_last_register(code)
    changed = [i for i in range(len(code)) if code[i] != renamed[i]]
    assert len(renamed) == len(code) and changed
    assert {code[i] for i in changed} == {255} and len({renamed[i] for i in changed}) == 1
    assert spare_last_register(renamed) == renamed          # 255 no longer written


# evmone-style legacy code writing register 255 (one element), with what makes renaming
# unknowable or impossible
WRITES_255 = bytes.fromhex("c4ff00ff00ff0001")                 # SUBMODX 255,0,255,0,255,0,1


@pytest.mark.parametrize("before,message", [
    (bytes.fromhex("6001" "6000" "36" "c2"), r"without pushed operands at \[5\]"),  # slot: CALLDATASIZE
    (bytes.fromhex("c3fd010001000103"), r"255 inside a range at \[0\]"),  # out 253, 254, 255
    (bytes.fromhex("60ff" "6000" "6000" "c2"), "0 registers free"),  # 255 values from slot 0
])
def test_renaming_register_255_refuses_what_it_cannot_rename(before, message):
    with pytest.raises(ValueError, match=message):
        spare_last_register(before + WRITES_255)


def test_code_that_does_not_write_register_255_is_unchanged():
    code = bytes.fromhex("60ff" "6001" "6000" "c2" "c3fe01ff00ff0001")   # reads 255 only
    assert spare_last_register(code) == code
