"""Poseidon over BN254's scalar field (circomlib's): the reference against circomlib's
published vectors, the EVMMAX contracts against the reference on both engines and both
backends, invalid input, gas and size, the command line."""
import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from evm384_native import execute
from evm384_native.cli.main import main
from evm384_native.poseidon import CONTRACTS, build_contract, poseidon
from evm384_native.poseidon.contracts import WIDTH_OF, hash_words, schedule
from evm384_native.poseidon.params import R, WIDTHS, optimised, original
from evm384_native.poseidon.reference import permutation

# Published vectors (decimal; hex where the source gives hex):
# - iden3/circomlibjs test/poseidon.js at commit 48b3ab37013c5ed21e9ff8a80a5b010795c97094
#   ("poseidonperm_x5_254_3", "_5", and "n outputs": state[0..nOut) of the permutation);
# - iden3/circomlib test/poseidoncircuit.js at commit 35e54ea21da3e8762557234298dbb553c175ea8d
#   (hash([1, 2]) and hash([3, 4]) for t = 3 and t = 6).
VECTORS = [
    ([1], 18586133768512220936620570745912940619677854269274689475585506675881198879027),
    ([1, 2], 0x115cc0f5e7d690413df64c6b9662e9cf2a3617f2743245519e19607a4417189a),
    ([1, 2], 7853200120776062878684798364095072458815029376092732009249414926327459813530),
    ([3, 4], 14763215145315200506921711489642608356394854266165572616578112107564877678998),
    ([1, 2, 3, 4], 0x299c867db6c1fdd79dcefa40e4510b9837e60ebb1ce0663dbaa525df65250465),
    ([1, 2, 0, 0, 0],
     1018317224307729531995786483840663576608797660851238720571059489595066344487),
    ([3, 4, 5, 10, 23],
     13034429309846638789535561449942021891039729847501137143363028890275222221409),
]
# circomlibjs test/poseidon.js, "Should check poseidon with n outputs": the whole state
STATES = [
    ([1, 2], [7853200120776062878684798364095072458815029376092732009249414926327459813530,
              7142104613055408817911962100316808866448378443474503659992478482890339429929]),
    ([1, 2, 0, 0, 0],
     [1018317224307729531995786483840663576608797660851238720571059489595066344487,
      1268987460374965117190107941866588409937190018195924754936306024116268626868,
      8783366202813713093021184624438037804022412226788318946130389248546914776762]),
]
GAS_LIMIT_T3 = 4_000          # issue 24: poseidon with two inputs, EIP-6690's tables
CONTRACT_SIZE_LIMIT = 24_576  # EIP-170


def run(name, calldata, engine="fast", backend="native", costs="eip-6690"):
    return execute(build_contract(name), calldata, opcodes="evmmax", engine=engine,
                   backend=backend, costs=costs)


def hashed(result) -> int:
    assert result.success, result.error
    assert len(result.output) == 32
    return int.from_bytes(result.output, "big")


@pytest.mark.parametrize("inputs, expected", VECTORS)
def test_the_reference_gives_circomlibs_published_hashes(inputs, expected):
    assert poseidon(inputs) == expected


@pytest.mark.parametrize("inputs, expected", STATES)
def test_the_reference_permutation_gives_circomlibs_published_states(inputs, expected):
    assert permutation([0, *inputs])[:len(expected)] == expected


def test_the_constants_have_circomlibs_sizes():
    for t in WIDTHS:
        rounds = 8 + {2: 56, 3: 57, 4: 56, 5: 60, 6: 60}[t]
        assert len(original(t).c) == rounds * t and len(original(t).m) == t
        opt = optimised(t)
        assert len(opt.s) == (2 * t - 1) * (rounds - 8)
        assert all(0 <= v < R for v in original(t).c + opt.c + opt.s)


def test_the_reference_rejects_what_is_not_a_field_element():
    with pytest.raises(ValueError, match="field elements"):
        poseidon([R, 1])
    with pytest.raises(ValueError, match="width t must be one of 2, 3, 4, 5, 6"):
        poseidon([1] * 6)


def _cases(t):
    rng = random.Random(t)
    n = t - 1
    return ([[0] * n, [R - 1] * n, [1] + [R - 1] * (n - 1), [R - 1] + [0] * (n - 1)]
            + [[rng.randrange(R) for _ in range(n)] for _ in range(3)])


@pytest.mark.parametrize("name", CONTRACTS)
@pytest.mark.parametrize("engine, backend", [("fast", "native"), ("python", "native"),
                                             ("python", "reference")])
