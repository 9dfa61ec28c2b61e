"""EVMMAX (EIP-6690) inside py-evm (``with_evm384(opcodes="evmmax")``) against the python
engine's ``execute(..., opcodes="evmmax")``: random EVMMAX programs and every assert case of
test_evm_evmmax.py give the same success, output and gas (and the same halt reason for the
EIP's asserts); the jump-destination rule for immediates. Field contexts per call frame:
test_eth_tester_evmmax.py (a call needs contracts in the state)."""
from __future__ import annotations

import random
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from optional import require

require("eth", "pyevm")

from evm384_native.evm import execute
from evm384_native.integrations.pyevm import execute_in_pyevm, with_evm384

import test_evm_evmmax as cases
from test_evm_evmmax import (ADDMODX, JUMP, JUMPDEST, LOADX, M, MSTORE, MULMODX, STOP, STOREX,
                             SUBMODX, VALUES_AT, context_prefix, encode, limbs_of, mstore_bytes,
                             push, returning, setmodx, transfer, vector)

EVMMAX_MNEMONICS = ("SETMODX:", "LOADX:", "STOREX:", "ADDMODX:", "SUBMODX:", "MULMODX:")


@lru_cache(maxsize=None)
def evmmax_vm(backend: str):
    return with_evm384(opcodes="evmmax", backend=backend)


def assert_same(code: bytes, gas: int = 1_000_000, backend: str = "native"):
    """py-evm and the python engine agree on success, output and gas; on an EIP assert
    also on its reason."""
    ours = execute(code, gas=gas, opcodes="evmmax", backend=backend)
    theirs = execute_in_pyevm(code, gas=gas, vm_class=evmmax_vm(backend))
    assert (theirs.success, theirs.output, theirs.gas_used) == \
        (ours.success, ours.output, ours.gas_used), (ours, theirs)
    if ours.error and ours.error.startswith(EVMMAX_MNEMONICS):
        assert theirs.error == ours.error
    return ours


# --- random programs --------------------------------------------------------------------

