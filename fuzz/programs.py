"""Fuzz cases: random bytes, structured programs and mutations of a seed corpus.

Time and memory per case are bounded by gas: programs that may loop get at most
``Limits.max_gas`` (which also bounds memory: 1M gas buys at most ~720 KB). Huge gas
(up to 2**63 - 1, for the memory-cap and gas-arithmetic edges) only goes to
structured programs that cannot loop (forward jumps only) and whose memory accesses
end either within ``SAFE_MEMORY`` or past the 4 GiB cap (an out-of-gas halt that
allocates nothing).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from evm384_native.curves import BLS12_381
from evm384_native.evm.evm384 import memory_end
from evm384_native.evm.opcode_sets import resolve_opcodes
from evm384_native.evm.opcodes import BY_NAME, EVM384_OPCODES, OpcodeInfo
from evm384_native.evm.kernels.montgomery import montgomery_inv

from .cases import MAX_GAS, NAMED_SCHEDULES, Case, Schedule, schedule_of

P = BLS12_381.p

U256 = 2**256
CAP = 2**32                       # EVM memory past 4 GiB is out of gas on every engine
SAFE_MEMORY = 1 << 16             # memory a huge-gas program may really allocate
P_INV = montgomery_inv(P)         # MULMODMONT384's constant after the modulus

WORDS = [0, 1, 2, 3, 7, 8, 31, 32, 33, 63, 64, 255, 256, 257, 2**31, 2**32 - 1, 2**32,
         2**32 + 1, 2**63, 2**64 - 1, 2**64, 2**128, 2**255 - 1, 2**255, 2**255 + 1,
         U256 - 2, U256 - 1]
SIZES = [0, 1, 2, 31, 32, 33, 47, 48, 49, 64, 100, 256, 1000]
HUGE_SIZES = [2**32 - 1, 2**32, 2**32 + 1, 2**64, U256 - 1]
OFFSETS = [0, 1, 16, 31, 32, 33, 47, 48, 64, 96, 128, 200, 256, 300, 1000, SAFE_MEMORY - 32]
PAST_CAP_OFFSETS = [CAP - 31, CAP - 1, CAP, CAP + 1, 2**63, 2**64 - 1, 2**64, 2**255, U256 - 1]
BELOW_CAP_OFFSETS = [CAP - 64, CAP - 33, CAP - 32]   # end exactly at or just under 4 GiB
EVM384_PAST_CAP = [CAP - 40, CAP - 47, CAP - 1, 0xFFFFFFF0]   # + 48 (56 for mod) > 4 GiB
EVM384_BELOW_CAP = [CAP - 48, CAP - 56, CAP - 49]
HUGE_GAS = [2**32 - 1, 2**32, 2**40, 2**47, 2**62, MAX_GAS - 1, MAX_GAS]
SCHEDULE_GAS = [0, 1, 2, 3, 6, 8, 24, 100, 1000, 2**16, 2**31, 2**32 - 1, 2**32, 2**40, 2**62]

MEMORY_OPS = {  # mnemonic -> stack operands (top first); "o" memory offset, "s" its size
    "MLOAD": "o", "MSTORE": "ov", "MSTORE8": "ov", "KECCAK256": "os", "RETURN": "os",
    "REVERT": "os", "CALLDATACOPY": "oqs", "CODECOPY": "oqs", "RETURNDATACOPY": "oqs",
    "MCOPY": "ops",   # p: a second memory offset (MCOPY's source) over the same size
}
# The table cases run under: the EVM384 set at the default fork (Osaka, so CLZ too)
OPCODES = resolve_opcodes("evm384").table
FLOW_OPS = {BY_NAME[name].code for name in ("JUMP", "JUMPI", "STOP", "RETURN", "REVERT")}
# Stack-only instructions (and those reading calldata or the environment): safe anywhere.
PURE_OPS = sorted(code for code, info in OPCODES.items()
                  if not info.immediate and not info.needs_state and code not in FLOW_OPS
                  and info.name not in MEMORY_OPS and code not in EVM384_OPCODES
                  and info.name != "INVALID")


@dataclass(frozen=True)
class Limits:
    """What bounds a case: the gas of anything that may loop (time per case)."""
    max_gas: int = 1_000_000


def push(value: int, width: Optional[int] = None) -> bytes:
    """The shortest PUSH of value (PUSH0 for 0), or PUSH<width> of its low bytes."""
    if width is None:
        width = (value.bit_length() + 7) // 8
    if width == 0:
        return b"\x5f"
    return bytes([0x5F + width]) + (value % 256**width).to_bytes(width, "big")


def op(name: str) -> bytes:
    return bytes([BY_NAME[name].code])


def instructions(code: bytes) -> List[Tuple[int, int]]:
    """(pc, opcode) of every instruction (PUSH data skipped)."""
    found, pc = [], 0
    while pc < len(code):
        opcode = code[pc]
        found.append((pc, opcode))
        pc += 1 + (opcode - 0x5F if 0x60 <= opcode <= 0x7F else 0)
    return found


# --- choices ------------------------------------------------------------------------------

def pick_gas(rng: random.Random, limits: Limits) -> int:
    kind = rng.randrange(5)
    if kind == 0:
        return rng.choice([0, 1, 2, 3, 21, 100])
    if kind == 1:
        return rng.randint(1, 3_000)
    if kind == 2:
        return rng.randint(3_000, 30_000)
    return rng.randint(30_000, limits.max_gas) if kind == 3 else limits.max_gas


def pick_schedule(rng: random.Random) -> Schedule:
    if rng.random() < 0.6:
        return schedule_of(rng.choice(NAMED_SCHEDULES))
    return tuple(rng.choice(SCHEDULE_GAS) for _ in range(3))  # type: ignore[return-value]


def pick_calldata(rng: random.Random) -> bytes:
    kind = rng.randrange(4)
    if kind == 0:
        return b""
    if kind == 1:   # p and its Montgomery constant at 0, then field elements, as memory images
        values = [rng.choice([0, 1, P - 1, P, rng.randrange(P), rng.randrange(2**384)])
                  for _ in range(rng.randint(0, 6))]
        return (P.to_bytes(48, "little") + P_INV.to_bytes(8, "little") + bytes(8)
                + b"".join(v.to_bytes(48, "little") for v in values))
    return bytes(rng.randrange(256) for _ in range(rng.randint(1, 3000 if kind == 2 else 40)))


def pick_word(rng: random.Random) -> int:
    kind = rng.randrange(4)
    if kind == 0:
        return rng.choice(WORDS)
    if kind == 1:
        return rng.randrange(U256)
    if kind == 2:   # near an interesting word
        return (rng.choice(WORDS) + rng.randint(-3, 3)) % U256
    return rng.randrange(300)


def pick_push(rng: random.Random, value: int) -> bytes:
    """Mostly the shortest PUSH; sometimes a wider one, or PUSH32."""
    shortest = (value.bit_length() + 7) // 8
    choice = rng.randrange(6)
    if choice == 0:
        return push(value, 32)
    if choice == 1 and shortest < 32:
        return push(value, rng.randint(max(shortest, 1), 32))
    return push(value)


# --- structured programs ------------------------------------------------------------------

class _Builder:
    """Code under construction, with forward jumps patched once their targets exist."""

    def __init__(self, rng: random.Random, limits: Limits, huge: bool) -> None:
        self.rng, self.limits, self.huge = rng, limits, huge
        self.code = bytearray()
        self.pending: List[int] = []      # offsets of PUSH2 immediates to patch
        self.jumpdests: List[int] = []

    def emit(self, part: bytes) -> None:
        self.code += part

    def memory_range(self, size: Optional[int]) -> Tuple[int, int]:
        """(offset, size) of a memory access (of a size chosen here when None); safe for huge
        gas when self.huge."""
        rng = self.rng
        while True:
            offset = rng.choice(OFFSETS + PAST_CAP_OFFSETS + ([] if self.huge else BELOW_CAP_OFFSETS)
                                + [rng.randrange(2000)])
            length = rng.choice(SIZES + HUGE_SIZES + [rng.randrange(3000)]) if size is None else size
            end = offset + length if length else 0
            if not self.huge or end <= SAFE_MEMORY or end > CAP:
                return offset, length

    def memory_op(self) -> None:
        rng = self.rng
        name = rng.choice(sorted(MEMORY_OPS))
        roles = MEMORY_OPS[name]
        offset, size = self.memory_range(
            None if "s" in roles else 1 if name == "MSTORE8" else 32)
        values = {"o": offset, "s": size, "v": pick_word(rng),
                  "q": rng.choice([0, 1, 31, 32, rng.randrange(400), 2**64, U256 - 1])}
        if "p" in roles:   # MCOPY: the source range must be as safe as the destination
            source = rng.choice(OFFSETS + PAST_CAP_OFFSETS)
            while self.huge and size and SAFE_MEMORY < source + size <= CAP:
                source = rng.choice(OFFSETS + PAST_CAP_OFFSETS)
            values["p"] = source
        for role in reversed(roles):
            self.emit(pick_push(rng, values[role]))
        self.emit(op(name))

    def evm384_op(self) -> None:
        rng = self.rng
        opcode = rng.choice(EVM384_OPCODES)
        while True:
            offsets = [rng.choice([rng.randrange(400), rng.choice([0, 48, 64, 96, 112])])
                       if rng.random() < 0.85 else
                       rng.choice(EVM384_PAST_CAP + EVM384_BELOW_CAP + [rng.randrange(CAP)])
                       for _ in range(4)]
            end = memory_end(opcode, *offsets)
            if not self.huge or end <= SAFE_MEMORY or end > CAP:
                break
        word = (offsets[0] << 96) | (offsets[1] << 64) | (offsets[2] << 32) | offsets[3]
        if rng.random() < 0.15:
            word |= rng.randrange(2**128) << 128   # the high half is not an operand
        # Narrow: the top offsets read 0 (not with huge gas: the end checked above would change).
        width = rng.choice([16, 16, 32] if self.huge else [16, 16, 16, 16, 32, 4, 12, 20])
        self.emit(push(word, width) + bytes([opcode]))

    def fp2_product(self) -> None:
        """The six ops of an Fp2 product (what the fast engine may run as Karatsuba,
        evm/fp2_products.py) on slots after p at 0 (pick_calldata's images): mostly
        disjoint, sometimes aliasing, often with the temporaries t0, t1, t2 (all or some)
        overwritten after, in this segment or past a JUMPDEST; sometimes returning all the
        slots."""
        rng = self.rng
        slots = [64 + 48 * i for i in range(10)]
        rng.shuffle(slots)
        a0, a1, b0, b1, t0, t1, t2, c1, c0 = slots[:9]
        if rng.random() < 0.3:   # an alias: allowed (c1 or c0 on an input) or not
            names = [a0, a1, b0, b1, t0, t1, t2, c1, c0]
            i, j = rng.sample(range(9), 2)
            names[i] = names[j] + rng.choice([0, 0, 8, -16])
            a0, a1, b0, b1, t0, t1, t2, c1, c0 = names
        mod = 0 if rng.random() < 0.9 else rng.choice([48, 64, 200])
        sum_args = (c1, t2) if rng.random() < 0.5 else (t2, c1)
        for name, out, x, y in (("MULMODMONT384", t0, a0, b0), ("MULMODMONT384", t1, a1, b1),
                                ("MULMODMONT384", t2, a0, b1), ("MULMODMONT384", c1, a1, b0),
                                ("ADDMOD384", c1, *sum_args), ("SUBMOD384", c0, t0, t1)):
            word = (out << 96) | (x << 64) | (y << 32) | mod
            self.emit(push(word, 16) + op(name))
        after = rng.randrange(4)
        if after == 1:
            self.jumpdest()
        temporaries = [t0, t1, t2]
        rng.shuffle(temporaries)
        if after in (0, 1):      # overwritten (after == 2: one read first; 3: left)
            for t in temporaries[:3 if rng.random() < 0.8 else 2]:
                self.emit(push((t << 96) | (a0 << 64) | (a1 << 32), 16) + op("ADDMOD384"))
        elif after == 2:
            self.emit(push((c0 << 96) | (temporaries[0] << 64) | (a0 << 32), 16)
                      + op("ADDMOD384"))
            for t in temporaries:
                self.emit(push((t << 96) | (a0 << 64) | (a1 << 32), 16) + op("ADDMOD384"))
        if rng.random() < 0.25:  # every slot in the output, so engines must agree on all
            self.emit(push(64 + 48 * 11) + push(0) + op("RETURN"))

    def pure_op(self) -> None:
        rng = self.rng
        code = rng.choice(PURE_OPS)
        if rng.random() < 0.8:
            for _ in range(OPCODES[code].inputs):
                self.emit(pick_push(rng, pick_word(rng)))
        self.emit(bytes([code]))

    def forward_jump(self) -> None:
        rng = self.rng
        if rng.random() < 0.5:
            self.emit(pick_push(rng, rng.choice([0, 1, 2, U256 - 1])))
            name = "JUMPI"
        else:
            name = "JUMP"
        self.pending.append(len(self.code) + 1)
        self.emit(push(0, 2) + op(name))

    def jumpdest(self) -> None:
        self.jumpdests.append(len(self.code))
        self.emit(op("JUMPDEST"))

    def loop(self, body: Callable[[], None]) -> None:
        """A counted loop (the body may well disturb the counter: gas bounds it)."""
        rng = self.rng
        self.emit(push(rng.choice([1, 2, 3, 10, 100, 1000])))
        start = len(self.code)
        self.emit(op("JUMPDEST"))
        for _ in range(rng.randint(1, 4)):
            body()
        self.emit(push(1) + op("SWAP1") + op("SUB") + op("DUP1") + push(start, 2) + op("JUMPI")
                  + op("POP"))

    def deep_stack(self) -> None:
        count = self.rng.choice([16, 17, 100, 1000, 1023, 1024, 1025])
        self.emit((op("PUSH0") if self.rng.random() < 0.5 else op("GAS")) * count)

    def dup_swap(self) -> None:
        self.emit(bytes([self.rng.choice(range(0x80, 0xA0))]))

    def finish(self) -> bytes:
        rng = self.rng
        for at in self.pending:
            later = [pc for pc in self.jumpdests if pc > at]
            target = rng.choice(later) if later and rng.random() < 0.9 else rng.randrange(
                len(self.code) + 2)
            if self.huge and target < at:   # no backward jumps with huge gas
                target = len(self.code) + 1
            self.code[at:at + 2] = target.to_bytes(2, "big")
        return bytes(self.code)


def structured(rng: random.Random, limits: Limits, huge: bool = False,
               evm384: bool = True) -> Case:
    """A valid-ish program: calldata in memory, then pushes of edge words, instructions with
    their operands, memory accesses at edge offsets, EVM384 operations with in-range and
    out-of-range offsets (unless not ``evm384``: plain EVM), jumps, loops (unless ``huge``),
    deep stacks; ending with a return, a revert, nothing, or a PUSH cut off by the end of
    the code."""
    b = _Builder(rng, limits, huge)
    if rng.random() < 0.7:
        b.emit(op("CALLDATASIZE") + push(0) + push(0) + op("CALLDATACOPY"))
    evm384_ops = [b.evm384_op, b.evm384_op, b.fp2_product] if evm384 else []
    simple = [b.pure_op, b.pure_op, b.pure_op, b.memory_op, *evm384_ops, b.dup_swap,
              lambda: b.emit(pick_push(rng, pick_word(rng))), b.jumpdest, b.forward_jump]
    fragments = simple + [b.deep_stack] + ([] if huge else [lambda: b.loop(
        lambda: rng.choice(simple[:-1])())] * 2)
    for _ in range(rng.randint(1, 30)):
        rng.choice(fragments)()
    ending = rng.randrange(5)
    if ending == 0:
        b.memory_op()
    elif ending == 1:
        b.emit(push(rng.choice([0, 32, 48, 96])) + push(rng.choice([0, 64, 112])) + op("RETURN"))
    elif ending == 2:   # a PUSH cut off by the end of the code
        width = rng.randint(1, 32)
        b.emit(bytes([0x5F + width]) + bytes(rng.randrange(256) for _ in range(rng.randrange(width))))
    code = b.finish()
    gas = rng.choice(HUGE_GAS + [rng.randrange(2**33, MAX_GAS)]) if huge else pick_gas(rng, limits)
    return Case(code, pick_calldata(rng), gas, pick_schedule(rng))


def random_bytes(rng: random.Random, limits: Limits,
                 table: Dict[int, OpcodeInfo] = OPCODES) -> Case:
    """Arbitrary bytes, most of them opcodes this project runs (those of ``table``)."""
    known = sorted(code for code, info in table.items() if not info.needs_state)
    code = bytes(rng.choice(known) if rng.random() < 0.8 else rng.randrange(256)
                 for _ in range(rng.randint(0, 200)))
    return Case(code, pick_calldata(rng), pick_gas(rng, limits), pick_schedule(rng))


# --- mutations ------------------------------------------------------------------------------

def _mutate_code(rng: random.Random, code: bytes, donors: Sequence[Case], limits: Limits) -> bytes:
    code = bytearray(code)
    kind = rng.randrange(8)
    at = rng.randrange(len(code) + 1)
    if kind == 0 and code:
        code[min(at, len(code) - 1)] ^= 1 << rng.randrange(8)
    elif kind == 1 and code:
        code[min(at, len(code) - 1)] = rng.choice(sorted(OPCODES))
    elif kind == 2:   # a structured fragment at an instruction boundary
        boundaries = [pc for pc, _ in instructions(bytes(code))] + [len(code)]
        at = rng.choice(boundaries)
        fragment = structured(rng, limits).code[:rng.randint(1, 60)]
        code[at:at] = fragment
    elif kind == 3:
        code[at:at + rng.randint(1, 64)] = b""
    elif kind == 4:
        end = min(len(code), at + rng.randint(1, 64))
        code[at:at] = code[at:end]
    elif kind == 5 and donors:
        donor = rng.choice(donors).code
        code[at:] = donor[rng.randrange(len(donor) + 1):]
    elif kind == 6:   # a PUSH immediate replaced by an edge word of the same width
        pushes = [(pc, opcode - 0x5F) for pc, opcode in instructions(bytes(code))
                  if 0x60 <= opcode <= 0x7F and pc + opcode - 0x5F < len(code)]
        if pushes:
            pc, width = rng.choice(pushes)
            value = pick_word(rng) % 256**width
            code[pc + 1:pc + 1 + width] = value.to_bytes(width, "big")
    else:
        del code[at:]
    return bytes(code)


def _mutate_calldata(rng: random.Random, data: bytes) -> bytes:
    data = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0 and data:
        data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1:
        del data[rng.randrange(len(data) + 1):]
    elif kind == 2:
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif data:
        data[rng.randrange(len(data))] = rng.choice([0, 1, 0x7F, 0x80, 0xFF])
    return bytes(data)


def mutate(rng: random.Random, seed: Case, donors: Sequence[Case], limits: Limits) -> Case:
    code, calldata, gas, schedule = seed.code, seed.calldata, seed.gas, seed.schedule
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(10)
        if kind < 6:
            code = _mutate_code(rng, code, donors, limits)
        elif kind < 8:
            calldata = _mutate_calldata(rng, calldata)
        elif kind == 8:
            gas = pick_gas(rng, limits)
        else:
            schedule = pick_schedule(rng)
    return Case(code, calldata, min(gas, limits.max_gas), schedule)
