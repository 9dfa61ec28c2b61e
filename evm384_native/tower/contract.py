"""Building a contract for a (curve, target): an assembler and an emitter, the builder's
code, the constants after it; the build that fits EIP-170's size limit with the least gas;
and the ways a contract answers (a slot, a 0/1 word, REVERT on invalid input)."""
from __future__ import annotations

from typing import Callable, Optional, Sequence

from ..asm import Assembler, Label, Program, Slot, raw
from ..asm.failure import REVERT, Failure
from ..asm.layout import RegisterOverflow
from ..curves.model import Field
from .fp import Emitter
from .pairing import CYCLOTOMIC_RUNS, RESIDENT_CODE, UnavailableBuild
from .target import Target

CONTRACT_SIZE_LIMIT = 24_576                       # EIP-170


def assemble(name: str, curve: Field, isa: Target, build: Callable[[Emitter], None],
             compact: bool, loops: bool = False, register_pairs: int = 0,
             resident_code: str = "inline", inline_powers: bool = False,
             cyclotomic_run: Optional[int] = None, failure: Failure = REVERT) -> Program:
    """The program ``build(e)`` emits, with the emitter's constants after the code; its
    failure sites as ``failure`` says (:mod:`..asm.failure`). Where the target compiles
    field code in blocks with dense code (plain EVM), their constants are pushed where
    read (:class:`.fp.Emitter`'s ``push_constants``) if the code then fits EIP-170's
    limit, else loaded (the same build again)."""
    isa = isa.for_field(curve)
    program = None
    for push_constants in (True, False) if isa.field_blocks and isa.dense_code else (False,):
        asm = Assembler(name, memory=isa.new_memory(), opcodes=isa.opcodes, failure=failure)
        e = Emitter(asm, curve, compact=compact, loops=loops, target=isa,
                    register_pairs=register_pairs, resident_code=resident_code,
                    inline_powers=inline_powers, cyclotomic_run=cyclotomic_run,
                    push_constants=push_constants)
        build(e)
        e.finish()
        program = asm.assemble()
        if len(program.code) <= CONTRACT_SIZE_LIMIT:
            break
    assert program is not None
    return program


def least_gas_that_fits(name: str, curve: Field, isa: Target,
                        build: Callable[[Emitter], None], compact: bool,
                        loops: Optional[bool] = None, inline_powers: bool = False,
                        failure: Failure = REVERT) -> Program:
    """The build with the least gas within the size limit and the register file (else the
    last one tried): where the target keeps pair states in registers, the builds of
    :data:`.pairing.RESIDENT_CODE` in turn (least gas first), each (with ``loops`` None)
    unrolled, then with run-time loops (less code, ~55 gas a digit more: less than the
    next resident build costs). With ``inline_powers`` (dense code only) each build is
    first tried with its exponentiations written out (:class:`.fp.Emitter`). If none
    fits, the same with the target's smaller variant (``isa.smaller``), compact. Where none
    of these fits, all of it again with shorter runs of cyclotomic squarings
    (:data:`.pairing.CYCLOTOMIC_RUNS`, dense code only: BLS12-377's check, ~3.5 KB less for
    ~900 gas more)."""
    program = None
    isa = isa.for_field(curve)
    for cyclotomic_run in CYCLOTOMIC_RUNS:
        variant: Optional[Target] = isa
        variant_compact = compact
        while variant is not None:
            if variant.dense_code or cyclotomic_run == CYCLOTOMIC_RUNS[0]:
                inline_choices = ((True, False) if inline_powers and variant.dense_code
                                  else (False,))
                resident_choices = (RESIDENT_CODE if variant.register_pairs
                                    else RESIDENT_CODE[:1])
                for resident_code in resident_choices:
                    for use_loops in (False, True) if loops is None else (loops,):
                        for inline in inline_choices:
                            try:
                                program = assemble(name, curve, variant, build,
                                                   variant_compact, use_loops,
                                                   variant.register_pairs, resident_code,
                                                   inline, cyclotomic_run, failure)
                            except (RegisterOverflow,   # needs more registers
                                    UnavailableBuild):  # options this build cannot honour
                                continue
                            if len(program.code) <= CONTRACT_SIZE_LIMIT:
                                return program
            variant, variant_compact = variant.smaller, True
    if program is None:
        raise RegisterOverflow(f"{name}: no build fits the EVMMAX register file")
    return program


def first_that_fits(name: str, curve: Field, isa: Target,
                    builds: Sequence[Callable[[Emitter], None]]) -> Program:
    """The first of ``builds`` (in order of preference: least gas first) whose code fits
    EIP-170's limit, else the last."""
    program = None
    for build in builds:
        program = assemble(name, curve, isa, build, compact=False)
        if len(program.code) <= CONTRACT_SIZE_LIMIT:
            break
    assert program is not None
    return program


def return_slot(asm: Assembler, slot: Slot) -> None:
    asm.push(slot.size)
    asm.push(slot)
    asm.op("RETURN")


def return_word(e: Emitter, push_answer: Callable[[], None]) -> None:
    """Return as a 32-byte word the 0 or 1 that ``push_answer`` pushes."""
    asm = e.asm
    word = asm.memory.region("answer").alloc(raw(32), "answer")
    push_answer()
    asm.push(word)
    asm.op("MSTORE")
    return_slot(asm, word)


def fail_here(e: Emitter, fail: Label) -> None:
    """Place ``fail``: the contract's failure (REVERT, or as its precompile an exceptional
    halt: :mod:`..asm.failure`)."""
    e.asm.place(fail)
    e.asm.fail()


def return_word_or_fail(e: Emitter, push_answer: Callable[[], None], fail: Label) -> None:
    """Return the 0/1 word ``push_answer`` pushes; invalid input jumps to ``fail``."""
    return_word(e, push_answer)
    fail_here(e, fail)
