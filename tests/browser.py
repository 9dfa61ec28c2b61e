"""Headless Chromium for the tests that look at a page as a browser renders it: a
screenshot, the console's messages and the rendered DOM. Chromium comes from the
distribution (``apt-get install -y chromium``; .ci/run installs it); where it is missing
the tests skip, unless EVM384_NATIVE_REQUIRE_EXTRAS names ``browser`` (CI), which makes
that a failure."""
from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import List

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
ARTIFACTS = "EVM384_NATIVE_ARTIFACTS"         # where CI keeps files; else build/artifacts
TIMEOUT = 120
# Every run: no sandbox (CI runs as root in a container), no GPU, a fresh profile.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--window-size=1280,2400")


def require_browser() -> str:
    """The browser's path, else skip (or fail where EVM384_NATIVE_REQUIRE_EXTRAS names
    ``browser``)."""
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    message = "no Chromium on PATH: apt-get install -y chromium"
    if "browser" in os.environ.get("EVM384_NATIVE_REQUIRE_EXTRAS", "").split(","):
        pytest.fail(message + " (EVM384_NATIVE_REQUIRE_EXTRAS names browser)", pytrace=False)
    pytest.skip(message)


def artifacts_dir() -> Path:
    """$EVM384_NATIVE_ARTIFACTS, else build/artifacts at the repository's root (made)."""
    path = Path(os.environ.get(ARTIFACTS) or Path(__file__).resolve().parents[1] / "build" /
                "artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass(frozen=True)
class Rendered:
    console: List[str]        # the console's messages, as Chromium logs them
    dom: str                  # the DOM after rendering
    distinct_bytes: int       # distinct byte values in the screenshot's pixels (1: blank)


def _run(browser: str, *arguments: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *arguments],
                              capture_output=True, text=True, timeout=TIMEOUT, check=True)


def _pixels(png: Path) -> bytes:
    """The PNG's decompressed image data (its IDAT chunks)."""
    data, at, idat = png.read_bytes(), 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    return zlib.decompress(idat)


def render_in_browser(browser: str, page: Path, screenshot: Path) -> Rendered:
    """``page`` rendered: a screenshot to ``screenshot``, the console's messages (Chromium's
    log on stderr at --v=0), the DOM."""
    url = page.resolve().as_uri()
    shot = _run(browser, "--enable-logging=stderr", "--v=0", f"--screenshot={screenshot}", url)
    console = [line for line in shot.stderr.splitlines() if re.search(r":CONSOLE[:(]", line)]
    dom = _run(browser, "--dump-dom", url).stdout
    return Rendered(console, dom, len(set(_pixels(screenshot))))
