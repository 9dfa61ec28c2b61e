"""``evm384 fixtures run DIR``: check an engine against the EVMMAX and EVM384 conformance
fixtures under DIR (tests/fixtures/README.md states their format): one line per failing case,
then ``N passed, N failed``; exit status 1 on any failure, 2 on a directory without fixture
files, a file that is not one, or an engine and backend that cannot run together."""
from __future__ import annotations

import argparse
from pathlib import Path

from ..evm.api import ENGINES
from ..evm.backends import BACKENDS
from ..fixtures.format import fixture_files
from ..fixtures.runner import run_fixtures
from .errors import CliError, RunFailed


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "fixtures", help="run the EVMMAX/EVM384 conformance fixtures",
        description="Conformance fixtures for EVMMAX (EIP-6690) and EVM384: standalone code "
                    "with its expected outcome (success, output, gas used, halt reason).")
    commands = parser.add_subparsers(dest="fixtures_command", required=True, metavar="ACTION")
    run = commands.add_parser(
        "run", help="run every fixture file (*.json) under DIR",
        description="Run every fixture file (*.json, recursively) under DIR on an engine and "
                    "compare each case's outcome with the expected one; one line per failing "
                    "case, then the counts. Exit 1 if any case fails.")
    run.add_argument("directory", type=Path, metavar="DIR")
    run.add_argument("--engine", choices=sorted(ENGINES), default="python",
                     help="the python loop or the C loop (default python)")
    run.add_argument("--backend", choices=sorted(BACKENDS), default="native",
                     help="the kernels (default native; the fast engine runs native only)")
    run.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    directory: Path = args.directory
    if not directory.is_dir():
        raise CliError(f"{directory} is not a directory")
    if not fixture_files(directory):
        raise CliError(f"no fixture files (*.json) under {directory}")
    try:
        report = run_fixtures(directory, args.engine, args.backend)
    except ValueError as error:
        raise CliError(str(error)) from None
    for line in report.failures:
        print(line)
    print(report.summary())
    if report.failed:
        raise RunFailed(f"{report.failed} of {report.passed + report.failed} fixture cases failed")
    return 0
