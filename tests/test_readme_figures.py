"""The figures README.md (and docs/) quote from a command are what that command prints.

Issue 42: the README said the hinted check costs 101,008 gas "under the precompile's
102,900" and that `evm384 gas` prints it; `evm384 gas` printed 103,608 against 112,960.

A claim is a passage of a file (as written; line breaks and indentation read as one space)
and the command whose output has its figures (``evm384 gas ...`` on the rows it reads, or
a command's ``--help`` for its defaults): every figure in the passage (a number of three or
more digits or with thousands commas, not part of a name such as EIP-6690 or 288-byte) must
appear in that output as a whole number. The claims are CLAIMS and, found in the files'
sh blocks, each ``evm384 gas ...`` line with a comment quoting figures. The passages that
quote gas from ``evm384 gas`` (README's bullet list and every paragraph naming `evm384
gas`) have each figure in a claim, or in NOT_PRINTED with the reason. The commands run
in-process (``evm384 gas`` runs the fast engine), as the tests of the command line do.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

from markdown_blocks import blocks
from test_cli import cli

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
FILES = [README, *sorted((ROOT / "docs").glob("*.md"))]
# a whole number: not a piece of a bigger one (1,234,567 or 1.35), nor of a name (EIP-6690,
# EIP-196/197, 0x100, a 288-byte hint)
FIGURE = re.compile(r"(?<![\w./-])(?<!\d,)(?:\d{1,3}(?:,\d{3})+|\d{3,})(?![\w/-]|[.,]\d)")

# the contracts whose rows each claim reads (a few commands: each runs once)
PAIRING_CHECKS = ("pairing_product_is_one", "eip2537_pairing_check", "pairing_check_hinted")
HINTED_PAIRING_CHECKS = ("pairing_check_hinted", "eip2537_pairing_check_hinted", "--target",
                         "evmmax")
HINTED_ADDS = ("eip2537_g1add", "eip2537_g2add", "eip2537_g1add_hinted",
               "eip2537_g2add_hinted", "--target", "evmmax")
BN254 = ("bn254_add", "bn254_mul")
# as the sections' sh blocks name them
POSEIDON = ("poseidon_t3", "poseidon_t5", "--target", "evmmax")
P256 = ("p256verify", "--target", "evmmax")
ECRECOVER = ("ecrecover", "--target", "evmmax")
BLS12_377 = ("bls12_377_pairing_check", "bls12_377_pairing_check_hinted", "--target", "evmmax")
BW6_761 = ("bw6_761_pairing_check", "bw6_761_pairing_check_hinted", "--target", "all")
# snarkjs's published BLS12-381 key and proof (ours beside the EIP-2537 verifier in py-evm)
GROTH16_BLS = ("groth16", "verify", *(str(ROOT / "tests" / "vectors" / "groth16" / "bls12381"
                                          / name) for name in ("verification_key.json",
                                                               "proof.json", "public.json")))


@dataclass(frozen=True)
class Claim:
    """``passage`` of the file ``path`` quotes what ``evm384 argv...`` prints."""
    path: Path
    passage: str
    argv: Tuple[str, ...]           # the command after ``evm384``


def _readme(passage: str, *argv: str) -> Claim:
    """README.md's ``passage`` quotes ``evm384 gas argv...``."""
    return Claim(README, passage, ("gas", *argv))


