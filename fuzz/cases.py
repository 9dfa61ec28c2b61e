"""One fuzz case (code, calldata, gas, EVM384 schedule, opcode set) and its byte encoding.

The encoding is what the corpus files hold and what the coverage-guided harness
feeds in; :func:`decode` accepts any bytes, so every mutation is a valid case:

    byte  0       schedule selector: 0..2 a named schedule, else the custom one below
    bytes 1..8    gas, big-endian, modulo 2**63
    bytes 9..20   custom gas of ADDMOD384, SUBMOD384, MULMODMONT384 (big-endian uint32)
    bytes 21..22  code length n, big-endian
    then n bytes of code (fewer if the input ends first), then the calldata

The encoding holds EVM384 cases only (the corpus and the harness are EVM384's).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

from evm384_native.evm.gas import SCHEDULES, EVM384_NAMES

NAMED_SCHEDULES = ("evmone-v7", "update5-A", "update5-B")
MAX_GAS = 2**63 - 1
HEADER_BYTES = 23

Schedule = Tuple[int, int, int]   # gas of ADDMOD384, SUBMOD384, MULMODMONT384


def schedule_of(name: str) -> Schedule:
    named = SCHEDULES[name]
    return named.addmod384, named.submod384, named.mulmodmont384


@dataclass(frozen=True)
class Case:
    code: bytes
    calldata: bytes
    gas: int
    schedule: Schedule = (8, 8, 24)
    opcodes: str = "evm384"           # execute(opcodes=...)

    def encodable(self) -> bool:
        return self.opcodes == "evm384" and max(self.schedule) < 2**32

    def schedule_argument(self):
        """What ``execute(schedule=...)`` takes: the name when there is one."""
        for name in NAMED_SCHEDULES:
            if schedule_of(name) == self.schedule:
                return name
        return dict(zip(EVM384_NAMES, self.schedule))

    def python_source(self) -> str:
        """A snippet that runs this case on every variant (for reproducer files)."""
        return ("from fuzz.variants import run_variants\n"
                f"code = bytes.fromhex({self.code.hex()!r})\n"
                f"calldata = bytes.fromhex({self.calldata.hex()!r})\n"
                f"for name, outcome in run_variants(code, calldata, {self.gas}, "
                f"{self.schedule_argument()!r}, opcodes={self.opcodes!r}).items():\n"
                "    print(name, outcome)\n")


def encode(case: Case) -> bytes:
    if not case.encodable():
        raise ValueError("the encoding holds EVM384 cases with schedule gas below 2**32 only")
    selector = next((index for index, name in enumerate(NAMED_SCHEDULES)
                     if schedule_of(name) == case.schedule), 255)
    custom = b"".join(value.to_bytes(4, "big") for value in case.schedule)
    return (bytes([selector]) + case.gas.to_bytes(8, "big") + custom
            + min(len(case.code), 0xFFFF).to_bytes(2, "big") + case.code[:0xFFFF] + case.calldata)


def decode(data: bytes) -> Case:
    header = data[:HEADER_BYTES].ljust(HEADER_BYTES, b"\0")
    selector = header[0]
    if selector < len(NAMED_SCHEDULES):
        schedule = schedule_of(NAMED_SCHEDULES[selector])
    else:
        schedule = tuple(int.from_bytes(header[9 + 4 * i:13 + 4 * i], "big") for i in range(3))
    gas = int.from_bytes(header[1:9], "big") & MAX_GAS
    size = int.from_bytes(header[21:23], "big")
    body = data[HEADER_BYTES:]
    return Case(body[:size], body[size:], gas, schedule)  # type: ignore[arg-type]
