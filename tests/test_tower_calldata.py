"""tower.control.require_calldata, the length check every multi-input contract starts with,
against the rule written out in Python for every small CALLDATASIZE: the calldata after
``offset`` is ``size`` bytes, or a (positive, or with ``allow_empty`` any) multiple of
``size``, followed by ``tail`` bytes. A length below offset + tail must fail however the
subtraction CALLDATASIZE - offset - tail wraps (issue 41's audit: with tail 0 and an offset,
it once passed)."""
import pytest

from evm384_native import execute
from evm384_native.asm import Assembler
from evm384_native.tower.control import require_calldata


def expected(length, offset, size, multiple, tail, allow_empty):
    rest = length - offset - tail
    if rest < 0:
        return False
    if not multiple:
        return rest == size
    return rest % size == 0 and (rest > 0 or allow_empty)


CASES = [(0, 64, False, 0, False), (0, 64, True, 0, False), (0, 64, True, 32, False),
         (0, 64, True, 0, True), (96, 64, True, 0, False), (96, 64, True, 0, True),
         (96, 64, True, 32, False), (32, 64, False, 0, False)]


@pytest.mark.parametrize("offset, size, multiple, tail, allow_empty", CASES)
def test_require_calldata_against_the_rule(offset, size, multiple, tail, allow_empty):
    asm = Assembler("require_calldata")
    require_calldata(asm, offset, size, multiple=multiple, tail=tail, allow_empty=allow_empty)
    asm.op("STOP")
    code = asm.assemble().code
    for length in range(0, offset + tail + 3 * size + 2):
        result = execute(code, bytes(length))
        assert result.success == expected(length, offset, size, multiple, tail, allow_empty), \
            (length, offset, size, multiple, tail, allow_empty)
