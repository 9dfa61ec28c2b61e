"""Answers to a MODEXP input that do not come from ``evm384_native.modexp``: Python's ``pow``
over the EIPs' rules (:func:`pow_answer`), py-evm's precompile (:func:`pyevm_answer`; a
whole message call, :func:`pyevm_message_call`; called from bytecode,
:func:`pyevm_from_bytecode`) and revm's, called from bytecode in pyrevm
(:func:`revm_answer`); and any contract called the same way (:func:`revm_contract_answer`),
so that the contract is seen as a caller sees it. An answer is the output, or None where the
precompile fails.

The peers' known disagreements, stated here and not copied by the tests:

- py-evm 0.12 answers 0 for 0^0 with an empty base (``bl = 0``, ``E = 0``, ``M > 1``):
  its ``_modexp`` returns 0 whenever the base length is 0. go-ethereum, revm and the
  execution specs answer 1 (``x^0 = 1`` whatever the encoding of x); :func:`pyevm_agrees`
  leaves exactly those inputs out.
- pyrevm 0.3.7 and py-evm 0.12 predate EIP-7823 (Osaka): a length above 1,024 bytes does
  not fail there. revm computes the answer where the EIP-2565 price is affordable (e.g.
  ``bl = 1025``) and halts with a PrecompileError where it is not or a length does not fit
  a usize; py-evm pads to the declared length (memory without bound). Both peers are asked
  only about inputs within the bound (:func:`tests.modexp_cases.within_bounds`); past it
  the answer (failure) comes from EIP-7823's text.
- Neither has EIP-7883's prices: their gas is EIP-2565's (Berlin to Prague), which
  :func:`revm_answer` and :func:`pyevm_answer` report, to check the reference's
  ``price_eip2565``; EIP-7883's prices are checked against go-ethereum's vectors only.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from typing import NamedTuple, Optional

from tests.bn254_cases import _Computation
from tests.modexp_cases import WORD, declared_lengths, within_bounds

PRECOMPILE = 0x05
REVM_SPEC = "PRAGUE"                    # pyrevm 0.3.7's newest fork with MODEXP as EIP-2565
CALLER = "0x" + "11" * 20
DRIVER = "0x" + "22" * 20              # the bytecode that calls, with the input in its code
CALLEE = "0x" + "33" * 20              # a contract under test (revm_contract_answer)
TRANSACTION_GAS = 2 ** 40              # more than RSA-4096 with a full exponent costs (EIP-2565)


# --- oracle 1: pow ------------------------------------------------------------------------------

def pow_answer(data: bytes) -> Optional[bytes]:
    """EIP-198's answer with EIP-7823's bound, written out over Python's ``pow``."""
    if not within_bounds(data):
        return None
    bl, el, ml = declared_lengths(data)
    body = data[3 * WORD:3 * WORD + bl + el + ml].ljust(bl + el + ml, b"\0")
    base = int.from_bytes(body[:bl], "big")
    exponent = int.from_bytes(body[bl:bl + el], "big")
    modulus = int.from_bytes(body[bl + el:], "big")
    value = 0 if modulus == 0 else pow(base, exponent, modulus)
    return value.to_bytes(ml, "big")


# --- oracle 2: py-evm ---------------------------------------------------------------------------

class PeerAnswer(NamedTuple):
    output: Optional[bytes]             # None: the precompile failed
    gas: int                            # the precompile's gas (EIP-2565)


def pyevm_disagrees_by_design(data: bytes) -> bool:
    """py-evm's 0^0 with an empty base (module docstring): 0 instead of 1."""
    bl, _, _ = declared_lengths(data)
    answer = pow_answer(data)
    return bl == 0 and answer is not None and int.from_bytes(answer, "big") == 1


def pyevm_agrees(data: bytes) -> bool:
    """Whether py-evm's answer is expected to be the precompile's (module docstring)."""
    return within_bounds(data) and not pyevm_disagrees_by_design(data)


@lru_cache(maxsize=None)
def _pyevm_modexp():
    from eth.vm.forks.prague.computation import PragueComputation
    return PragueComputation.get_precompiles()[PRECOMPILE.to_bytes(20, "big")]


def pyevm_answer(data: bytes) -> PeerAnswer:
    """py-evm's Prague precompile function on a stand-in computation (inputs within
    EIP-7823's bound: beyond it py-evm pads to any declared length)."""
    if not within_bounds(data):
        raise ValueError("py-evm predates EIP-7823: ask it about inputs within the bound only")
    computation = _Computation(bytes(data))
    _pyevm_modexp()(computation)
    return PeerAnswer(bytes(computation.output), computation.gas_used)


def pyevm_message_call(data: bytes) -> Optional[bytes]:
    """py-evm's answer through a whole message call to 0x05 in a Prague state (checks that
    :func:`pyevm_answer`'s stand-in computation is faithful)."""
    from eth.vm.forks import PragueVM
    from evm384_native.integrations.pyevm import execute_in_pyevm
    result = execute_in_pyevm(b"", bytes(data), gas=10 ** 9, vm_class=PragueVM,
                              to=PRECOMPILE.to_bytes(20, "big"))
    return result.output if result.success else None


