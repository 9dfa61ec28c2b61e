"""The plain-EVM target (target="evm", opcodes="evm"): every contract built for it answers as
its EVMMAX build on random valid inputs, false relations and malformed input (the same
output, the same failures), on both engines with the same gas; Poseidon's hashes against the
reference and circomlib's published values; what it refuses. The contracts' own suites run
it against the independent oracles too (tests/test_bn254_contracts.py: go-ethereum's
vectors, py-evm, revm, py_ecc; tests/test_wycheproof_ecdsa.py and tests/test_p256.py:
Wycheproof, OpenSSL, coincurve)."""
import random
from pathlib import Path

import pytest

from evm384_native import bls12_381, execute
from evm384_native.asm import Assembler
from evm384_native.asm.disasm import disassemble
from evm384_native.contracts import BUILT_FOR, USAGE, build_contract, build_program, targets_of
from evm384_native.curves import BLS12_381
from evm384_native.poseidon import poseidon
from evm384_native.poseidon.contracts import hash_words
from evm384_native.poseidon.params import R
from evm384_native.tower.contract import CONTRACT_SIZE_LIMIT
from evm384_native.tower.fp import Emitter
from evm384_native.tower.targets import TARGETS

PLAIN = BUILT_FOR["evm"]
BLS12_381_CONTRACTS = set(bls12_381.CONTRACTS)
# fast on the python engine (BLS12-381's plain builds run millions of gas: their python-engine
# runs are tests/test_target_evm_wide.py's and the peers' suites' samples)
CHEAP = tuple(name for name in PLAIN if "pairing" not in name and name not in BLS12_381_CONTRACTS)


def _run(name, target, data, engine="fast"):
    # BLS12-381's checks and MSMs on plain EVM take more than a block's gas
    return execute(build_contract(name, target=target), data, opcodes=target, engine=engine,
                   gas=1 << 34)


def _inputs(name, rng):
    """Valid inputs (true and false relations), then byte flips and truncations of them."""
    usage = USAGE[name]
    k = min(usage.example_k, 2)
    good = [usage.example(rng, k, truth) for truth in (True, False)]
    flipped = []
    for data in good:
        data = bytearray(data)
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        flipped.append(bytes(data))
    return good + flipped + [good[0][:-1], good[0] + b"\0", b""]


@pytest.mark.parametrize("name", PLAIN)
def test_plain_evm_builds_answer_as_the_evmmax_builds(name):
    assert len(build_contract(name, target="evm")) <= CONTRACT_SIZE_LIMIT
    rng = random.Random(name)
    for data in _inputs(name, rng):
        plain, evmmax = _run(name, "evm", data), _run(name, "evmmax", data)
        assert (plain.success, plain.output, plain.error) == \
            (evmmax.success, evmmax.output, evmmax.error), data.hex()


@pytest.mark.parametrize("name", CHEAP)
def test_both_engines_agree_on_output_and_gas(name):
    rng = random.Random(1)
    for data in _inputs(name, rng)[:3]:
        fast, python = _run(name, "evm", data), _run(name, "evm", data, engine="python")
        assert (fast.success, fast.output, fast.gas_used, fast.steps) == \
            (python.success, python.output, python.gas_used, python.steps)


@pytest.mark.parametrize("t", (2, 3, 4, 5))
def test_poseidon_hashes_as_the_reference(t):
    rng = random.Random(t)
    for inputs in ([0] * (t - 1), [R - 1] * (t - 1),
                   [rng.randrange(R) for _ in range(t - 1)]):
        result = _run(f"poseidon_t{t}", "evm", hash_words(inputs))
        assert result.success and int.from_bytes(result.output, "big") == poseidon(inputs)


def test_circomlibs_published_hash():
    # circomlibjs' test vector poseidon([1, 2])
    expected = 0x115CC0F5E7D690413DF64C6B9662E9CF2A3617F2743245519E19607A4417189A
    result = _run("poseidon_t3", "evm", hash_words([1, 2]))
    assert int.from_bytes(result.output, "big") == expected


def test_the_target_is_data():
    assert TARGETS["evm"].opcodes == "evm"
    assert "evm" in targets_of("p256verify") and "evm" in targets_of("bn254_add")
    with pytest.raises(ValueError, match="built for EVM384 only, not 'evm'"):
        build_contract("miller_loop", target="evm")


def test_fields_wider_than_a_word_are_refused():
    target = TARGETS["evm"]
    asm = Assembler("t", memory=target.new_memory(), opcodes="evm")
    with pytest.raises(ValueError, match="up to 256 bits; this field's p has 381"):
        Emitter(asm, BLS12_381, target=target)


def test_code_has_only_mainnet_instructions():
    """Every instruction of the plain-EVM builds' code (before their data) is mainnet's at
    Osaka: none of EVMMAX's or EVM384's bytes (undefined there) appears as one."""
    for name in PLAIN:
        program = build_program(name, target="evm")
        names = {ins.name for ins in disassemble(program.code, program.code_size, "evm")}
        assert not [n for n in names if n.startswith("UNKNOWN")], (name, names)


def test_readme_ratios_follow_from_its_gas_columns():
    """README's "Plain EVM" table: its gas columns are what `evm384 gas` prints
    (tests/test_readme_figures.py); its ratios must follow from them."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## Plain EVM")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    assert {row.split("`")[1] for row in rows} >= {"p256verify", "ecrecover", "bn254_mul"}
    number = (lambda cell: None if cell == "-" else float(cell.replace(",", "")))  # noqa: E731
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if len(cells) == 6:                 # plain, EVMMAX, precompile and two ratios
            plain, evmmax, precompile, by_evmmax, by_precompile = map(number, cells[1:])
            assert by_evmmax == round(plain / evmmax, 1), row
            assert by_precompile == (None if precompile is None
                                     else round(plain / precompile, 1)), row
        else:                               # BLS12-381's: EVM384 too, whole ratios
            plain, *others = map(number, cells[1:5])
            assert [number(cell) for cell in cells[5:]] == [round(plain / other)
                                                            for other in others], row
