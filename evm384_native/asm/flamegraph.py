"""Gas by run-time call path, as folded stacks and as a flame graph (SVG).

The source map names the code at a pc ("fp2_sqr in line_dbl in ml_dbl_all"), but a
subroutine's code is shared by all its callers, so :func:`.profile.by_scope` cannot say
*which* caller spent the gas. :class:`CallPathGas` follows the run-time call stack
instead: the assembler's call convention (``PUSH ret; PUSH entry; JUMP; ret: JUMPDEST``,
see :meth:`.Assembler.call`) is recognised on the trace, a call pushes a frame and the
JUMP back to its return address pops it. A step's path is then the call sites' scope paths
joined, e.g. ``pairing;ml_loop;line_dbl;fp2_mul;...``, and each step's gas goes to exactly
one path, so the paths' gas adds up to the run's gas used.

:func:`folded` writes the paths in the folded-stack text flame graph tools read
(``frame;frame;frame GAS``, outermost first); :func:`svg` draws them itself, as an icicle
(outermost frame on top, children side by side within their parent's width), so that a
flame graph needs no other tool.
"""
from __future__ import annotations

import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Mapping, Optional, Tuple
from xml.sax.saxutils import escape

from ..evm.tracing import Step, Tracer
from .assembler import Program

Path = Tuple[str, ...]
CODE_FRAME = "code"                # the top frame of code without a program


@dataclass(frozen=True)
class _Frame:
    """A routine on the run-time call stack: the path down to it, the routine whose code
    it runs (to drop from the source map's paths), where its caller resumes, and the gas
    per pc of this path (shared by every call of the routine from the same path)."""
    prefix: Path
    routine: str
    return_pc: Optional[int]
    gas_by_pc: Counter


class CallPathGas(Tracer):
    """A tracer: gas per call path (:meth:`stacks`), following subroutine calls.

    Without a program everything is the top frame ``name``. With one, the top frame is
    named after the routine at pc 0 (a contract's name) unless ``name`` is given.
    A call is a JUMP that lands in another routine's code with its own next pc (the
    return JUMPDEST) under the target on the stack; it enters the routine it lands in,
    also at an inner entry (``asm.call(sub, at=label)``).
    """

    def __init__(self, program: Optional[Program] = None, name: Optional[str] = None) -> None:
        self.program = program
        top_routine = program.source_map[0].routine if program is not None else ""
        top = name or top_routine or CODE_FRAME
        # gas per pc per (path to a frame, its routine): one counter for all the calls of
        # a routine from one call path, so that a step costs one increment
        self._gas: Dict[Tuple[Path, str], Counter] = {}
        self._frames: List[_Frame] = []
        self._enter((top,), top_routine, None)
        self._change: Optional[Tuple[str, int]] = None    # ("call"|"return", target pc)

    def _enter(self, prefix: Path, routine: str, return_pc: Optional[int]) -> None:
        gas_by_pc = self._gas.setdefault((prefix, routine), Counter())
        self._frames.append(_Frame(prefix, routine, return_pc, gas_by_pc))

    def on_step(self, step: Step) -> None:
        # decided before the JUMP (its stack), applied after it: the JUMP's own gas
        # belongs to the frame that runs it
        self._change = None
        if step.name == "JUMP" and self.program is not None:
            self._change = self._jump_kind(step)

    def _jump_kind(self, step: Step) -> Optional[Tuple[str, int]]:
        stack = step.stack
        target = stack[-1]
        if target == self._frames[-1].return_pc:
            return ("return", target)
        if len(stack) >= 2 and stack[-2] == step.pc + 1 and target < self.program.code_size:
            lands_in = self.program.source_map[target].routine
            if lands_in != self.program.source_map[step.pc].routine:
                return ("call", target)
        return None

    def on_step_end(self, step: Step, gas_cost: int, error: Optional[str]) -> None:
        frame = self._frames[-1]
        frame.gas_by_pc[step.pc] += gas_cost
        if self._change is None or error is not None:
            return
        kind, target = self._change
        if kind == "return":
            self._frames.pop()
        else:
            routine = self.program.source_map[target].routine
            site = _extend(frame.prefix, self._scopes(frame.routine, step.pc))
            self._enter(_extend(site, (routine,)), routine, step.pc + 1)

    def _scopes(self, routine: str, pc: int) -> Path:
        """The scope path of ``pc`` below ``routine`` (all of it for code of another
        routine, reached without a call)."""
        if self.program is None:
            return ()
        path = self.program.source_map[pc].path
        return path[1:] if path[:1] == (routine,) else path

    def stacks(self) -> Dict[Path, int]:
        """Gas per call path, outermost frame first; the values add up to the gas used."""
        totals: Counter = Counter()
        for (prefix, routine), gas_by_pc in self._gas.items():
            for pc, gas in gas_by_pc.items():
                totals[_extend(prefix, self._scopes(routine, pc))] += gas
        return {path: gas for path, gas in totals.items() if gas}