CLAIMS = [
    # the bullet list
    _readme("434 / 798 gas under EIP-6690 against the precompiles' 375 / 600 (the unhinted "
            "EVMMAX builds: 3,101 / 4,288)", *HINTED_ADDS),
    _readme("(44,745 EVM384 ops and 312,050 gas under update5-A for two pairs, against "
            "86,856 / 584,051)", *PAIRING_CHECKS),
    _readme("153,051 gas for the two-pairing product check, 179,449 for the validated "
            "EIP-2537 check and 87,232 for the hinted check (EVM384 update5-A: 584,051 / "
            "668,723 / 312,050); as a transaction pays it (`evm384 gas`'s `total`: execution, "
            "EIP-2028 calldata with the hint, and EIP-2929's access, 2,600 for the contract "
            "called cold), the hinted check costs 103,608 gas against the precompile's 112,960 "
            "with its own input (`its total`: 102,900, calldata 9,960, access 100, warm), and "
            "its execution and calldata alone (87,232 + 13,776) are under the precompile's "
            "execution price, 102,900", *PAIRING_CHECKS),
    Claim(README, "snarkjs's published one-input key and proof cost 149,630 gas against "
          "190,843 for the verifier that calls EIP-2537's precompiles", GROTH16_BLS),
    _readme("(1 to 4 inputs): 3,806 gas for two inputs under EIP-6690", *POSEIDON),
    _readme("`p256verify`: 19,136 gas under EIP-6690 beside the precompile's 6,900", *P256),
    _readme("17,087 gas under EIP-6690 beside the precompile's 3,000", *ECRECOVER),
    _readme("(`bls12_377_pairing_check`: 195,070 gas for two pairs under EIP-6690 beside the "
            "EIP's 175,000; `bls12_377_pairing_check_hinted` with the residue witness: "
            "111,573)", *BLS12_377),
    _readme("(`bw6_761_pairing_check`, two pairs: 526,303 gas under EIP-6690, 1,454,832 under "
            "EVM768's update5-A schedule and 986,054 under update5-B, beside the EIP's "
            "560,000; `bw6_761_pairing_check_hinted` with the residue witness: 404,855 with "
            "its calldata)", *BW6_761),
    # the sections of the other contracts, whose sh blocks name `evm384 gas`
    _readme("| `poseidon_t3` (2 inputs) | 3,806 |", *POSEIDON),   # then bench/'s split
    _readme("| 5,042 | 15,585 |", *POSEIDON),
    _readme("| `poseidon_t5` (4 inputs) | 7,097 |", *POSEIDON),
    _readme("| 9,432 | 22,470 |", *POSEIDON),
    _readme("19,136 gas under EIP-6690 and 25,765 under EIP-7747 (the precompile: 6,900), "
            "23,296 bytes", *P256),
    _readme("17,087 gas under EIP-6690 and 22,126 under EIP-7747 (the precompile: 3,000), "
            "23,073 bytes", *ECRECOVER),
    # "Plain EVM": its table's gas columns (its ratios: tests/test_target_evm.py)
    _readme("| `bn254_add` | 5,947 | 1,649 | 150 |", "bn254_add", "--target", "all"),
    _readme("An inversion modulo BN254's p (`evm384 gas modexp --target all`): 4,776 gas on "
            "plain EVM, 1,505 under EIP-6690, beside EIP-7883's 4,048 for the precompile.",
            "modexp", "--target", "all"),
    _readme("| `bn254_mul` | 47,674 | 7,975 | 6,000 |", "bn254_mul", "--target", "all"),
    _readme("| `bn254_pairing_check` | 1,760,458 | 142,556 | 113,000 |",
            "bn254_pairing_check", "--target", "all"),
    _readme("| `bn254_pairing_check_hinted` | 1,013,280 | 86,820 | 113,000 |",
            "bn254_pairing_check_hinted", "--target", "all"),
    _readme("| `poseidon_t3` | 12,101 | 3,806 |", "poseidon_t3", "--target", "all"),
    _readme("| `poseidon_t5` | 30,323 | 7,097 |", "poseidon_t5", "--target", "all"),
    _readme("| `p256verify` | 109,183 | 19,136 | 6,900 |", "p256verify", "--target", "all"),
    _readme("| `ecrecover` | 80,962 | 17,087 | 3,000 |", "ecrecover", "--target", "all"),
    _readme("12,101 gas for two inputs", "poseidon_t3", "--target", "evm"),
    _readme("109,183 gas on the most of 20 random valid inputs", "p256verify", "--target",
            "evm"),
    # its BLS12-381 table (the gas columns: plain EVM, EVM384 update5-A, EVMMAX, precompile)
    *(_readme(row, name, "--target", "all") for name, row in (
        ("pairing_product_is_one",
         "| `pairing_product_is_one` | 41,957,499 | 584,051 | 153,051 | 102,900 |"),
        ("pairing_check_hinted",
         "| `pairing_check_hinted` | 23,981,189 | 312,050 | 87,232 | 102,900 |"),
        ("eip2537_pairing_check",
         "| `eip2537_pairing_check` | 45,543,038 | 668,723 | 179,449 | 102,900 |"),
        ("eip2537_g1add", "| `eip2537_g1add` | 571,979 | 10,102 | 3,101 | 375 |"),
        ("eip2537_g1msm", "| `eip2537_g1msm` | 7,324,602 | 115,603 | 37,191 | 22,776 |"),
        ("eip2537_map_fp_to_g1",
         "| `eip2537_map_fp_to_g1` | 1,980,756 | 26,907 | 7,412 | 5,500 |"))),
    _readme("a `*` in `evm384 gas` marks a run above EIP-7825's per-transaction cap of "
            "16,777,216 gas", "eip2537_g1add", "--target", "evm"),
    # the command line's paragraph on `evm384 gas`
    _readme("(EIP-2929: the contract cold, 2,600)", *PAIRING_CHECKS),
    _readme("ECADD 150, ECMUL 6,000", *BN254),
    _readme("its total with its own input (warm, 100)", *BN254),
    # the gas limits, as the commands' help gives them
    Claim(README, "`gas`: default 4,294,967,296, so that every build's example runs to its "
          "end", ("gas", "--help")),
    Claim(README, "`pairing`: 2,000,000 + 500,000 a pair, enough for every check it runs",
          ("pairing", "--help")),
    # docs/ quoting `evm384 gas`'s totals
    *(Claim(ROOT / "docs" / "bls12_381.md", passage, ("gas", *HINTED_PAIRING_CHECKS))
      for passage in ("the EVMMAX hinted check costs 87,232 + 13,776",     # then its bytes
                      "+ 2,600 = **103,608**, against 102,900 + 9,960 + 100 (warm) = 112,960 "
                      "for the precompile called with its own 768-byte input (`its total`); "
                      "the validated variant 106,978 + 14,544 + 2,600 = 124,122.")),
    Claim(ROOT / "docs" / "evmmax.md",
          "the hinted check costs 103,608 and the validated one 124,122, against 112,960",
          ("gas", *HINTED_PAIRING_CHECKS)),
]

