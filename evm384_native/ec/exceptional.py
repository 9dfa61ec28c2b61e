"""The exceptional cases of a window loop's mixed additions, handled where they happen.

A mixed addition acc += T (madd-2004-hmv: :func:`..tower.jacobian.jacobian_add_affine_hmv`,
:func:`.a_minus_3.add_mixed`) is right unless acc = +-T or acc is infinity, and then it
leaves Z3 = Z1 H = 0. So one test of Z3 after each addition finds every exception, and
the values it leaves tell them apart:

- acc was infinity (Z1 = 0): only an earlier exception makes it so (a doubling of a
  finite point of odd order never does, Z3 = Y Z), which set the flag word; acc takes T;
- acc = T (H = 0, R = 0): X3 = R^2 - H^3 - 2 X1 H^2 = 0; acc = 2T;
- acc = -T (H = 0, R != 0): X3 = R^2 != 0; acc is infinity (Z3 = 0 already), the flag
  set.

Each case costs a few products, so an input chosen to meet them (u1 G = -u2 Q, a key
whose discrete logarithm its maker knows) costs about what any input does, where a rerun
of the whole product on a complete path cost 4-6 times as much; acc at infinity, the one
case that can recur at every bit, is tested first. A finished loop with Z = 0 is
infinity itself. Why a test after every addition (bench/README.md has the figures): one
test for the additions at one bit (a later addition keeps Z = 0, and (X, Z) saved after
each but the last) is cheaper on EVMMAX, where a test LOADXes Z, but its handler must add
again what followed the exception, and inputs meeting acc = infinity at every bit then
cost more than 1.5x what others do. On plain EVM, where a test ends a block of field
code, the tests are deferred to the end of a segment of the loop instead, this class
serving the careful path an exception sends the rest of the product to (:mod:`.deferred`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Optional, Tuple

from ..asm import Fp, G1, G1Jacobian, Subroutine, raw
from ..tower import fp
from ..tower.compare import push_field_is_zero
from ..tower.fp import Emitter

WORD = 32


@dataclass(frozen=True)
class Addend:
    """A record added to acc: the affine slot it is loaded into, its x times ``x_factor``
    (an endomorphism's image), and ``z_factor`` u for a record on the curve itself when
    acc lives on the isomorphic curve of u (as the addition takes it)."""
    record: G1
    x_factor: Optional[Fp] = None
    z_factor: Optional[Fp] = None

    @property
    def key(self) -> Tuple[str, ...]:
        return tuple(slot.name for slot in (self.record, self.x_factor, self.z_factor)
                     if slot is not None)


class Exceptions:
    """Mixed additions into ``acc`` with their exceptional cases handled. ``add(addend)``
    emits acc += addend (the caller's formula); ``double()`` doubles acc in place once it
    holds a record with Z = 1 (on the curve acc lives on)."""

    def __init__(self, e: Emitter, acc: G1Jacobian, add: Callable[[Addend], None],
                 double: Callable[[], None]) -> None:
        self.e, self.acc, self._add, self.double = e, acc, add, double
        self.flag = e.asm.memory.region("exceptional_flag").alloc(raw(WORD), "at_infinity")
        self._handlers: Dict[Tuple[str, ...], Subroutine] = {}

    def add_untested(self, addend: Addend) -> None:
        """acc += addend with no test: a later test of Z finds an exception (Z stays 0),
        as :mod:`.deferred`'s segments do."""
        self._add(addend)

    def add(self, addend: Addend) -> None:
        """acc += addend, its exceptional cases handled (module doc): where Z3 = 0 a jump
        to a detour after the code (this addition's own: it pushes the return address and
        jumps on) into the handler, a subroutine (one per kind of record); the usual path
        pays the test and a JUMPI, no ISZERO and no push of a return address."""
        asm = self.e.asm
        self._add(addend)
        if addend.key not in self._handlers:
            self._handlers[addend.key] = asm.subroutine(
                "exceptional_" + "_".join(addend.key), lambda asm: self._handle(addend))
        handler = self._handlers[addend.key]
        back = asm.new_label("addition_normal")
        detour = asm.subroutine(asm.new_label("exceptional_detour").name,
                                lambda asm: (asm.push(back), asm.push(handler.entry)))
        push_field_is_zero(self.e, self.acc.z)
        asm.jumpi(detour.entry)
        asm.place(back)
        asm.schedule(detour)
        asm.schedule(handler)

    def _handle(self, addend: Addend) -> None:
        asm, e, flag = self.e.asm, self.e, self.flag
        took, twice, done = (asm.new_label(name) for name in (
            "exceptional_took", "exceptional_twice", "exceptional_done"))
        asm.push(flag)
        asm.op("MLOAD")
        asm.jumpi(took)                            # acc was infinity
        push_field_is_zero(e, self.acc.x)
        asm.jumpi(twice)                           # acc was T
        asm.push(1)                                # acc was -T: infinity, Z = 0 already
        asm.push(flag)
        asm.op("MSTORE")
        asm.jump(done)
        asm.place(took)                            # acc = T
        asm.push(0)
        asm.push(flag)
        asm.op("MSTORE")
        self._take(addend)
        asm.jump(done)
        asm.place(twice)
        self._take(addend)
        self.double()
        asm.place(done)

    def _take(self, addend: Addend) -> None:
        """acc = the record on acc's curve, Z = 1: (c x, y), times (u^2, u^3) for a record
        on the curve itself."""
        e, acc, record = self.e, self.acc, addend.record
        fp.copy(e, acc.x, record.x)
        fp.copy(e, acc.y, record.y)
        fp.copy(e, acc.z, e.one)
        if addend.x_factor is not None:
            fp.mul(e, acc.x, acc.x, addend.x_factor)
        if addend.z_factor is not None:
            with e.asm.temps(Fp) as (t,):
                fp.sqr(e, t, addend.z_factor)
                fp.mul(e, acc.x, acc.x, t)
                fp.mul(e, t, t, addend.z_factor)
                fp.mul(e, acc.y, acc.y, t)
