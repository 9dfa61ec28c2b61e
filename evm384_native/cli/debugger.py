"""A step debugger driven from the interpreter's per-instruction hook.

``execute()`` runs in the caller's thread with a :class:`Debugger` as its tracer. Before each
instruction the hook decides whether to stop (single steps, ``next``'s target, breakpoints,
Ctrl-C); when it stops it prints the instruction and reads commands until one lets the
machine go on. The engine loop knows nothing of this: the hook blocking *is* the pause.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple

from ..asm import Instruction, Slot
from ..evm.evm384 import unpack_offsets
from ..evm.kernels.operands import OPERAND_NAMES
from ..evm.kernels.limbs import LIMBS384
from ..evm.opcode_sets import DEFAULT_OPCODES, resolve_opcodes
from ..evm.opcodes import PACKED_OFFSET_MNEMONICS
from ..evm.result import ExecutionResult
from ..evm.tracing import FieldContextView, Step, Tracer
from .errors import CliError
from .names import find_slot, named_pcs, parse_int, resolve_pcs
from .views import (EVMMAX_STACK_OPERANDS, CodeView, context_text, fp_text, hexdump,
                    register_lines, result_text)

PROMPT = "(evm384) "
HELP = """\
step [N]            run N instructions (default 1), then stop            (s)
next                run until the instruction after this one: steps over a call  (n)
continue            run until a breakpoint or the end                    (c)
break [PC|NAME]     stop before that instruction; NAME: a label or a scope (a routine or
                    the code inside it) as labels, the profiler and where show it: at
                    every pc it names; alone: list breakpoints           (b)
delete [PC|NAME]    remove that breakpoint (a NAME's: all); alone: all of them  (d)
labels [TEXT]       the labels and scopes (those whose name contains TEXT), each with
                    its pcs: a label's, where each run of a scope's code begins
stack               the stack, top first
mem OFFSET [LEN]    memory bytes (LEN default: the slot's size, 48 for out/x/y/mod (96
                    under EVM768), else 32);
                    EVMMAX: OFFSET may be the memory operand of the instruction
                    stopped at: SETMODX's modulus_offset, LOADX's dest, STOREX's source
fp OFFSET           48-byte little-endian value(s) (96-byte under EVM768), also out of
                    Montgomery form with --montgomery; OFFSET is a number, a slot name (contracts) or out/x/y/mod
                    of the EVM384 instruction stopped at (or of the PUSH16 feeding it)
ctx [ID]            EVMMAX: the field contexts (id, modulus, element size, registers);
                    with ID, that context's registers
reg [N [COUNT]|out|x|y|dest|source]
                    EVMMAX: registers of the active field context by name (rN) and
                    value: all, COUNT from rN, or the operand of the instruction
                    stopped at (out/x/y of ADDMODX/SUBMODX/MULMODX; source of LOADX,
                    dest of STOREX). Values are canonical: converted out of
                    Montgomery form for odd moduli (as LOADX does)
where               the routine and label that emitted this code (contracts)
info                pc, gas, memory size, stack depth, steps run, breakpoints,
                    the active field context (EVMMAX)
quit                abort the execution; so does the end of input        (q)"""


class Quit(Exception):
    """The user ended the session before the code did."""


class CommandReader:
    """Commands one per line: with a prompt on a terminal; echoed after the prompt otherwise,
    so a scripted session's transcript reads like an interactive one."""

    def __init__(self, stream: TextIO, out: TextIO) -> None:
        self.stream, self.out = stream, out
        self.interactive = stream.isatty()
        if self.interactive:
            try:
                import readline  # noqa: F401 - gives input() line editing and history
            except ImportError:   # not on every platform (e.g. Windows without pyreadline)
                pass

    def read(self) -> Optional[str]:
        """The next command, or None at end of input."""
        if self.interactive:
            try:
                return input(PROMPT).strip()
            except EOFError:
                return None
        line = self.stream.readline()
        if not line:
            return None
        self.out.write(f"{PROMPT}{line.strip()}\n")
        return line.strip()