# Figures of the passages above that no command prints, and why.
NOT_PRINTED = {
    "32,600": "EIP-2537's pairing price in k (32,600 k + 37,700); `its gas` prints its value",
    "37,700": "the same formula",
    "34,000": "EIP-1108's ECPAIRING price in k (34,000 k + 45,000); `its gas` prints its value",
    "45,000": "the same formula",
    "21,000": "what `evm384 gas` does not count (every transaction's base cost), as it says",
    "192": "the bytes of a BLS12-381 G2 point that `evm384 calldata` takes, not gas",
    "128": "the bytes of a BN254 G2 point that `evm384 calldata` takes, not gas",
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def figures(text: str) -> List[str]:
    return FIGURE.findall(text)


def printed(figure: str, output: str) -> bool:
    return re.search(rf"(?<![\d.])(?<!\d,){re.escape(figure)}(?!\d|[.,]\d)", output) is not None


def _comment_claims() -> Iterator[Claim]:
    """``evm384 gas ...  # ... 6,900``: the comment's figures, from the command before it."""
    for path in FILES:
        for block in blocks(path):
            if block.language != "sh":
                continue
            for line in block.code.splitlines():
                command, _, comment = line.partition("#")
                if command.startswith("evm384 gas") and figures(comment):
                    yield Claim(path, comment.strip(), tuple(shlex.split(command)[1:]))


def _all_claims() -> Dict[Tuple[str, ...], List[Claim]]:
    by_command: Dict[Tuple[str, ...], List[Claim]] = {}
    for claim in CLAIMS + list(_comment_claims()):
        by_command.setdefault(claim.argv, []).append(claim)
    return by_command


BY_COMMAND = _all_claims()


@pytest.mark.parametrize("argv", list(BY_COMMAND), ids=" ".join)
def test_quoted_figures_are_what_the_command_prints(capsys, monkeypatch, argv):
    code, out, err = cli(capsys, monkeypatch, *argv)
    assert (code, err) == (0, "")
    for claim in BY_COMMAND[argv]:
        name = claim.path.relative_to(ROOT)
        assert _flat(claim.passage) in _flat(claim.path.read_text()), \
            f"{name} no longer says {claim.passage!r}: write the claim as the text now reads"
        missing = [figure for figure in figures(claim.passage) if not printed(figure, out)]
        assert not missing, (f"{name} quotes {', '.join(missing)} in {claim.passage!r}, which "
                             f"`evm384 {' '.join(argv)}` does not print")


def _prose(path: Path) -> List[str]:
    """The paragraphs of ``path`` outside code blocks (a bullet list is one paragraph)."""
    text = re.sub(r"^```.*?^```", "", path.read_text(), flags=re.S | re.M)
    return [paragraph for paragraph in re.split(r"\n\s*\n", text) if paragraph.strip()]


def _quoting_gas() -> List[str]:
    """README's bullet list and its paragraphs that name `evm384 gas`."""
    paragraphs = _prose(README)
    bullets = next(p for p in paragraphs if p.startswith("- "))
    return [bullets] + [p for p in paragraphs if "`evm384 gas" in p and p is not bullets]


def test_every_figure_quoted_from_the_gas_table_is_checked():
    claimed: Set[str] = {figure for claims in BY_COMMAND.values() for claim in claims
                         if claim.path == README for figure in figures(claim.passage)}
    for paragraph in _quoting_gas():
        unchecked = set(figures(paragraph)) - claimed - set(NOT_PRINTED)
        assert not unchecked, (f"README.md quotes {', '.join(sorted(unchecked))} in "
                               f"{_flat(paragraph)[:80]!r}...: add a claim (the command that "
                               "prints it) or say in NOT_PRINTED why none does")


def test_figures_are_whole_numbers_outside_names():
    assert figures("EIP-6690's 1,234 and 56 or 789, a 288-byte hint, 0x100, 1.35x, "
                   "EIP-196/197, EVM384 12,345,678") == ["1,234", "789", "12,345,678"]
    assert printed("3,000", "its gas 3,000\n") and not printed("3,000", "13,000 3,0001")


def test_ratio_sentence_spans_the_table() -> None:
    """README's plain-EVM table: each row's ratios are its gas columns' quotients, and the
    sentence under it quotes the least and the most of each ratio column (the gas figures
    are claims above; a changed row must move these)."""
    text = README.read_text()
    table = re.findall(r"^\| `\w+` \| ([\d,]+) \| ([\d,]+) \| ([\d,-]+) \| ([\d.]+) \| "
                       r"([\d.-]+) \|$", text, re.M)
    def gas(figure: str) -> int:
        return int(figure.replace(",", ""))

    for plain, evmmax, precompile, by_evmmax_text, by_precompile_text in table:
        assert by_evmmax_text == f"{gas(plain) / gas(evmmax):.1f}"
        assert by_precompile_text == ("-" if precompile == "-"
                                      else f"{gas(plain) / gas(precompile):.1f}")
    by_evmmax = [float(row[3]) for row in table]
    by_precompile = [float(row[4]) for row in table if row[4] != "-"]
    assert len(by_evmmax) >= 8
    sentence = " ".join(text.split())
    assert (f"costs {min(by_precompile)} to {max(by_precompile)} times its price" in sentence)
    assert (f"cut that bytecode's gas {min(by_evmmax)} to {max(by_evmmax)} times" in sentence)
