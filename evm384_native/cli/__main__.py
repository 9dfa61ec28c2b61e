"""``python -m evm384_native.cli``: the same as the ``evm384`` console script."""
import sys

from .main import main

if __name__ == "__main__":
    sys.exit(main())
