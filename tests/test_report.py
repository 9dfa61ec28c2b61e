"""``evm384 report``: every number of the page against ``evm384 gas --json`` (run here on the
same seed) and the report's own measurements, the HTML well-formed and self-contained, the
native libraries' answers, the command's bad input; ``test_browser_renders`` opens the page
in headless Chromium (tests/browser.py)."""
from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ElementTree
from html.parser import HTMLParser
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from browser import artifacts_dir, render_in_browser, require_browser
from evm384_native import execute
from evm384_native.cli.main import main
from evm384_native.contracts import USAGE, build_contract, targets_of
from evm384_native.evm.keccak import keccak256
from evm384_native.pricing.anchor import throughput
from evm384_native.report import collect as collect_module
from evm384_native.report import natives as natives_module
from evm384_native.report.natives import NATIVES, Native, installed, native_of
from evm384_native.report.tables import BELOW, OPERATION_HEADER, mgas, micros
from optional import require

SEED = 3
# the tests share one report: on one xdist worker, so that it is made once
pytestmark = pytest.mark.xdist_group("report")


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Tuple[Path, dict]:
    """One quick report (seed 3) and its data."""
    out = tmp_path_factory.mktemp("report")
    assert main(["report", "--quick", "--seed", str(SEED), "--out", str(out)]) == 0
    return out, json.loads((out / "report.json").read_text())


@pytest.fixture(scope="module")
def gas_json(tmp_path_factory) -> List[dict]:
    """``evm384 gas --json`` on the same seed, as the command prints it."""
    path = tmp_path_factory.mktemp("gas") / "gas.json"
    assert main(["gas", "--json", "--seed", str(SEED), "--out", str(path)]) == 0
    return json.loads(path.read_text())