class Debugger(Tracer):
    """The tracer that pauses execution; see the module docstring."""

    def __init__(self, view: CodeView, reader: CommandReader, out: TextIO,
                 montgomery: Optional[int] = None, opcodes: str = DEFAULT_OPCODES) -> None:
        self.view, self.reader, self.out = view, reader, out
        self.montgomery = montgomery
        self.opcodes = opcodes
        # the size of fp's values and of out/x/y/mod: the opcode set's (EVM768: 96 bytes)
        self.fp_size = 8 * (resolve_opcodes(opcodes).value_limbs or LIMBS384)
        self.breakpoints: Dict[int, str] = {}      # pc -> the name it was set by, or ""
        self.countdown = 1                          # stop when it reaches 0 (1: at the start)
        self.until: Optional[int] = None            # next's target pc
        self.interrupted = False
        self.steps = 0
        self.start_gas = 0
        self.step: Optional[Step] = None
        self.commands: Dict[str, Callable[[List[str]], bool]] = {
            "step": self.cmd_step, "s": self.cmd_step, "next": self.cmd_next,
            "n": self.cmd_next, "continue": self.cmd_continue, "c": self.cmd_continue,
            "break": self.cmd_break, "b": self.cmd_break, "delete": self.cmd_delete,
            "d": self.cmd_delete, "labels": self.cmd_labels, "stack": self.cmd_stack,
            "mem": self.cmd_mem, "fp": self.cmd_fp, "ctx": self.cmd_ctx, "reg": self.cmd_reg,
            "where": self.cmd_where, "info": self.cmd_info,
            "quit": self.cmd_quit, "q": self.cmd_quit, "help": self.cmd_help}

    # --- tracer events ------------------------------------------------------------------

    def on_start(self, code: bytes, calldata: bytes, gas: int) -> None:
        self.start_gas = gas

    def on_step(self, step: Step) -> None:
        self.steps += 1
        self.countdown -= 1
        hit = step.pc in self.breakpoints
        if not (hit or self.countdown == 0 or step.pc == self.until or self.interrupted):
            return
        if hit:
            self.say(f"breakpoint at pc {step.pc}{_label(self.breakpoints[step.pc])}")
        elif self.interrupted:
            self.say("interrupted")
        self.step, self.until, self.interrupted = step, None, False
        self.say(self.view.step_line(step.pc, step.name, step.stack))
        self._command_loop()

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        if error is not None:
            self.say(f"halted at pc {step.pc} ({step.name}): {error}")

    def on_end(self, result: ExecutionResult) -> None:
        self.say("finished")
        self.say(result_text(result, self.opcodes))

    # --- the pause ----------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.out.write(text + "\n")

    def _command_loop(self) -> None:
        while True:
            line = self.reader.read()
            if line is None:
                raise Quit()
            if not line:
                continue
            word, *rest = line.split()
            command = self.commands.get(word)
            if command is None:
                self.say(f"unknown command {word!r}; try help")
                continue
            try:
                if command(rest):
                    return
            except CliError as error:
                self.say(f"error: {error}")

    @contextmanager
    def stop_on_interrupt(self) -> Iterator[None]:
        """While running interactively, Ctrl-C stops before the next instruction instead of
        killing the session (signal handlers can only be set in the main thread)."""
        if not self.reader.interactive or threading.current_thread() is not threading.main_thread():
            yield
            return
        previous = signal.signal(signal.SIGINT, lambda *_: setattr(self, "interrupted", True))
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, previous)

    # --- commands: each returns True when the machine should go on ----------------------

    def cmd_step(self, args: List[str]) -> bool:
        self.countdown = _number(args[0], "step count", minimum=1) if args else 1
        return True

    def cmd_next(self, args: List[str]) -> bool:
        info = self.view.info_at(self.current.pc)
        self.until = self.current.pc + 1 + (info.immediate if info else 0)
        return self.cmd_continue(args)

    def cmd_continue(self, args: List[str]) -> bool:
        self.countdown = 0                      # never reaches 0 again: counts below it
        return True

    def cmd_break(self, args: List[str]) -> bool:
        if not args:
            for pc, label in sorted(self.breakpoints.items()):
                self.say(f"breakpoint at pc {pc}{_label(label)}")
            if not self.breakpoints:
                self.say("no breakpoints")
            return False
        pcs = resolve_pcs(args[0], self.view.program)
        starts = self.view.starts()
        for pc in pcs:
            if pc not in starts:
                raise CliError(f"no instruction starts at pc {pc}")
        name = "" if parse_int(args[0]) is not None else args[0]
        self.breakpoints.update(dict.fromkeys(pcs, name))
        if len(pcs) > 1:
            self.say(f"breakpoints set at {len(pcs)} pcs where {name} starts: "
                     f"{', '.join(map(str, pcs))}")
            return False
        ins = self.view.instructions.get(pcs[0])
        if ins is None:                                 # the EVM384 op of a folded pair
            ins = Instruction(pcs[0], self.view.table[self.view.code[pcs[0]]].name)
        self.say(f"breakpoint set: {self.view.line(ins).strip()}")
        return False

    def cmd_delete(self, args: List[str]) -> bool:
        if not args:
            self.breakpoints.clear()
            self.say("deleted all breakpoints")
            return False
        deleted = [pc for pc in resolve_pcs(args[0], self.view.program)
                   if self.breakpoints.pop(pc, None) is not None]
        if not deleted:
            raise CliError(f"no breakpoint at {args[0]}")
        self.say(f"deleted the breakpoint at pc {deleted[0]}" if len(deleted) == 1
                 else f"deleted {len(deleted)} breakpoints ({args[0]})")
        return False

    def cmd_labels(self, args: List[str]) -> bool:
        program = self.view.program
        if program is None:
            raise CliError("no labels or scopes: CODE is not a contract")
        text = args[0] if args else ""
        names = {name: pcs for name, pcs in named_pcs(program).items() if text in name}
        if not names:
            self.say(f"no label or scope name contains {text!r}")
            return False
        scopes = program.scope_entries()
        width = max(map(len, names))
        for name, pcs in sorted(names.items()):
            kind = "+".join(what for what, table in (("label", program.labels),
                                                     ("scope", scopes)) if name in table)
            self.say(f"{name:<{width}}  {kind:<11}  {' '.join(map(str, pcs))}")
        return False

    def cmd_stack(self, args: List[str]) -> bool:
        stack = self.current.stack
        for depth, word in enumerate(reversed(stack)):
            self.say(f"{depth:4d}: {word:#x}")
        if not stack:
            self.say("(empty)")
        return False

    def cmd_mem(self, args: List[str]) -> bool:
        if not args:
            raise CliError("usage: mem OFFSET [LEN]")
        offset, size, _ = self._place(args[0])
        length = _number(args[1], "length", minimum=0) if len(args) > 1 else size or 32
        memory = self.current.memory
        for row in hexdump(memory, offset, min(length, max(0, len(memory) - offset))):
            self.say(row)
        if offset + length > len(memory):
            self.say(f"(memory is {len(memory)} bytes; the rest reads as zeros)")
        return False

    def cmd_fp(self, args: List[str]) -> bool:
        if len(args) != 1:
            raise CliError("usage: fp OFFSET|SLOT|out|x|y|mod")
        offset, _, fps = self._place(args[0])
        places = [(fp.name, fp.offset) for fp in fps] or [(args[0], offset)]
        memory = self.current.memory
        for name, offset in places:
            data = memory[offset:offset + self.fp_size].ljust(self.fp_size, b"\0")
            self.say(f"{name} @{offset:#x}: {fp_text(data, self.montgomery)}")
        return False

    def cmd_ctx(self, args: List[str]) -> bool:
        step = self.current
        contexts = step.field_contexts
        if contexts is None:
            raise CliError("field contexts exist under --opcodes evmmax only")
        if args:
            context_id = _number(args[0], "field context id", minimum=0)
            context = step.field_context(context_id)
            if context is None:
                raise CliError(f"no field context {context_id}")
            self._show_registers(context, range(context.register_count))
            return False
        active = step.active_context
        for context in contexts:
            self.say(context_text(context, context.id == active))
        if not contexts:
            self.say("no field contexts")
        return False

    def cmd_reg(self, args: List[str]) -> bool:
        step = self.current
        if step.field_contexts is None:
            raise CliError("registers exist under --opcodes evmmax only")
        context = step.field_context()
        if context is None:
            raise CliError("no active field context")
        self._show_registers(context, self._register_indices(args, context.register_count))
        return False

    def cmd_where(self, args: List[str]) -> bool:
        location = self.view.location(self.current.pc)
        self.say(f"pc {self.current.pc}: {location or 'no source map (CODE is not a contract)'}")
        return False

    def cmd_info(self, args: List[str]) -> bool:
        step = self.current
        self.say(f"pc {step.pc}  gas left {step.gas:,}  gas used {self.start_gas - step.gas:,}  "
                 f"memory {step.memory_size:,} bytes  stack {len(step.stack)} items  "
                 f"steps run {self.steps - 1:,}  breakpoints {len(self.breakpoints)}")
        context = step.field_context()
        if context is not None:
            self.say(context_text(context, True))
        elif step.field_contexts is not None:
            self.say("no active field context")
        return False

    def cmd_quit(self, args: List[str]) -> bool:
        raise Quit()

    def cmd_help(self, args: List[str]) -> bool:
        self.say(HELP)
        return False

    # --- helpers ------------------------------------------------------------------------

    @property
    def current(self) -> Step:
        assert self.step is not None, "commands run only while stopped at a step"
        return self.step

    def _operands(self) -> Dict[str, int]:
        """out/x/y/mod of the EVM384 instruction stopped at (from the stack top) or of the
        pair whose PUSH16 it is."""
        step = self.current
        if step.name in PACKED_OFFSET_MNEMONICS and step.stack:
            return dict(zip(OPERAND_NAMES, unpack_offsets(step.stack[-1])))
        folded = self.view.instructions.get(step.pc)   # the PUSH16 of a PUSH16 + EVM384 pair
        offsets = folded.offsets() if folded is not None else None
        return dict(zip(OPERAND_NAMES, offsets)) if offsets else {}

    def _show_registers(self, context: FieldContextView, indices: Iterable[int]) -> None:
        values = self.current.registers(context.id)
        self.say(context_text(context, context.id == self.current.active_context))
        self.say("values as stored (power-of-two modulus)"
                 if context.modulus & (context.modulus - 1) == 0
                 else "canonical values (converted out of Montgomery form)")
        for line in register_lines(values, indices, context.element_size):
            self.say(line)

    def _register_indices(self, args: List[str], count: int) -> Iterable[int]:
        """The registers ``reg`` names: all, rN.. (COUNT of them), or an operand of the
        instruction stopped at; those past the last register are left out."""
        if not args:
            return range(count)
        operands = self._register_operands()
        if args[0] in operands:
            return [index for index in operands[args[0]] if index < count]
        first = _number(args[0].lstrip("r"), "register", minimum=0)
        size = _number(args[1], "count", minimum=1) if len(args) > 1 else 1
        if first >= count:
            raise CliError(f"r{first} is past the {count} registers")
        return range(first, min(first + size, count))

    def _register_operands(self) -> Dict[str, Sequence[int]]:
        """out/x/y of the vector instruction stopped at (index, stride, count), the register
        side of LOADX (source) or STOREX (dest)."""
        step = self.current
        immediates = step.immediates
        if immediates is not None:   # a stride of 0 reads one register count times
            return {name: list(dict.fromkeys(
                immediates[f"{name}_idx"] + immediates[f"{name}_stride"] * i
                for i in range(immediates["count"]))) for name in ("out", "x", "y")}
        if step.name in ("LOADX", "STOREX") and len(step.stack) >= 3:
            operands = dict(zip(EVMMAX_STACK_OPERANDS[step.name], reversed(step.stack)))
            side = "source" if step.name == "LOADX" else "dest"
            return {side: range(operands[side], operands[side] + operands["count"])}
        return {}

    def _memory_operands(self) -> Dict[str, Tuple[int, int]]:
        """(offset, size) of the memory an EVMMAX instruction stopped at reads or writes:
        SETMODX's modulus (``modulus_offset``), LOADX's ``dest``, STOREX's ``source``."""
        step = self.current
        names = EVMMAX_STACK_OPERANDS.get(step.name)
        if names is None or len(step.stack) < len(names):
            return {}
        operands = dict(zip(names, reversed(step.stack)))
        if step.name == "SETMODX":
            return {"modulus_offset": (operands["modulus_offset"], operands["modulus_size"])}
        context = step.field_context()
        if context is None:
            return {}
        side = "dest" if step.name == "LOADX" else "source"
        return {side: (operands[side], operands["count"] * context.element_size)}

    def _place(self, text: str) -> Tuple[int, int, List[Slot]]:
        """(offset, size, the Fps inside) of an operand of the EVM384 instruction stopped at,
        the memory operand of the EVMMAX instruction stopped at, a number (size 0:
        unknown) or a slot of the contract."""
        operand = self._operands().get(text)
        if operand is not None:
            return operand, self.fp_size, []
        memory = self._memory_operands().get(text)
        if memory is not None:
            return memory[0], memory[1], []
        number = parse_int(text)
        if number is not None:
            if number < 0:
                raise CliError(f"a memory offset is not negative: {text!r}")
            return number, 0, []
        slot = find_slot(self.view.program, text)
        return slot.offset, slot.size, list(slot.fps())


def _label(label: str) -> str:
    return f" ({label})" if label else ""


def _number(text: str, what: str, minimum: int) -> int:
    value = parse_int(text)
    if value is None or value < minimum:
        raise CliError(f"{what} must be a number >= {minimum}, not {text!r}")
    return value
