"""The other BLS12-381 libraries' pairing checks, set up for timing the pairing alone: they
live in the package (``evm384_native.report.peers``), where ``evm384 report`` times them
too; the benchmark scripts import them from here."""
from evm384_native.report.peers import (GT_ONE, PEER_CHECKS, PY_ECC, blst_check,  # noqa: F401
                                        blst_is_one_after_final_exponentiation,
                                        blst_miller_loops,
                                        py_ecc_is_one_after_final_exponentiation,
                                        py_ecc_miller_loops)