def test_the_contract_hashes_as_the_reference(name, engine, backend):
    t = WIDTH_OF[name]
    for inputs in _cases(t) if engine == "fast" else _cases(t)[::3]:
        result = run(name, hash_words(inputs), engine, backend)
        assert hashed(result) == poseidon(inputs), inputs


@pytest.mark.parametrize("inputs, expected", [v for v in VECTORS if len(v[0]) + 1 in
                                              WIDTH_OF.values()])
def test_the_contract_gives_the_published_hashes(inputs, expected):
    assert hashed(run(f"poseidon_t{len(inputs) + 1}", hash_words(inputs))) == expected


@pytest.mark.parametrize("name", CONTRACTS)
def test_engines_agree_on_gas_and_output(name):
    calldata = hash_words(_cases(WIDTH_OF[name])[-1])
    for costs in ("eip-6690", "eip-7747"):
        fast, slow = run(name, calldata, "fast", costs=costs), run(name, calldata, "python",
                                                                   costs=costs)
        assert (fast.output, fast.gas_used, fast.steps) == \
            (slow.output, slow.gas_used, slow.steps)


@pytest.mark.parametrize("name", CONTRACTS)
def test_invalid_input_reverts_with_empty_output(name):
    n = WIDTH_OF[name] - 1
    good = hash_words([5] * n)
    bad = [b"", good[:-1], good + b"\0", good + bytes(32)]
    for i in range(n):
        for value in (R, R + 1, 2**256 - 1):
            words = [5] * n
            words[i] = value
            bad.append(b"".join(v.to_bytes(32, "big") for v in words))
    valid = run(name, good).gas_used
    for calldata in bad:
        result = run(name, calldata)
        assert (result.success, result.error, result.output) == (False, "revert", b""), \
            calldata.hex()
        assert result.gas_used < valid / 4      # rejected before any constant is loaded


def test_gas_and_size_are_within_the_issues_bounds():
    result = run("poseidon_t3", hash_words([1, 2]))
    assert result.gas_used <= GAS_LIMIT_T3
    assert run("poseidon_t3", hash_words([1, 2]), costs="eip-7747").gas_used > \
        result.gas_used
    for name in CONTRACTS:
        assert len(build_contract(name)) <= CONTRACT_SIZE_LIMIT


def test_the_scaled_partial_rounds_keep_circomlibs_round_count():
    for t in WIDTH_OF.values():
        plan = schedule(t, 4)
        assert len(plan.rounds) == len(optimised(t).s) // (2 * t - 1)
        assert all(len(r) == 2 * t - 1 for r in plan.rounds)


def test_evm384_is_not_a_target():
    with pytest.raises(ValueError, match="built for EVMMAX and EVM only"):
        build_contract("poseidon_t3", target="evm384")


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, R - 1), min_size=2, max_size=2))
def test_the_contract_hashes_any_two_inputs_as_the_reference(inputs):
    assert hashed(run("poseidon_t3", hash_words(inputs))) == poseidon(inputs)


def cli(capsys, *argv):
    code = main([str(arg) for arg in argv])
    return code, capsys.readouterr().out


def test_the_command_line_builds_encodes_runs_and_prices_it(capsys):
    code, out = cli(capsys, "calldata", "poseidon_t3", "--random", 1, "--seed", 7)
    calldata = bytes.fromhex(out.strip())
    assert code == 0 and len(calldata) == 64
    inputs = [int.from_bytes(calldata[i:i + 32], "big") for i in (0, 32)]
    code, out = cli(capsys, "run", "contract:poseidon_t3", "--opcodes", "evmmax",
                    "--engine", "fast", "--calldata", calldata.hex(), "--json")
    fields = json.loads(out)
    assert code == 0 and int(fields["output"], 16) == poseidon(inputs)
    code, out = cli(capsys, "calldata", "poseidon_t3", (1).to_bytes(32, "big").hex(),
                    (2).to_bytes(32, "big").hex())
    assert code == 0 and bytes.fromhex(out.strip()) == hash_words([1, 2])
    code, out = cli(capsys, "build", "poseidon_t3", "--target", "evmmax")
    assert code == 0 and bytes.fromhex(out.strip()) == build_contract("poseidon_t3")
    code, out = cli(capsys, "gas", "poseidon_t3", "--json", "--seed", 7)
    rows = json.loads(out)
    assert code == 0 and [(row["target"], row["schedule"]) for row in rows] == \
        [("evmmax", "eip-6690"), ("evmmax", "eip-7747"), ("evm", "-")]
    assert rows[0]["gas"] == run("poseidon_t3", calldata).gas_used
    assert rows[0]["precompile_gas"] is None
