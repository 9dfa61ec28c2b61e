"""``python -m evm384_native``: the main job, the EVM384 two-pairing check on fresh random
points beside blst (the same as ``python -m evm384_native.bls12_381``; options there)."""
import sys

from .bls12_381.__main__ import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m evm384_native"))
