"""EVM384 through titanoboa: raw calls to EVM384 code set at an address."""
import boa

from evm384_native.integrations.titanoboa import enable_evm384

from test_pyevm_integration import ADD_OUT, MOD, MUL_OUT, X, Y, spec_program

ADDRESS = "0x" + "42" * 20


def test_boa_runs_evm384_with_gas():
    enable_evm384(schedule="update5-A")
    with boa.env.anchor():
        boa.env.set_code(ADDRESS, spec_program(0xC0))
        result = boa.env.raw_call(ADDRESS, data=X + Y + MOD)
        assert bytes(result.output) == ADD_OUT
        assert result.get_gas_used() == 52          # 50 + ADDMOD384's 2 under update5-A
        boa.env.set_code(ADDRESS, spec_program(0xC2))
        assert bytes(boa.env.raw_call(ADDRESS, data=ADD_OUT + Y + MOD + b"\xff" * 8).output) == MUL_OUT
