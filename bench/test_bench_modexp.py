"""A smoke run of bench/modexp_table.py (the MODEXP table, issue 50): two rows, one round,
rendered and written."""
import pytest

import modexp_table  # bench/modexp_table.py

SMOKE_ROWS = ("BN254 p, E = p - 2", "nagydani-1-square")


def test_the_table_measures_renders_and_writes(tmp_path):
    pytest.importorskip("gmpy2", reason="gmpy2 (test extra) times GMP's powmod")
    selected = [row for row in modexp_table.rows(quick=False) if row.name in SMOKE_ROWS]
    measured = modexp_table.measure(selected, rounds=1)
    assert [e["name"] for e in measured] == list(SMOKE_ROWS)
    assert measured[0]["eip7883"] == 253 * 16           # EIP-7883: 253 iterations x 16
    assert all(e["gmp_seconds"] > 0 for e in measured)
    text = modexp_table.render(measured, 1, quick=True)
    assert all(name in text for name in SMOKE_ROWS) and "| 32/32/32 |" in text
    assert all(e["evm"] > 0 and e["evmmax"] > 0 and e["evm_seconds"] > 0 for e in measured)


def test_the_command_line_writes_its_table(tmp_path, monkeypatch):
    pytest.importorskip("gmpy2", reason="gmpy2 (test extra) times GMP's powmod")
    few = modexp_table.rows(quick=True)[:2]
    monkeypatch.setattr(modexp_table, "rows", lambda quick: few)
    out = tmp_path / "modexp.md"
    modexp_table.main(["--quick", "--out", str(out)])
    assert out.read_text().count("\n| ") == 1 + len(few)
