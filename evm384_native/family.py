"""A contract family: the contracts one package builds over one curve or field, described
once as data. Each contract package exports one :class:`Family` (its ``FAMILY``, in the
package's ``family`` module); :mod:`.contracts` lists the families and derives every table
the tools read from them, so a new contract is one entry in its family's ``targets``.

The target is resolved here, once, from its name (:func:`~.tower.target.resolve_target`),
and the family's builder receives it as a :class:`~.tower.target.Target`."""
from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from typing import Any, Callable, Mapping, Optional, Tuple, Union

from .asm import Program
from .asm.failure import REVERT, Failure
from .curves.model import Field
from .tower.target import Target
from .tower.targets import resolve_target
from .usage import Usage

# A family's builder: the contract's name, ``compact`` (None: the target's choice) and the
# resolved target, to the assembled program (cached by the family's package).
Builder = Callable[[str, Optional[bool], Target], Program]
# The answer of the precompile a contract stands for, computed in pure Python: the output
# for the contract's calldata, or None where the precompile fails.
Reference = Callable[[str, bytes], Optional[bytes]]


@dataclass(frozen=True, repr=False)
class Family:
    """One package's contracts. ``targets`` maps each contract, in the package's order, to the
    targets it is built for (the first is the default); ``build`` assembles one for a
    resolved target; ``encode_calldata(name, *args)`` makes its calldata from Python values;
    ``usage`` maps each contract to its :class:`~.usage.Usage` (random inputs, the
    precompile's price; the package's own dict, so what it registers shows at once);
    ``reference``, where the package has one, answers as the precompile does."""
    name: str
    field: Optional[Field]        # the curve (or bare field) whose arithmetic it does;
                                  # None where each call brings its own (MODEXP)
    targets: Mapping[str, Tuple[str, ...]]
    build: Builder
    encode_calldata: Callable[..., bytes]
    usage: Mapping[str, Usage]
    reference: Optional[Reference] = None
    # how each contract fails on invalid input (:mod:`.asm.failure`; absent: REVERT)
    failures: Mapping[str, Failure] = dataclass_field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Family({self.name!r}: {', '.join(self.contracts)})"

    @property
    def contracts(self) -> Tuple[str, ...]:
        return tuple(self.targets)

    def failure_of(self, name: str) -> Failure:
        """How contract ``name`` fails on invalid input: as its precompile (an exceptional
        halt) where it has a precompile's interface, else REVERT."""
        self.targets_of(name)
        return self.failures.get(name, REVERT)

    def targets_of(self, name: str) -> Tuple[str, ...]:
        """The targets contract ``name`` is built for; ValueError for another name."""
        targets = self.targets.get(name)
        if targets is None:
            raise ValueError(f"unknown contract {name!r}; choose one of "
                             f"{', '.join(self.contracts)}")
        return targets

    def resolve(self, name: str, target: Union[str, Target, None]) -> Target:
        """``target`` (None: the contract's first) resolved, if ``name`` is built for it."""
        targets = self.targets_of(name)
        isa = resolve_target(targets[0] if target is None else target)
        if isa.name not in targets:
            only = " and ".join(t.upper() for t in targets)
            raise ValueError(f"{name} is built for {only} only, not {isa.name!r}: use "
                             f"target={targets[0]!r} (--target {targets[0]})")
        return isa

    def build_program(self, name: str, compact: Optional[bool] = None,
                      target: Union[str, Target, None] = None) -> Program:
        """The assembled contract ``name`` for ``target`` (a name or a target; None: the
        first it is built for), with its source map and memory layout; ``compact``
        shares cold routines (None: the target's choice; ignored where the family lays
        its code out by hand)."""
        return self.build(name, compact, self.resolve(name, target))

    def build_contract(self, name: str, **options: Any) -> bytes:
        """Bytecode of contract ``name``; options ``compact`` and ``target`` (see
        :meth:`build_program`)."""
        unknown = set(options) - {"compact", "target"}
        if unknown:
            raise TypeError(f"unknown options for {name}: {', '.join(sorted(unknown))}")
        return self.build_program(name, **options).code

    def run(self, name: str, *args: Any, target: Union[str, Target, None] = None,
            **execute_options: Any) -> Any:
        """``execute(build_contract(name, target=target), encode_calldata(name, *args),
        opcodes=<the target's>, **execute_options)``; RuntimeError if the execution fails
        (a REVERT for invalid input, or a halt)."""
        from .evm import execute
        if "opcodes" in execute_options:
            raise TypeError("run picks the opcode set from target=; do not pass opcodes=")
        isa = self.resolve(name, target)
        result = execute(self.build(name, None, isa).code, self.encode_calldata(name, *args),
                         opcodes=isa.opcodes, **execute_options)
        if not result.success:
            raise RuntimeError(f"{name} contract failed: {result.error}")
        return result
