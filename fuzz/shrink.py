"""Shrinking a failing case: the smallest code, calldata and gas that still fail the
same way (a simpler schedule and gas, then delta debugging over whole instructions and
byte chunks, then the shortest tail of the code)."""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable, List

from .cases import Case, schedule_of
from .programs import instructions

Fails = Callable[[Case], bool]


def _without_chunks(data: bytes, keep: Callable[[bytes], bool], deadline: float) -> bytes:
    """Remove chunks of halving size while ``keep`` still holds."""
    size = max(1, len(data) // 2)
    while size >= 1 and time.monotonic() < deadline:
        start = 0
        while start < len(data) and time.monotonic() < deadline:
            candidate = data[:start] + data[start + size:]
            if keep(candidate):
                data = candidate
            else:
                start += size
        size //= 2
    return data


def _without_instructions(code: bytes, keep: Callable[[bytes], bool], deadline: float) -> bytes:
    """Remove runs of whole instructions (a PUSH with its data) of halving length."""
    count = max(1, len(instructions(code)) // 2)
    while count >= 1 and time.monotonic() < deadline:
        index = 0
        while time.monotonic() < deadline:
            starts = [pc for pc, _ in instructions(code)] + [len(code)]
            if index >= len(starts) - 1:
                break
            candidate = code[:starts[index]] + code[starts[min(index + count, len(starts) - 1)]:]
            if keep(candidate):
                code = candidate
            else:
                index += count
        count //= 2
    return code


def _shortest_tail(data: bytes, keep: Callable[[bytes], bool], deadline: float) -> bytes:
    """The shortest ``data[start:]`` for which ``keep`` holds. Cutting a head off code can
    turn PUSH data into instructions in one step, where removing smaller chunks leaves the
    failing instruction inside a PUSH's data or behind one that halts first."""
    for start in range(len(data) - 1, 0, -1):
        if time.monotonic() >= deadline:
            break
        if keep(data[start:]):
            return data[start:]
    return data


def _smaller_gas(case: Case, fails: Fails, deadline: float) -> Case:
    candidates: List[int] = [0, 1, 100, 1000, 10_000, 100_000, 1_000_000, case.gas // 2]
    for gas in sorted(set(candidates)):
        if gas < case.gas and time.monotonic() < deadline:
            smaller = replace(case, gas=gas)
            if fails(smaller):
                return smaller
    return case


def shrink(case: Case, fails: Fails, seconds: float = 60.0) -> Case:
    """A smaller case for which ``fails`` still holds (``fails(case)`` must hold)."""
    deadline = time.monotonic() + seconds
    default = schedule_of("evmone-v7")
    if case.schedule != default and fails(replace(case, schedule=default)):
        case = replace(case, schedule=default)
    case = _smaller_gas(case, fails, deadline)
    def keeps_failing(code: bytes) -> bool:
        return fails(replace(case, code=code))

    code = _without_chunks(_without_instructions(case.code, keeps_failing, deadline),
                           keeps_failing, deadline)
    code = _shortest_tail(code, keeps_failing, deadline)
    case = replace(case, code=code)
    calldata = _without_chunks(case.calldata, lambda data: fails(replace(case, calldata=data)),
                               deadline)
    case = replace(case, calldata=calldata)
    return _smaller_gas(case, fails, deadline)