def pyevm_from_bytecode(data: bytes) -> PeerAnswer:
    """py-evm's precompile STATICCALLed by the driver (:func:`driver_code`) in a Prague
    state: the answer and its gas as a calling contract sees them."""
    from eth.vm.forks import PragueVM
    from evm384_native.integrations.pyevm import execute_in_pyevm
    result = execute_in_pyevm(driver_code(data, PRECOMPILE), gas=10 ** 9, vm_class=PragueVM)
    assert result.success, result.error
    answer = _driver_saw(result.output)
    return PeerAnswer(answer.output if answer.success else None, answer.gas)


# --- oracle 3: revm, called from bytecode -------------------------------------------------------

def revm_available() -> bool:
    return importlib.util.find_spec("pyrevm") is not None


def _push(value: int) -> bytes:
    """The shortest PUSH of ``value`` (PUSH0 for 0)."""
    size = (value.bit_length() + 7) // 8
    return bytes([0x5F + size]) + value.to_bytes(size, "big") if size else b"\x5f"


# The driver's overhead between its two GAS readings, past the callee's gas: PUSH0 PUSH0
# PUSH2 PUSH0 PUSHn (2 + 2 + 3 + 2 + 3), the second GAS (2) and the warm access (EIP-2929:
# the driver touches the callee first, since pyrevm keeps accounts warm across calls).
CALL_OVERHEAD = 16 + 100


def driver_code(data: bytes, target: int) -> bytes:
    """Bytecode that copies ``data`` (the bytes after the code) into memory, STATICCALLs
    ``target`` with it and all its gas (the target warmed first), and returns the callee's output followed by two
    words: the call's success flag and the gas between GAS readings around the call."""
    if len(data) >= 2 ** 16:
        raise ValueError("the driver copies at most 65,535 bytes")
    size = b"\x61" + len(data).to_bytes(2, "big")                       # PUSH2 len(data)
    body = (_push(target) + b"\x3b\x50"                                  # EXTCODESIZE: warm
            + b"\x5a"                                                    # GAS (g1)
            + b"\x5f\x5f" + size + b"\x5f" + _push(target) + b"\x5a\xfa"  # STATICCALL(gas, ..)
            + b"\x5a\x90"                                                # GAS (g2), SWAP1
            + b"\x3d\x5f\x5f\x3e"                       # RETURNDATACOPY(0, 0, RETURNDATASIZE)
            + b"\x3d\x52"                               # MSTORE(RETURNDATASIZE, success)
            + b"\x90\x03"                               # g1 - g2
            + b"\x3d\x60\x20\x01\x52"                   # MSTORE(RETURNDATASIZE + 32, g1 - g2)
            + b"\x60\x40\x3d\x01\x5f\xf3")              # RETURN(0, RETURNDATASIZE + 64)
    offset = 4 + 4 + len(body)                          # the copy: size, PUSH2 offset, PUSH0, CODECOPY
    head = size + b"\x61" + offset.to_bytes(2, "big") + b"\x5f\x39"
    return head + body + bytes(data)


class CallAnswer(NamedTuple):
    success: bool
    output: bytes
    gas: int                            # the callee's gas: GAS readings less the overhead


def _driver_saw(out: bytes) -> CallAnswer:
    """The driver's output read back: the callee's output, success and gas."""
    success = int.from_bytes(out[-2 * WORD:-WORD], "big")
    gas = int.from_bytes(out[-WORD:], "big") - CALL_OVERHEAD
    return CallAnswer(bool(success), out[:-2 * WORD], gas)


def call_from_bytecode(target: int, data: bytes) -> CallAnswer:
    """What the driver (:func:`driver_code`) sees calling ``target`` with ``data`` in revm."""
    from pyrevm import AccountInfo
    evm = _revm()
    evm.insert_account_info(DRIVER, AccountInfo(code=driver_code(data, target)))
    return _driver_saw(bytes(evm.message_call(caller=CALLER, to=DRIVER, calldata=b"",
                                              gas=TRANSACTION_GAS)))


@lru_cache(maxsize=None)
def _revm():
    from pyrevm import EVM
    return EVM(spec_id=REVM_SPEC)


def revm_answer(data: bytes) -> PeerAnswer:
    """revm's precompile 0x05 STATICCALLed from bytecode (Prague: EIP-2565's price; asked
    about inputs within EIP-7823's bound only, module docstring)."""
    if not within_bounds(data):
        raise ValueError("revm here predates EIP-7823: ask it about inputs within the bound only")
    answer = call_from_bytecode(PRECOMPILE, data)
    return PeerAnswer(answer.output if answer.success else None, answer.gas)


def revm_contract_answer(code: bytes, data: bytes) -> CallAnswer:
    """Contract ``code`` deployed at CALLEE and STATICCALLed from bytecode with ``data``, as
    a caller would replace the precompile: its success, output and gas (its execution; a
    failure consumes the 63/64 of the gas it was given)."""
    from pyrevm import AccountInfo
    evm = _revm()
    evm.insert_account_info(CALLEE, AccountInfo(code=code))
    return call_from_bytecode(int(CALLEE, 16), data)