class ProgramBuilder:
    """Random EVMMAX programs that mostly succeed: the builder tracks the contexts it
    made (assuming every step before succeeded) to draw valid operands, and now and
    then draws anything (asserts, unreduced values, memory growth after SETMODX)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.contexts = {}             # id -> (modulus, registers)
        self.active = None
        self.code = push(0) + push(4096 - 32) + bytes([MSTORE])

    def modulus(self) -> int:
        rng = self.rng
        limbs = rng.randint(1, 12)
        if rng.random() < 0.3:
            return 2**rng.randint(max(2, 64 * limbs - 64), 64 * limbs - 1)
        return rng.randrange(2**(64 * limbs - 1), 2**(64 * limbs)) | 1

    def rarely(self, usual: int, anything: int) -> int:
        return anything if self.rng.random() < 0.05 else usual

    def add_setmodx(self) -> None:
        rng = self.rng
        context_id = self.rarely(rng.choice([0, 1, 2, 256]), rng.randint(0, 300))
        modulus = self.modulus()
        size = 8 * limbs_of(modulus)
        registers = self.rarely(rng.randint(1, 32), rng.randint(0, 300))
        self.code += mstore_bytes(0, modulus.to_bytes(size, "big")) + setmodx(context_id, 0, size, registers)
        if context_id not in self.contexts and context_id <= 256 and 0 < registers <= 256:
            self.contexts[context_id] = (modulus, registers)
        self.active = self.contexts.get(context_id, self.active)

    def add_storex(self) -> None:
        modulus, registers = self.active
        rng, size = self.rng, 8 * limbs_of(modulus)
        count = rng.randint(0, min(registers, 8))
        dest = rng.randint(0, registers - count)
        values = [rng.choice([rng.randrange(modulus), modulus - 1, 0]) for _ in range(count)]
        if count and rng.random() < 0.05:
            values[-1] = modulus                              # not below the modulus
        self.code += mstore_bytes(VALUES_AT, encode(values, size)) + transfer(STOREX, dest, VALUES_AT, count)

    def add_vector(self) -> None:
        rng, (_, registers) = self.rng, self.active
        count = rng.randint(1, max(1, min(8, registers - 1)))
        widest = (registers - 1) // count       # the largest stride inside the EIP's bound
        immediates = []
        for lowest in (1, 0, 0):                # out_stride is at least 1
            stride = rng.randint(min(lowest, widest), min(3, widest))
            immediates += [rng.randint(0, max(0, registers - 1 - stride * count)), stride]
        immediates.append(count)
        if rng.random() < 0.05:
            immediates = [rng.randrange(256) for _ in range(7)]
        self.code += vector(rng.choice([ADDMODX, SUBMODX, MULMODX]), *immediates)

    def add_loadx(self) -> None:
        modulus, registers = self.active
        count = self.rng.randint(0, min(registers, 8))
        first = self.rng.randint(0, registers - count)
        self.code += transfer(LOADX, VALUES_AT + 8 * self.rng.randint(0, 4), first, count)

    def add_memory_growth(self) -> None:
        # memory grown past the registers' start: expansion gas counts the register bytes
        self.code += push(1) + push(self.rng.randint(4096, 9000)) + bytes([MSTORE])

    def build(self, steps: int) -> bytes:
        self.add_setmodx()
        for _ in range(steps):
            if self.active is None:
                self.add_setmodx()
                continue
            self.rng.choice([self.add_setmodx, self.add_storex, self.add_storex, self.add_vector,
                             self.add_vector, self.add_vector, self.add_loadx,
                             self.add_memory_growth])()
        return self.code + returning(VALUES_AT, 8 * 96)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 25))
def test_random_programs_agree_with_the_engine(seed, steps):
    rng = random.Random(seed)
    code = ProgramBuilder(rng).build(steps)
    full = assert_same(code, gas=10_000_000)
    if full.success and full.gas_used > 1:       # and out of gas anywhere on the way
        assert_same(code, gas=rng.randrange(1, full.gas_used))


def test_random_programs_mostly_succeed():
    """The generator is not a generator of halts: most programs run to the end."""
    outcomes = [assert_same(ProgramBuilder(random.Random(seed)).build(12), gas=10_000_000)
                for seed in range(20)]
    assert sum(result.success for result in outcomes) >= 10
    assert any(not result.success for result in outcomes)


@pytest.mark.parametrize("backend", ["native", "reference"])
def test_reference_backend_in_pyevm(backend):
    rng = random.Random(7)
    modulus = rng.randrange(2**380, 2**381) | 1
    values = [rng.randrange(modulus) for _ in range(4)]
    code = (context_prefix(modulus, 8) + mstore_bytes(VALUES_AT, encode(values, 48))
            + transfer(STOREX, 0, VALUES_AT, 4) + vector(MULMODX, 4, 1, 0, 1, 2, 1, 2)
            + transfer(LOADX, VALUES_AT, 4, 2) + returning(VALUES_AT, 96))
    result = assert_same(code, backend=backend)
    assert result.output == encode([values[0] * values[2] % modulus,
                                     values[1] * values[3] % modulus], 48)


# --- the EIP's asserts: the cases of test_evm_evmmax.py ---------------------------------

def _cases(test):
    """The parameter rows of one of test_evm_evmmax.py's parametrized tests."""
    rows = []
    for mark in test.pytestmark:
        if mark.name == "parametrize" and "," in mark.args[0]:
            rows += [tuple(row.values) if hasattr(row, "values") else row for row in mark.args[1]]
    return rows


SETMODX_CASES = _cases(cases.test_setmodx_asserts)
TRANSFER_CASES = _cases(cases.test_transfer_asserts)
VECTOR_CASES = _cases(cases.test_vector_asserts)


@pytest.mark.parametrize("code, reason", SETMODX_CASES)
def test_setmodx_asserts(code, reason):
    result = assert_same(push(0) + push(1024 - 32) + bytes([MSTORE]) + code)
    assert not result.success and reason in result.error


@pytest.mark.parametrize("code, reason", TRANSFER_CASES)
def test_transfer_asserts(code, reason):
    result = assert_same(context_prefix(M, 8) + code)
    assert not result.success and reason in result.error


