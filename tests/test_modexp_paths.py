"""The MODEXP contract's own paths for plain EVM (evm384_native/modexp): the written-out
chains for the known (modulus, exponent) pairs, the small path's windows, and the gas
figures docs/modexp.md quotes (the floor arithmetic included), against Python's pow."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.curves.bn254 import BN254
from evm384_native.modexp import chains
from evm384_native.modexp.contracts import PATHS, Paths, program_for
from evm384_native.modexp.reference import encode, modexp
from evm384_native.tower import word_power

P, R = BN254.p, BN254.r


def run(data, paths=PATHS["evm"], engine="fast"):
    return execute(program_for(paths, "evm").code, data, opcodes="evm", engine=engine)


@given(st.integers(1, 2**256 - 1), st.integers(1, 7))
@settings(max_examples=60, deadline=None)
def test_window_steps_rebuild_the_exponent(exponent, width):
    first, steps = word_power.window_steps(exponent, width)
    value = first
    for step in steps:
        value = value * 2 if step == word_power.SQUARE else value + step
        assert step == word_power.SQUARE or (step % 2 == 1 and step < 1 << width)
    assert value == exponent


@pytest.mark.parametrize("modulus, exponent", chains.KNOWN)
def test_each_chain_answers_pow(modulus, exponent):
    rng = random.Random(exponent)
    bases = [0, 1, 2, modulus - 1, modulus, modulus + 1, 2**256 - 1] + \
        [rng.randrange(modulus) for _ in range(20)]
    for base in bases:
        data = encode(base, exponent, modulus, 32, 32, 32)
        result = run(data)
        assert result.success and result.output == pow(base, exponent, modulus).to_bytes(32, "big")
    python = run(encode(bases[-1], exponent, modulus, 32, 32, 32), engine="python")
    assert (python.output, python.gas_used) == (result.output, result.gas_used)


def test_the_chain_is_taken_only_for_its_exact_pair():
    """A near miss (another exponent, modulus or length) runs the generic path, right."""
    for data in (encode(3, P - 3, P, 32, 32, 32), encode(3, P - 2, P + 2, 32, 32, 32),
                 encode(3, P - 2, P, 32, 33, 32), encode(3, R - 2, P, 32, 32, 32)):
        result = run(data)
        assert result.success and result.output == modexp(data)


def test_the_gas_docs_modexp_quotes():
    data = encode(5, P - 2, P, 32, 32, 32)
    assert run(data).gas_used == 4_776                                  # the chain
    generic = run(data, Paths())
    assert generic.output == run(data).output and generic.gas_used == 6_397
    # the floor of a generic window method (docs/modexp.md): 253 squarings at 14 gas, and
    # the least of 29 ceil(253 / w) + 26 (2^w - 2) over w
    windows = {w: 29 * -(-253 // w) + 26 * (2**w - 2) for w in range(1, 9)}
    assert 253 * 14 == 3_542 and min(windows.values()) == windows[4] == 2_220
    assert windows[5] == 2_259 and 3_542 + 2_220 == 5_762


def test_the_shapes_table_of_the_readme():
    """README's MODEXP table: each row's gas on both targets and both prices, recomputed
    from tests/modexp_cases.py's shapes (the inputs bench/modexp_table.py measures)."""
    from pathlib import Path

    import modexp_cases
    from evm384_native.contracts import build_contract
    from evm384_native.modexp.reference import price_eip2565, price_eip7883
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    section = readme.split("## MODEXP")[1].split("\n## ")[0]
    rows = {cells[0]: cells[1:] for cells in (
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in section.splitlines() if line.startswith("| ") and "---" not in line)
        if cells[0] != "input"}
    shapes = {case.name: case.data for case in modexp_cases.shapes()}
    assert set(rows) == set(shapes)
    for name, (_, plain, evmmax, eip7883, eip2565) in rows.items():
        data = shapes[name]
        gas = [execute(build_contract("modexp", target=t), data, opcodes=t, engine="fast",
                       gas=2**32) for t in ("evm", "evmmax")]
        assert all(result.output == modexp(data) for result in gas), name
        assert [f"{value:,}" for value in (gas[0].gas_used, gas[1].gas_used,
                                           price_eip7883(data), price_eip2565(data))] == \
            [plain, evmmax, eip7883, eip2565], name