def _extend(path: Path, names: Path) -> Path:
    """``path`` + ``names``, a name repeating the one before it left out: a macro scope that
    wraps a call, or a body's scope named after its routine, is one frame, not two."""
    for name in names:
        if name != path[-1]:
            path += (name,)
    return path


def _frame_name(name: str) -> str:
    # ";" separates the frames of a folded line: keep it out of the names
    return name.replace(";", ":")


def folded(stacks: Mapping[Path, int]) -> str:
    """The folded-stack text of flame graph tools: ``outer;...;inner GAS`` per line."""
    lines = [f"{';'.join(_frame_name(name) for name in path)} {gas}"
             for path, gas in sorted(stacks.items()) if gas]
    return "".join(line + "\n" for line in lines)


# --- SVG ---------------------------------------------------------------------------------

WIDTH = 1200.0                     # px of the whole run's gas
ROW = 17                           # px per stack level
TOP = 36                           # px above the first level (the title)
FONT = 11                          # px; a character is about 0.6 of it wide
MIN_WIDTH = 0.1                    # px; narrower frames are left out below the top level


@dataclass
class _Node:
    """A frame of the merged call tree: its gas includes its children's."""
    gas: int = 0
    children: Dict[str, "_Node"] = field(default_factory=dict)


def _tree(stacks: Mapping[Path, int]) -> _Node:
    root = _Node()
    for path, gas in stacks.items():
        node = root
        node.gas += gas
        for name in path:
            node = node.children.setdefault(name, _Node())
            node.gas += gas
    return root


def _color(name: str) -> str:
    # warm colours as flamegraph.pl's, from the name: the same routine keeps its colour
    h = zlib.crc32(name.encode())
    return f"rgb({205 + h % 50},{(h >> 8) % 200},{(h >> 16) % 55})"


def _label(name: str, width: float) -> str:
    """``name`` cut to the characters that fit ``width`` px ("" if not even 3 do)."""
    fits = int((width - 6) / (0.6 * FONT))
    if fits >= len(name):
        return name
    return name[:fits - 2] + ".." if fits >= 3 else ""


def _rect(path: Path, node: _Node, x: float, depth: int, scale: float, total: int) -> str:
    width = node.gas * scale
    y = TOP + depth * ROW
    tip = f"{';'.join(path)} ({node.gas:,} gas, {100 * node.gas / total:.2f}%)"
    text = _label(path[-1], width)
    label = (f'<text x="{x + 3:.4f}" y="{y + ROW - 5}">{escape(text)}</text>' if text else "")
    return (f'<g><title>{escape(tip)}</title><rect x="{x:.4f}" y="{y}" width="{width:.4f}" '
            f'height="{ROW - 1}" fill="{_color(path[-1])}" data-depth="{depth}" '
            f'data-gas="{node.gas}"/>{label}</g>')


def _rects(path: Path, node: _Node, x: float, depth: int, scale: float, total: int,
           out: List[str]) -> None:
    """``node``'s rectangle, then its children's, left to right by name, within its width."""
    out.append(_rect(path, node, x, depth, scale, total))
    for name, child in sorted(node.children.items()):
        if child.gas * scale >= MIN_WIDTH:
            _rects(path + (name,), child, x, depth + 1, scale, total, out)
        x += child.gas * scale


def _depth(node: _Node) -> int:
    return 1 + max((_depth(child) for child in node.children.values()), default=0)


def svg(stacks: Mapping[Path, int], title: str = "gas by call path") -> str:
    """A flame graph (icicle: outermost frames on top) of gas per call path, as SVG text.

    x is the share of gas: the whole width is the total gas and a frame is as wide as its
    gas, its children side by side within it; each frame has a ``<title>`` tooltip (its
    path, gas and percent) and ``data-gas`` / ``data-depth`` attributes.
    """
    root = _tree(stacks)
    total = root.gas or 1
    scale = WIDTH / total
    height = TOP + (_depth(root) - 1) * ROW + ROW
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH + 20:.0f}" '
           f'height="{height}" viewBox="-10 0 {WIDTH + 20:.0f} {height}" '
           f'font-family="monospace" font-size="{FONT}">',
           f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="{FONT + 4}">'
           f'{escape(title)} ({root.gas:,} gas)</text>']
    x = 0.0
    for name, child in sorted(root.children.items()):   # every top frame: widths sum up
        _rects((name,), child, x, 0, scale, total, out)
        x += child.gas * scale
    out.append("</svg>")
    return "\n".join(out) + "\n"