@pytest.mark.parametrize("opcode", [ADDMODX, SUBMODX, MULMODX])
@pytest.mark.parametrize("immediates, reason", VECTOR_CASES)
def test_vector_asserts(opcode, immediates, reason):
    result = assert_same(context_prefix(M, 8) + vector(opcode, *immediates))
    assert not result.success and reason in result.error


def test_the_cases_were_found():
    assert len(SETMODX_CASES) >= 12 and len(TRANSFER_CASES) >= 7 and len(VECTOR_CASES) >= 6


def test_no_active_context_and_truncated_immediates():
    for code in (vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1), transfer(LOADX, 0, 0, 1),
                 transfer(STOREX, 0, 0, 1), context_prefix(M, 8) + vector(ADDMODX, 0, 1, 0, 1, 0, 1)):
        assert not assert_same(code).success


@pytest.mark.parametrize("limbs", range(1, 13))
def test_gas_rows_and_register_bytes_in_memory_expansion(limbs):
    """Every row of the EIP's tables (odd and power-of-two moduli), and memory grown after
    SETMODX, cost the same in py-evm."""
    for modulus in cases.moduli(limbs):
        prefix = context_prefix(modulus, 16, 2048)
        for tail in (vector(MULMODX, 0, 1, 0, 1, 0, 1, 15), vector(ADDMODX, 0, 1, 0, 1, 0, 0, 15),
                     transfer(LOADX, VALUES_AT, 0, 15), transfer(STOREX, 0, VALUES_AT, 15),
                     push(0) + push(2048) + bytes([MSTORE])):
            assert assert_same(prefix + tail + bytes([STOP])).success


# --- jumps --------------------------------------------------------------

def test_immediates_are_not_jump_destinations():
    body = context_prefix(M, 200)
    target = len(body) + 33 + 1 + 1                # the 0x5b inside ADDMODX's immediates
    code = body + push(target) + bytes([JUMP]) + vector(ADDMODX, JUMPDEST, 1, 0, 1, 0, 1, 1) \
        + bytes([JUMPDEST, STOP])
    assert assert_same(code).error == "invalid jump destination"
    after = body + push(target + 7) + bytes([JUMP]) + code[len(body) + 34:]
    assert assert_same(after).success
    # a PUSH byte among the immediates does not hide the JUMPDEST after them (py-evm's
    # own look-back would take 0x60 for a PUSH1 whose data is that JUMPDEST)
    code = body + push(len(body) + 34 + 8) + bytes([JUMP]) \
        + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 0x60) + bytes([JUMPDEST, STOP])
    assert assert_same(code).success



# --- the VM classes ---------------------------------------------------------------------

def test_vm_classes_and_shared_tables():
    from eth.vm.forks import CancunVM, PragueVM
    vm = with_evm384(CancunVM, opcodes="evmmax")
    assert issubclass(vm, CancunVM) and vm.__name__ == "EVMMAXCancunVM"
    opcodes = vm._state_class.computation_class.opcodes
    assert [opcodes[code].mnemonic for code in range(0xC0, 0xC6)] == \
        ["SETMODX", "LOADX", "STOREX", "ADDMODX", "SUBMODX", "MULMODX"]
    assert [opcodes[code].gas_cost for code in range(0xC0, 0xC6)] == [1, 1, 1, 0, 0, 0]
    for plain in (CancunVM, PragueVM):
        assert not set(range(0xC0, 0xC6)) & set(plain._state_class.computation_class.opcodes)
    code = context_prefix(M, 8) + vector(ADDMODX, 0, 1, 0, 1, 0, 1, 1)
    assert execute_in_pyevm(code, vm_class=vm).success
    assert "Invalid opcode" in execute_in_pyevm(code, vm_class=PragueVM).error


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown opcode set 'evm385'"):
        with_evm384(opcodes="evm385")
    with pytest.raises(ValueError, match="backend is 'native' or 'reference'"):
        with_evm384(opcodes="evmmax", backend={"ADDMOD384": None})
    with pytest.raises(ValueError, match="unknown backend 'gpu'"):
        with_evm384(opcodes="evmmax", backend="gpu")
