"""``evm384 report``: the whole answer on one page (:mod:`evm384_native.report`), written to
a directory as ``report.html`` (self-contained), ``report.md`` with its figures as SVG
files, and ``report.json`` (the data both were made from), with a progress bar on stderr
while it measures."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..report import html, markdown
from ..report.collect import DEFAULT, QUICK, QUICK_DROPS, WrongAnswer, collect
from .errors import CliError, RunFailed

BAR_WIDTH = 30


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "report", help="the whole answer on one page: HTML and Markdown, measured now",
        description="Measures every contract's gas (evm384 gas's code), its time on the fast "
                    "engine and Mgas/s (evm384 price's code) beside the native library, and "
                    "the two-pairing check in every implementation; writes report.html (one "
                    "self-contained page), report.md with its SVG figures, and report.json. "
                    "A default run takes about a minute here.")
    parser.add_argument("--out", metavar="DIR", default="evm384-report",
                        help="directory to write into, made if missing (default "
                             "evm384-report)")
    parser.add_argument("--quick", action="store_true",
                        help=f"under a minute: {QUICK_DROPS}")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random inputs (default 1): the gas figures are "
                             "`evm384 gas --seed S`'s")
    parser.set_defaults(func=command)


def progress_bar(done: int, steps: int, what: str) -> None:
    """``[#####.....] 12/32 what`` on stderr: redrawn in place on a terminal, a line a step
    otherwise (a log keeps every step)."""
    filled = BAR_WIDTH * done // steps
    line = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{steps} {what}"
    if sys.stderr.isatty():
        end = "\n" if done == steps else ""
        print(f"\r\033[K{line}", end=end, file=sys.stderr, flush=True)
    else:
        print(line, file=sys.stderr, flush=True)


def _directory(path: str) -> Path:
    out = Path(path)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CliError(f"--out {path!r} is a file, not a directory") from None
    except OSError as error:
        raise CliError(f"cannot make the directory {path!r}: {error.strerror}") from None
    return out


def command(args: argparse.Namespace) -> int:
    out = _directory(args.out)                 # before the measuring, not after
    try:
        report = collect(args.seed, QUICK if args.quick else DEFAULT, args.quick, progress_bar)
    except WrongAnswer as error:
        raise RunFailed(str(error)) from None
    files = {"report.html": html.render(report), "report.md": markdown.render(report),
             "report.json": json.dumps(report, indent=1) + "\n", **markdown.figures(report)}
    for name, text in files.items():
        (out / name).write_text(text)
    print(out / "report.html")
    # as `evm384 gas`: a failed run is on the page ("failed: ..."), and the exit code is 1
    failed = [row for row in report["gas"] if row["success"] is False]
    if failed:
        raise RunFailed(f"{len(failed)} example runs failed, first {failed[0]['contract']} "
                        f"({failed[0]['schedule']}): {failed[0]['error']}")
    return 0
