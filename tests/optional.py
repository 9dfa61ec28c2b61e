"""Tests that need a module from an optional extra: skip them, with the reason, where the
module is absent.

A module that the extras leave out on this Python (the markers in pyproject.toml) is always
skipped here. EVM384_NATIVE_REQUIRE_EXTRAS (CI: e.g. ``test,titanoboa``) names the extras
that are installed, so that a missing module of theirs fails instead of skipping quietly.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from typing import Tuple

import pytest


def require(module: str, extra: str, since: Tuple[int, int] = (3, 9)) -> None:
    """Skip the calling test module unless ``module`` (from ``extra``) is installed.
    Finds it without importing it (importing boa patches py-evm's shared tables)."""
    if sys.version_info[:2] < since:
        pytest.skip(f"{module} ({extra} extra) needs Python {since[0]}.{since[1]}+, this is "
                    f"{sys.version_info[0]}.{sys.version_info[1]}", allow_module_level=True)
    if importlib.util.find_spec(module) is not None:
        return
    required = os.environ.get("EVM384_NATIVE_REQUIRE_EXTRAS", "").split(",")
    message = f"{module} is not installed: pip install -e '.[{extra}]'"
    if extra in required:
        pytest.fail(message + f" (EVM384_NATIVE_REQUIRE_EXTRAS names {extra})", pytrace=False)
    pytest.skip(message, allow_module_level=True)
