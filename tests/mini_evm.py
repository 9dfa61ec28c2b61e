"""A tiny test-only EVM runner for generated code until ``evm384_native.execute`` lands.

Supports just the instructions the code generators emit; no gas. Not part of the package.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from evm384_native import kernel
from evm384_native.evm.opcodes import OPCODES

MASK = (1 << 256) - 1
EVM384 = {0xC0: kernel.addmod384, 0xC1: kernel.submod384, 0xC2: kernel.mulmodmont384}


@dataclass
class MiniResult:
    success: bool
    output: bytes
    memory: bytearray
    steps: int = 0
    opcode_counts: Counter = field(default_factory=Counter)


def _grow(mem: bytearray, end: int) -> None:
    if end > len(mem):
        mem.extend(bytes(-(-end // 32) * 32 - len(mem)))


def run(code: bytes, calldata: bytes = b"", max_steps: int = 10_000_000) -> MiniResult:
    stack: list = []
    mem = bytearray()
    pc = steps = 0
    counts: Counter = Counter()
    jumpdests = set()
    i = 0
    while i < len(code):
        if code[i] == 0x5B:
            jumpdests.add(i)
        i += 1 + (code[i] - 0x5F if 0x60 <= code[i] <= 0x7F else 0)
    while pc < len(code) and steps < max_steps:
        op = code[pc]
        steps += 1
        counts[OPCODES[op].name if op in OPCODES else hex(op)] += 1
        pc += 1
        if 0x60 <= op <= 0x7F:
            n = op - 0x5F
            stack.append(int.from_bytes(code[pc:pc + n].ljust(n, b"\0"), "big"))
            pc += n
        elif op in EVM384:
            word = stack.pop()
            offsets = [(word >> s) & 0xFFFFFFFF for s in (96, 64, 32, 0)]
            _grow(mem, max(offsets) + 56)
            EVM384[op](mem, *offsets)
        elif op == 0x5B:
            pass
        elif op == 0x56:
            pc = stack.pop()
            assert pc in jumpdests, f"bad jump {pc}"
        elif op == 0x57:
            dest, cond = stack.pop(), stack.pop()
            if cond:
                assert dest in jumpdests, f"bad jump {dest}"
                pc = dest
        elif 0x80 <= op <= 0x8F:
            stack.append(stack[-(op - 0x7F)])
        elif 0x90 <= op <= 0x9F:
            n = op - 0x8E
            stack[-1], stack[-n] = stack[-n], stack[-1]
        elif op == 0x50:
            stack.pop()
        elif op == 0x5F:
            stack.append(0)
        elif op in (0x01, 0x02, 0x03, 0x04, 0x10, 0x11, 0x14, 0x16, 0x17, 0x1B, 0x1C):
            a, b = stack.pop(), stack.pop()
            stack.append({0x01: lambda: a + b, 0x02: lambda: a * b, 0x03: lambda: a - b,
                          0x04: lambda: a // b if b else 0, 0x10: lambda: int(a < b),
                          0x11: lambda: int(a > b), 0x14: lambda: int(a == b),
                          0x16: lambda: a & b, 0x17: lambda: a | b,
                          0x1B: lambda: b << a if a < 256 else 0,
                          0x1C: lambda: b >> a}[op]() & MASK)
        elif op == 0x15:
            stack.append(int(stack.pop() == 0))
        elif op == 0x36:
            stack.append(len(calldata))
        elif op == 0x35:
            off = stack.pop()
            stack.append(int.from_bytes(calldata[off:off + 32].ljust(32, b"\0"), "big"))
        elif op in (0x37, 0x39, 0x5E):
            dst, src, size = stack.pop(), stack.pop(), stack.pop()
            if size:
                _grow(mem, dst + size)
                if op == 0x5E:
                    _grow(mem, src + size)
                    source = bytes(mem[src:src + size])
                else:
                    source = (calldata if op == 0x37 else code)[src:src + size].ljust(size, b"\0")
                mem[dst:dst + size] = source
        elif op == 0x51:
            off = stack.pop()
            _grow(mem, off + 32)
            stack.append(int.from_bytes(mem[off:off + 32], "big"))
        elif op == 0x52:
            off, value = stack.pop(), stack.pop()
            _grow(mem, off + 32)
            mem[off:off + 32] = value.to_bytes(32, "big")
        elif op in (0xF3, 0xFD):
            off, size = stack.pop(), stack.pop()
            _grow(mem, off + size)
            return MiniResult(op == 0xF3, bytes(mem[off:off + size]), mem, steps, counts)
        elif op == 0x00:
            break
        else:
            raise NotImplementedError(f"opcode {op:#x} at {pc - 1}")
    return MiniResult(True, b"", mem, steps, counts)
