"""evmone's EVMMAX vectors and its Poseidon bytecode (tests/vectors/evmone, SOURCE.md there)
through the adapter for its SETMODX variant (tests/evmone_adapter.py), on both engines: each
gives evmone's expected output, the engines agree on output and gas, and the Poseidon hash is
also the package's pure-Python Poseidon's and the ``poseidon_t3`` contract's. Then the vectors
of evmone's EVMMAX precompiles (BN254 ECADD, ECMUL; ECRECOVER) through this project's
contracts, on every target they build for and both engines."""
import pytest

from evm384_native import execute
from evm384_native.contracts import run_contract
from evm384_native.evm.kernels.modx_reference import FieldContext
from evm384_native.poseidon.reference import poseidon
from evmone_adapter import SETMODX, adapt
from peer_vectors import VECTORS, Vector, cases, check_both_engines, read_json

EVMONE = read_json(VECTORS / "evmone" / "evmmax.json")
POSEIDON = [v for v in EVMONE if "poseidon" in v["Name"]]
# Vectors no rewrite can carry: a 32-byte SETMODX size for the modulus 7. Both evmone branches
# size the values from the declared size (32 bytes); EIP-6690 as read here from the modulus's
# value (8 bytes, docs/evmmax.md "Element size"), so STOREX reads other bytes as the values.
DIVERGENT = {"test/unittests/evmmax_instructions_test.cpp::evmmax_32bytes_modulus_test"}


def run(vector, engine):
    code = adapt(bytes.fromhex(vector["Code"]), vector["Variant"])
    return execute(code, bytes.fromhex(vector["Input"]), opcodes="evmmax", engine=engine)


def test_every_vector_is_read():
    assert len(EVMONE) == 6 and len(POSEIDON) == 2
    assert {v["Variant"] for v in EVMONE} == {"evmmax-poseidon", "evmmax-vectorized"}


@pytest.mark.parametrize("vector", [v for v in EVMONE if v["Name"] not in DIVERGENT],
                         ids=lambda v: f"{v['Variant']}:{v['Name']}")
def test_evmone_vectors_on_both_engines(vector):
    fast, python = run(vector, "fast"), run(vector, "python")
    assert fast.success, fast.error
    assert fast.output.hex() == vector["Expected"]
    assert (python.output, python.gas_used, python.success) == (fast.output, fast.gas_used, True)


@pytest.mark.parametrize("vector", [v for v in EVMONE if v["Name"] in DIVERGENT],
                         ids=lambda v: v["Variant"])
def test_the_divergent_vectors_differ_by_the_value_width(vector):
    """The width here is 8 bytes for the modulus 7 whatever SETMODX's size, so STOREX reads
    the zero bytes before each 32-byte word's value: the result is 0, not evmone's 6."""
    assert FieldContext.from_bytes((7).to_bytes(32, "big")).element_size == 8
    result = run(vector, "fast")
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
