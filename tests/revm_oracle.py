"""revm (native Rust, through PyPI's pyrevm) as a second oracle for plain EVM code, beside
py-evm: (success, output, gas used) of ``code`` run as a message call.

pyrevm's ``message_call`` is a transaction: it charges the intrinsic 21,000 gas, and with
calldata EIP-2028's and EIP-7623's prices too, so the execution's gas could not be told
apart from the floor; these runs take no calldata. Its revm has no CLZ (Osaka) even under
the OSAKA spec id, so it runs Prague, as py-evm does. A revert's data comes only in the
error's text (pyrevm 0.3.7), which is read here.
"""
from __future__ import annotations

import platform
import re
import sys
from functools import lru_cache
from typing import Tuple

import pytest

from optional import require

REVM_SPEC = "PRAGUE"
TRANSACTION_GAS = 21_000               # what message_call charges before the code runs
CALLER = "0x" + "11" * 20
CONTRACT = "0x" + "22" * 20
_REVERT_DATA = re.compile(r"^Revert \{ gas_used: \d+, output: 0x([0-9a-f]*) \}$")


def require_revm() -> None:
    """Skip the calling test unless pyrevm is installed (the test extra lists it only
    where it has wheels: CPython < 3.13 on x86-64)."""
    if sys.version_info >= (3, 13) or platform.machine() != "x86_64":
        pytest.skip("pyrevm (test extra) has no wheel for this Python or machine")
    require("pyrevm", "test")


@lru_cache(maxsize=None)
def _revm():
    from pyrevm import EVM
    return EVM(spec_id=REVM_SPEC)


def revm_run(code: bytes, gas: int) -> Tuple[bool, bytes, int]:
    """(success, output, gas used) of ``code`` called with no calldata and ``gas`` for its
    execution."""
    from pyrevm import AccountInfo
    evm = _revm()
    evm.insert_account_info(CONTRACT, AccountInfo(code=code))
    try:
        output = bytes(evm.message_call(caller=CALLER, to=CONTRACT, calldata=b"",
                                        gas=gas + TRANSACTION_GAS))
    except RuntimeError as error:
        reverted = _REVERT_DATA.match(str(error))
        output = bytes.fromhex(reverted.group(1)) if reverted else b""
    result = evm.result
    return result.is_success, output, result.gas_used - TRANSACTION_GAS
