"""EVM384 through titanoboa: raw calls to EVM384 code set at an address (and plain EVM,
which patches nothing).

Run in a child process: titanoboa rewrites entries of py-evm's shared opcode tables in
place (its KECCAK tracer), which would leak into the other py-evm tests of this session."""
import subprocess
import sys
import textwrap

from optional import require
from test_pyevm_integration import ADD_OUT, MOD, MUL_OUT, X, Y, spec_program

SCRIPT = textwrap.dedent("""
    import sys
    import boa
    from evm384_native.integrations.titanoboa import enable_evm384

    address = "0x" + "42" * 20
    add_code, mul_code, add_data, mul_data = (bytes.fromhex(a) for a in sys.argv[1:5])
    enable_evm384(schedule="update5-A")
    boa.env.set_code(address, add_code)
    result = boa.env.raw_call(address, data=add_data)
    print(bytes(result.output).hex(), result.get_gas_used())
    boa.env.set_code(address, mul_code)
    print(bytes(boa.env.raw_call(address, data=mul_data).output).hex())
""")

require("boa", "titanoboa", since=(3, 10))


def test_boa_runs_evm384_with_gas():
    arguments = [spec_program(0xC0), spec_program(0xC2), X + Y + MOD, ADD_OUT + Y + MOD + b"\xff" * 8]
    completed = subprocess.run([sys.executable, "-c", SCRIPT, *(a.hex() for a in arguments)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    add_line, mul_line = completed.stdout.split("\n")[:2]
    assert add_line == f"{ADD_OUT.hex()} 52"        # 50 + ADDMOD384's 2 under update5-A
    assert mul_line == MUL_OUT.hex()


EVMMAX_SCRIPT = textwrap.dedent("""
    import sys
    import boa
    from evm384_native.integrations.titanoboa import enable_evm384

    initcode, calldata, halting, fresh, caller = (bytes.fromhex(a) for a in sys.argv[1:6])
    enable_evm384(opcodes="evmmax")
    address, _ = boa.env.deploy_code(bytecode=initcode)
    result = boa.env.raw_call(address, data=calldata)
    print(bytes(result.output).hex(), result.get_gas_used())
    for name, code in (("51" * 20, halting), ("52" * 20, fresh), ("53" * 20, caller)):
        boa.env.set_code("0x" + name, code)
    print(bytes(boa.env.raw_call("0x" + "53" * 20, data=calldata).output).hex())
    try:
        enable_evm384()
    except ValueError as error:
        print(error)
""")


def test_boa_deploys_and_calls_an_evmmax_contract():
    from evm384_native.evm import execute
    from evmmax_contracts import caller, deployer, multiply, with_own_context, without_context
    from test_eth_tester_evmmax import _operands
    calldata, product = _operands(5)
    arguments = [deployer(multiply()), calldata, without_context(), with_own_context(),
                 caller(b"\x51" * 20, b"\x52" * 20)]
    completed = subprocess.run([sys.executable, "-c", EVMMAX_SCRIPT, *(a.hex() for a in arguments)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    call_line, frames_line, refusal = completed.stdout.split("\n")[:3]
    gas = execute(multiply(), calldata, opcodes="evmmax").gas_used
    assert call_line == f"{product.hex()} {gas}"
    # the caller's context survives a callee that has none and one that makes its own id 0
    frames = bytes.fromhex(frames_line)
    assert frames[:48] == product and frames[160:] == bytes(63) + b"\x01"
    assert "already runs the 'evmmax' opcode set" in refusal


PLAIN_SCRIPT = textwrap.dedent("""
    import sys
    import boa
    from evm384_native.integrations.titanoboa import enable_evm384

    address = "0x" + "42" * 20
    add_code, add_data = (bytes.fromhex(a) for a in sys.argv[1:3])
    enable_evm384(opcodes="evm")             # patches nothing: 0xc0 stays undefined
    boa.env.set_code(address, add_code)
    try:
        boa.env.raw_call(address, data=add_data)
    except Exception as error:
        print(type(error).__name__)
    enable_evm384()                          # so EVM384 may still follow
    print(bytes(boa.env.raw_call(address, data=add_data).output).hex())
""")


def test_boa_runs_plain_evm_as_it_is():
    arguments = [spec_program(0xC0), X + Y + MOD]
    completed = subprocess.run([sys.executable, "-c", PLAIN_SCRIPT, *(a.hex() for a in arguments)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr
    failure, add_line = completed.stdout.split("\n")[:2]
    assert failure and add_line == ADD_OUT.hex()