def markdown_tables(text: str) -> Dict[str, List[List[str]]]:
    """Each Markdown table under its heading: header row first."""
    tables: Dict[str, List[List[str]]] = {}
    title = ""
    for line in text.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        elif line.startswith("|") and not line.startswith("|---"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            tables.setdefault(title, []).append(cells)
    return tables


class _Tables(HTMLParser):
    """The HTML page's tables (cells as text, header rows included), and every tag's
    opening and closing in order, to check the nesting."""
    VOID = {"meta", "br", "img", "hr", "link", "input", "rect", "line", "path", "circle"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: List[List[List[str]]] = []
        self.open: List[str] = []
        self.errors: List[str] = []
        self.attributes: List[Tuple[str, str, str]] = []
        self.cell = None

    def handle_starttag(self, tag, attrs):
        self.attributes += [(tag, name, value or "") for name, value in attrs]
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = ""
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.attributes += [(tag, name, value or "") for name, value in attrs]

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.tables[-1][-1].append(self.cell.strip())
            self.cell = None
        if tag in self.VOID:
            return
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.open[-1] if self.open else None}>")
        else:
            self.open.pop()

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def parsed_html(text: str) -> _Tables:
    parser = _Tables()
    parser.feed(text)
    parser.close()
    return parser


def _number(cell: str):
    """A page's number back as an int (thousands separators, the below-anchor mark off),
    or None for "-"."""
    return None if cell == "-" else int(cell.replace(",", "").replace(BELOW, ""))


def test_every_gas_figure_is_evm384_gas_json(made, gas_json):
    """Each row of the operations table is the matching ``evm384 gas --json`` row: every
    gas, calldata, total, size and precompile figure, in its order."""
    out, _ = made
    rows = markdown_tables((out / "report.md").read_text())["Every operation"]
    assert tuple(rows[0]) == OPERATION_HEADER
    assert len(rows) - 1 == len(gas_json)
    columns = {name: i for i, name in enumerate(OPERATION_HEADER)}
    keys = {"precompile_gas": "its gas", "precompile_measured_gas": "its EIP-7904 gas",
            "precompile_total_gas": "its total", "gas": "gas", "calldata_gas": "calldata",
            "total_gas": "total", "bytes": "bytes"}
    for cells, row in zip(rows[1:], gas_json):
        assert (cells[0], cells[5], cells[6]) == (row["contract"], row["target"], row["schedule"])
        assert cells[1] == (row["precompile"] or "-")
        for key, column in keys.items():
            assert _number(cells[columns[column]]) == row[key], (row["contract"], key)


def test_times_and_rates_are_the_measured_ones(made, gas_json):
    """The fast engine's and the libraries' times are the report's measurements, and
    Mgas/s is each gas over the fast engine's time net of an empty call's
    (pricing.anchor.throughput), marked below 100; the timed runs' gas (``evm384 price``'s code) is ``evm384 gas``'s."""
    out, report = made
    rows = markdown_tables((out / "report.md").read_text())["Every operation"][1:]
    timing = {(row["contract"], row["target"]): row for row in report["timing"]}
    for cells, row in zip(rows, gas_json):
        timed = timing[row["contract"], row["target"]]
        label = "mainnet" if row["schedule"] == "-" else row["schedule"]
        assert timed["gas"][label] == row["gas"]
        assert cells[11] == micros(timed["ns"]["fast"])
        native = report["natives"][row["contract"]]
        assert cells[13] == (micros(native["ns"]) if native["ns"] is not None
                             else native["status"])
        ns, call = timed["ns"]["fast"], timed["call_ns"]["fast"]
        assert 0 < call and 0 < ns
        rate = throughput(row["gas"], ns - call if call < ns else ns)
        assert cells[14] == f"{rate:,.0f}" + (BELOW if rate < 100 else "")

    # the mark itself (which builds fall below the line depends on the machine)
    assert (mgas(97.2, 100.0), mgas(100.0, 100.0), mgas(None, 100.0)) == ("97 *", "100", "-")


def test_figure_table_is_the_measured_times(made):
    out, report = made
    rows = markdown_tables((out / "report.md").read_text())["Its times"][1:]
    by_label = {bar["label"]: bar for bar in report["figure"]}
    base = by_label["pyblst"]["ns"]
    assert {cells[0] for cells in rows} == set(by_label)
    for label, kind, time, ratio in rows:
        bar = by_label[label]
        assert kind == bar["kind"]
        assert time == (micros(bar["ns"]) if bar["ns"] is not None else bar["status"])
        if bar["ns"] is not None:
            assert ratio == f"{bar['ns'] / base:.2f}x"
    # every target of the two-pairing check on both engines, and blst
    for target in targets_of("pairing_product_is_one"):
        for engine in ("fast", "python"):
            assert by_label[f"pairing_product_is_one, {target.upper()}, {engine} engine"]["ns"]
    assert base > 0


def test_html_tables_are_the_markdown_tables(made):
    """The HTML page shows the same cells as the Markdown page, table by table."""
    out, _ = made
    html_tables = parsed_html((out / "report.html").read_text()).tables
    md_tables = list(markdown_tables((out / "report.md").read_text()).values())
    assert len(html_tables) == len(md_tables) == 3
    for html_rows, md_rows in zip(html_tables, md_tables):
        assert html_rows == md_rows


def test_html_is_well_formed_and_self_contained(made):
    out, _ = made
    text = (out / "report.html").read_text()
    parser = parsed_html(text)
    assert parser.errors == [] and parser.open == []
    assert text.startswith("<!DOCTYPE html>")
    # nothing fetched: no script, no stylesheet link, no URL but SVG's namespace
    assert not any(tag in ("script", "link", "img", "iframe", "object")
                   for tag, _, _ in parser.attributes)
    fetched = [(tag, name, value) for tag, name, value in parser.attributes
               if name in ("src", "href", "xlink:href") or "url(" in value]
    assert fetched == []
    urls = re.findall(r"https?://[^\s\"'<>)]+", text)
    assert set(urls) == {"http://www.w3.org/2000/svg"}
    assert "<script" not in text and "@import" not in text and "url(" not in text
    assert text.count("<svg") == 5          # the three charts, the two flame graphs


def test_markdown_figures_are_svg_files(made):
    out, _ = made
    links = re.findall(r"!\[[^]]*\]\(([^)]+)\)", (out / "report.md").read_text())
    assert sorted(links) == sorted(["figure.svg", "gas.svg", "mgas.svg", "flame_evm384.svg",
                                    "flame_evmmax.svg"])
    for link in links:
        root = ElementTree.parse(out / link).getroot()
        assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_page_says_how_it_was_made(made):
    out, report = made
    about = dict((row[0], row[1]) for row in
                 markdown_tables((out / "report.md").read_text())["How this page was made"][1:])
    assert about["seed"].startswith(f"{SEED} ") and f"evm384 gas --seed {SEED}" in about["seed"]
    assert about["commit"] == report["commit"] and about["date"] == report["date"]
    assert report["machine"]["cpu"] in about["machine"]
    assert about["--quick"] == collect_module.QUICK_DROPS


def test_browser_renders(made):
    """Headless Chromium renders the page with no console message at all (the page has no
    script, so any is an error: a resource refused, a parse error), and keeps a
    screenshot as a CI artifact."""
    browser = require_browser()
    out, _ = made
    shot = artifacts_dir() / "report.png"
    rendered = render_in_browser(browser, out / "report.html", shot)
    assert rendered.console == []
    assert rendered.dom.count("<svg") == 5 and rendered.dom.count("<table") == 3
    assert rendered.distinct_bytes > 20, "the screenshot is blank"


def test_browser_check_sees_console_errors(tmp_path):
    """The browser test's check fails on a page that logs an error."""
    browser = require_browser()
    page = tmp_path / "bad.html"
    page.write_text("<!DOCTYPE html><html><body><p>x</p>"
                    "<script>undefinedFunction();</script></body></html>")
    rendered = render_in_browser(browser, page, tmp_path / "bad.png")
    assert any("undefinedFunction" in line for line in rendered.console)


# --- the native libraries ----------------------------------------------------------------

def _output(name: str, target: str) -> bytes:
    usage = USAGE[name]
    data = usage.example(random.Random(SEED), usage.example_k, True)
    result = execute(build_contract(name, target=target), data, opcodes=target, engine="fast")
    assert result.success
    return result.output


def _job(name: str):
    usage = USAGE[name]
    native = native_of(usage.precompile)
    require(native.module, "test")
    data = usage.example(random.Random(SEED), usage.example_k, True)
    return native.prepare(usage.precompile_input(data))


@pytest.mark.parametrize("name", ["pairing_product_is_one", "eip2537_pairing_check_hinted"])
def test_blst_answers_one(name):
    assert _job(name)() is True


def test_coincurve_recovers_the_contracts_address():
    key = _job("ecrecover")()
    address = keccak256(key.format(compressed=False)[1:])[12:]
    assert _output("ecrecover", "evmmax")[-20:] == address


def test_cryptography_accepts_the_example_signature():
    assert _job("p256verify")() is None          # verify raises on a bad signature


def test_gmp_powmod_is_the_contracts_answer():
    assert int(_job("modexp")()) == int.from_bytes(_output("modexp", "evmmax"), "big")


@pytest.mark.parametrize("name", ["bn254_add", "bn254_mul", "bn254_pairing_check"])
def test_revm_precompile_is_the_contracts_answer(name):
    pytest.importorskip("pyrevm", reason="pyrevm has no wheel for this Python or machine")
    assert bytes(_job(name)()) == _output(name, "evmmax")


def test_every_native_precompile_is_a_contracts():
    """Each library's precompile address is one a contract names."""
    addresses = {natives_module.precompile_address(usage.precompile)
                 for usage in USAGE.values()}
    assert set(NATIVES) <= addresses


def test_a_missing_library_says_not_installed(monkeypatch):
    missing = Native("nothing", "evm384_native_no_such_module", lambda data: lambda: None)
    assert not installed(missing)
    monkeypatch.setattr(collect_module, "native_of", lambda precompile: missing)
    found = collect_module.natives(SEED, 1)
    assert {entry["status"] for entry in found.values()} == {"not installed"}
    assert all(entry["ns"] is None for entry in found.values())


# --- the command's bad input -------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["report", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["report", "--out", "FILE"], "is a file, not a directory"),
    (["report", "--quick", "--rounds", "3"], "unrecognized arguments: --rounds 3"),
])
def test_bad_input_is_one_line(argv, message, tmp_path, capsys):
    (tmp_path / "FILE").write_text("")
    argv = [str(tmp_path / a) if a == "FILE" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("evm384: error: ") and message in err


# --- the figure's answers ----------------------------------------------------------------

FIGURE_TWO = collect_module.Settings(rounds=1, figure_rounds=1, slow_peers=False,
                                     figure_contracts=("pairing_product_is_one",
                                                       "pairing_check_hinted"))


def test_figure_runs_each_contract_on_its_own_input():
    """Two contracts of different calldata in one figure: each answers one on its own."""
    bars = collect_module.figure(SEED, FIGURE_TWO)
    labels = {bar["label"] for bar in bars if bar["kind"] == "ours" and bar["ns"]}
    assert {f"{name}, {target.upper()}, {engine} engine"
            for name in FIGURE_TWO.figure_contracts for target in targets_of(name)
            for engine in ("fast", "python")} == labels


def test_figure_refuses_a_wrong_answer(monkeypatch):
    """A false relation (the product is not one) makes the figure fail, not a bar."""
    def false_example(name, seed):
        usage = USAGE[name]
        return usage.example(random.Random(seed), usage.example_k, False)
    monkeypatch.setattr(collect_module, "_example", false_example)
    with pytest.raises(collect_module.WrongAnswer, match="did not answer one"):
        collect_module.figure(SEED, FIGURE_TWO)


def test_a_missing_peer_says_not_installed(monkeypatch):
    def missing(pairs):
        raise ImportError("no module named 'nothing'")
    monkeypatch.setattr(collect_module, "PEER_CHECKS", {"nothing": missing})
    bars = {bar["label"]: bar for bar in collect_module.figure(SEED, FIGURE_TWO)}
    assert bars["nothing"] == {"label": "nothing", "kind": "library", "ns": None,
                               "status": "not installed"}


@pytest.mark.parametrize("name", ["eip2537_g1add", "eip2537_g2add", "eip2537_g1msm",
                                  "eip2537_g2msm", "eip2537_map_fp_to_g1",
                                  "eip2537_map_fp2_to_g2", "eip2537_g2add_hinted"])
def test_arkworks_is_the_contracts_answer(name):
    require("py_arkworks_bls12381", "test", since=(3, 11))
    from evm384_native.bls12_381.eip2537_oracle import arkworks_encode
    assert arkworks_encode(_job(name)()) == _output(name, "evmmax")
