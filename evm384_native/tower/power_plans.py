"""Addition chains for a power a^e with a constant exponent, as data: what to multiply and
square in which order, for the emitters that write them (:func:`.fp.power_chain` and the
field inversions, :mod:`.modn`'s inverses, :mod:`.word_power`'s stack code). No code is
emitted here, so every emitter may import it.

A plan is a list of steps (out, x, y): value out = value x * value y, a squaring when
x == y; value 0 is the base, the last step's out the power.
"""
from __future__ import annotations

from typing import Dict, List, Sequence, Set, Tuple

INV_WINDOW = 5        # a sliding window's odd powers a, a^3 .. a^31


def sliding_window(exponent: int, width: int) -> List[Tuple[int, int]]:
    """Steps (squarings, odd multiplier) of a left-to-right sliding-window power.

    The first step's multiplier initialises the accumulator; a final multiplier 0 means
    "square only".
    """
    bits = bin(exponent)[2:]
    steps: List[Tuple[int, int]] = []
    i, pending = 0, 0
    while i < len(bits):
        if bits[i] == "0":
            pending += 1
            i += 1
            continue
        j = min(i + width, len(bits))
        while bits[j - 1] == "0":
            j -= 1
        steps.append((pending + (j - i), int(bits[i:j], 2)))
        pending, i = 0, j
    if pending:
        steps.append((pending, 0))
    return steps



ONES_SEARCH = 20_000  # nodes :func:`ones_chain` searches at most
LONG_RUN = 8          # runs of ones at least this long are one multiplication by a^(2^L - 1)

# A step of a power plan (the module's doc).
Step = Tuple[int, int, int]


def power_plan(exponent: int, width: int = INV_WINDOW, reuse: bool = False,
               shortest_runs: bool = False) -> List[Step]:
    """An addition chain for a^exponent: a left-to-right sliding window (odd powers up to
    a^(2^width - 1)) in which every run of at least LONG_RUN ones is one multiplication by
    x_L = a^(2^L - 1), the x_L built as x_(i+j) = x_i^(2^j) x_j from the longest value
    at hand (the chain of libsecp256k1's field square root and inversion: for secp256k1's
    (p + 1) / 4, 253 squarings and 14 multiplications where the window takes ~300).
    With ``reuse``, a later run of ones is instead as many multiplications by the first
    run's x_L as fit it (the rest read as windows), so that no other x_L is built apart
    from the chain: P-256's order n, whose ones come as runs of 32, 65. With
    ``shortest_runs`` the x_L are made by :func:`ones_chain`'s fewest steps, else each run
    from the longest x_L made by the longest that fits (greedy): the same squarings, and
    as many steps or more, but which values stay live differs, and so the stack code's
    gas (:func:`.word_power.emit_word_power` tries both)."""
    if exponent < 2:
        raise ValueError("a power plan starts with a squaring: exponent >= 2")
    bits = bin(exponent)[2:]
    tokens: List[Tuple[int, str, int]] = []       # (squarings before, kind, its number)
    i, pending = 0, 0
    while i < len(bits):
        if bits[i] == "0":
            pending, i = pending + 1, i + 1
            continue
        run = len(bits[i:]) - len(bits[i:].lstrip("1"))
        first = next((m for _, kind, m in tokens if kind == "run"), None)
        if reuse and first is not None and run >= first:
            tokens.append((pending + first, "run", first))
            pending, i = 0, i + first
            continue
        if run >= LONG_RUN and (first is None or not reuse):
            tokens.append((pending + run, "run", run))
            pending, i = 0, i + run
            continue
        j = min(i + width, len(bits))
        while bits[j - 1] == "0":
            j -= 1
        tokens.append((pending + j - i, "odd", int(bits[i:j], 2)))
        pending, i = 0, j
    steps: List[Step] = []
    count = [1]

    def new(x: int, y: int) -> int:
        steps.append((count[0], x, y))
        count[0] += 1
        return count[0] - 1
    top = max([m for _, kind, m in tokens if kind == "odd"] + [1])
    odd = {1: 0}
    if top > 1:
        square = new(0, 0)
        for m in range(3, top + 1, 2):
            odd[m] = new(odd[m - 2], square)
    ones = {k: odd[(1 << k) - 1] for k in range(1, 6) if (1 << k) - 1 in odd}
    runs = {m for _, kind, m in tokens if kind == "run"}
    for have, step in (ones_chain(runs, set(ones)) if shortest_runs
                       else greedy_ones_chain(runs, set(ones))):
        value = ones[have]
        for _ in range(step):
            value = new(value, value)
        ones[have + step] = new(value, ones[step])
    (_, kind, m), *rest = tokens
    acc = ones[m] if kind == "run" else odd[m]
    for squarings, kind, m in rest:
        for _ in range(squarings):
            acc = new(acc, acc)
        acc = new(acc, ones[m] if kind == "run" else odd[m])
    if pending:
        for _ in range(pending):
            acc = new(acc, acc)
    return steps


