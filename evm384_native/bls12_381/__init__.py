"""BLS12-381 in EVM384: the field tower, curve, Miller loop and final exponentiation as
code generators (one module per layer), and contracts with a Python API."""
from .add_hint import add_hint
from .api import (eip2537_g1add, eip2537_g1add_hinted, eip2537_g1msm, eip2537_g2add,
                  eip2537_g2add_hinted, eip2537_g2msm, eip2537_map_fp2_to_g2,
                  eip2537_map_fp_to_g1, eip2537_pairing_check, eip2537_pairing_check_hinted,
                  final_exponentiation, miller_loop, pairing, pairing_check_hinted,
                  pairing_product_is_one, run_contract)
from .calldata import encode_calldata, pairs_from_eip2537
from .contracts import CONTRACTS
from .family import FAMILY
from .hint import pairing_hint

build_program = FAMILY.build_program
build_contract = FAMILY.build_contract

__all__ = ["CONTRACTS", "FAMILY", "add_hint", "build_contract", "build_program", "eip2537_g1add",
           "eip2537_g1add_hinted", "eip2537_g1msm", "eip2537_g2add", "eip2537_g2add_hinted",
           "eip2537_g2msm", "eip2537_map_fp2_to_g2", "eip2537_map_fp_to_g1",
           "eip2537_pairing_check", "eip2537_pairing_check_hinted", "encode_calldata",
           "final_exponentiation", "miller_loop", "pairing", "pairing_check_hinted",
           "pairing_hint", "pairing_product_is_one", "pairs_from_eip2537", "run_contract"]
