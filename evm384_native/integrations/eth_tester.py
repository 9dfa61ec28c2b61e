"""An eth-tester chain whose VM has EVM384 (or EVMMAX, ``opcodes="evmmax"``), optionally
with contracts placed at genesis.

EVM384 contracts can exceed the 24,576-byte deployment limit (EIP-170); placing their
runtime code in the genesis state lets real transactions and ``eth_call`` reach them:

    from eth_tester import EthereumTester
    tester = EthereumTester(evm384_backend({PAIRING_ADDRESS: runtime_code}))
"""
from __future__ import annotations

import sys
from typing import Mapping, Optional, Type

from ..evm.costs import DEFAULT_COSTS, CostsLike
from ..evm.gas import DEFAULT_SCHEDULE, ScheduleLike
from ..evm.opcode_sets import DEFAULT_OPCODES
from .pyevm import with_evm384

try:
    from eth.abc import VirtualMachineAPI
    from eth_tester import PyEVMBackend
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    # The extra brings eth-tester only where it installs (0.14, for Prague, needs 3.10).
    raise ImportError("evm384_native.integrations.eth_tester needs eth-tester, "
                      + ("which needs Python 3.10+" if sys.version_info < (3, 10) else
                         "pip install 'evm384_native[pyevm]'")) from exc

__all__ = ["evm384_backend"]


def evm384_backend(genesis_contracts: Mapping[bytes, bytes] = {}, *,
                   vm_class: Optional[Type[VirtualMachineAPI]] = None,
                   schedule: ScheduleLike = DEFAULT_SCHEDULE,
                   num_accounts: int = 10,
                   opcodes: str = DEFAULT_OPCODES,
                   costs: CostsLike = DEFAULT_COSTS) -> PyEVMBackend:
    """A ``PyEVMBackend`` on ``with_evm384(vm_class, schedule=schedule, opcodes=opcodes,
    costs=costs)`` with the given runtime codes (20-byte address -> code) in its genesis
    state beside the funded test accounts. ``opcodes`` is "evm384", "evmmax" (EIP-6690,
    priced by ``costs``: :mod:`..evm.costs`) or "evm" (plain EVM: ``vm_class`` as it is)."""
    genesis = dict(PyEVMBackend.generate_genesis_state(num_accounts=num_accounts))
    for address, code in genesis_contracts.items():
        if len(address) != 20:
            raise ValueError(f"contract address must be 20 bytes, got {len(address)}")
        genesis[bytes(address)] = {"balance": 0, "nonce": 0, "code": bytes(code), "storage": {}}
    vm = with_evm384(vm_class, schedule=schedule, opcodes=opcodes, costs=costs)
    return PyEVMBackend(genesis_state=genesis, vm_configuration=((0, vm),))