def greedy_ones_chain(targets: Set[int], have: Set[int]) -> List[Tuple[int, int]]:
    """Steps (a, b), x_(a+b) = x_a^(2^b) x_b, that make the x_L of ``targets`` (in
    increasing order) from those of ``have``: each from the longest x_L made below it,
    extended by the longest that fits."""
    made = set(have)
    steps: List[Tuple[int, int]] = []
    for target in sorted(targets):
        last = max(k for k in made if k <= target)
        while last < target:
            step = max(k for k in made if k <= target - last)
            steps.append((last, step))
            last += step
            made.add(last)
    return steps


def ones_chain(targets: Set[int], have: Set[int]) -> List[Tuple[int, int]]:
    """The fewest steps (a, b), x_(a+b) = x_a^(2^b) x_b for x_L = a^(2^L - 1), that make
    every x_L of ``targets`` from those of ``have``: a star chain (a the last length made,
    b any made: then the squarings add up to the largest target less the largest had,
    whatever the chain), by iterative deepening. Each length made extends the last, so
    a target below the last is out of reach (pruned), as is the largest where doublings
    alone would fall short. For secp256k1's p - 2 (runs of 22 and 223 from x1, x2):
    3, 6, 9, 11, 22, .. 223, libsecp256k1's chain in length (10 steps), where extending
    each target greedily by the largest length that fits took 11. More than
    ONES_SEARCH nodes searched (many runs of ones): :func:`greedy_ones_chain`'s."""
    wanted = sorted(targets - have)
    steps: List[Tuple[int, int]] = []
    if not wanted:
        return steps
    made = sorted(have)

    nodes = [0]

    def search(depth: int) -> bool:
        nodes[0] += 1
        if nodes[0] > ONES_SEARCH:
            raise _SearchTooLong
        last = made[-1]
        missing = [t for t in wanted if t not in made]
        if not missing:
            return True
        if depth == 0 or missing[0] < last or last << depth < wanted[-1]:
            return False
        for b in sorted(set(made), reverse=True):
            if last + b <= missing[0]:
                made.append(last + b)
                steps.append((last, b))
                if search(depth - 1):
                    return True
                made.pop()
                steps.pop()
        return False
    depth = 1
    try:
        while not search(depth):
            depth += 1
    except _SearchTooLong:
        return greedy_ones_chain(targets, have)
    return steps


class _SearchTooLong(Exception):
    """:func:`ones_chain`'s search gave up."""


def kept_values(steps: Sequence[Step]) -> List[int]:
    """The values of a power plan that need a register of their own: those read by a
    step other than the one right after them (the rest can live in the output)."""
    reads: Dict[int, Set[int]] = {}
    for index, (_, x, y) in enumerate(steps):
        for value in (x, y):
            reads.setdefault(value, set()).add(index)
    return [value for index, (value, _, _) in enumerate(steps)
            if reads.get(value, set()) - {index + 1}]


def window_plan(exponent: int, width: int) -> List[Step]:
    """A left-to-right sliding window (:func:`sliding_window`) as a power plan: the odd
    powers a^3 .. up to the largest multiplier first, then the squarings and products."""
    steps: List[Step] = []

    def new(x: int, y: int) -> int:
        steps.append((len(steps) + 1, x, y))
        return len(steps)
    windows = sliding_window(exponent, width)
    odd = {1: 0}
    top = max(m for _, m in windows)
    if top > 1:
        square = new(0, 0)
        for m in range(3, top + 1, 2):
            odd[m] = new(odd[m - 2], square)
    (_, first), *rest = windows
    acc = odd[first]
    for count, m in rest:
        for _ in range(count):
            acc = new(acc, acc)
        if m:
            acc = new(acc, odd[m])
    return steps
