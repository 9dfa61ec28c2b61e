"""EVM384 inside py-evm through evm384_native.integrations.pyevm."""
import pytest

from eth.vm.forks import CancunVM, PragueVM

from evm384_native.integrations.pyevm import execute_in_pyevm, latest_vm_class, with_evm384

X = bytes.fromhex("3c119b3934156e9d9a495378725bb6c7fdcd12784743919063f5a383d2d2af117e025fdb0fb03fa723a62a4d6d968d2b")
Y = bytes.fromhex("f1562b8a749c87046d34a6d1101226508bb99a91982faeac365505dc7d9366404d9808a02531e3e80c82cdbab995821e")
MOD = bytes.fromhex("ec1e91ae1c738c60602becdaa2c68049efc48e8efa17054cdfb487bd3ccf137fe7e517dbee90eef07123d231ea794fa5")
ADD_OUT = bytes.fromhex("2d68c6c3a8b1f5a1077ef949836ddc178987ad09e0723f3d9a4aa95f50661652cb9a677b35e122903028f807272c104a")
MUL_OUT = bytes.fromhex("b0f9fdbafea7416d7d306f04e96da1f87f72296a25bdb9263fbd57a66982d129208bf5683e3191274250b21744c12997")


def spec_program(opcode: int) -> bytes:
    """The spec's vector program: copy calldata to memory 0, one op (out=0,x=0,y=48,mod=96), return 48 bytes."""
    return (bytes.fromhex("3660006000376f") + bytes.fromhex("00000000000000000000003000000060")
            + bytes([opcode]) + bytes.fromhex("60306000f3"))


# Gas by hand: CALLDATASIZE 2, 2x PUSH1 6, CALLDATACOPY 3 + 3*5 words copied + 15 for 5 words
# of memory, PUSH16 3, the EVM384 op, PUSH1 PUSH1 6, RETURN 0: 50 + the op's static gas.
VECTORS = [
    (0xC0, X + Y + MOD, ADD_OUT, {"evmone-v7": 58, "update5-A": 52, "update5-B": 51}),
    (0xC1, ADD_OUT + Y + MOD, X, {"evmone-v7": 58, "update5-A": 52, "update5-B": 51}),
    (0xC2, ADD_OUT + Y + MOD + b"\xff" * 8, MUL_OUT, {"evmone-v7": 74, "update5-A": 56, "update5-B": 53}),
]


@pytest.mark.parametrize("backend", ["native", "reference"])
@pytest.mark.parametrize("schedule", ["evmone-v7", "update5-A", "update5-B"])
@pytest.mark.parametrize("opcode, calldata, expected, gas", VECTORS)
def test_spec_vectors_in_pyevm(backend, schedule, opcode, calldata, expected, gas):
    vm = with_evm384(schedule=schedule, backend=backend)
    result = execute_in_pyevm(spec_program(opcode), calldata, vm_class=vm)
    assert result.success, result.error
    assert result.output == expected
    assert result.gas_used == gas[schedule]


def test_custom_schedule_mapping():
    vm = with_evm384(schedule={"ADDMOD384": 100, "SUBMOD384": 1, "MULMODMONT384": 1})
    assert execute_in_pyevm(spec_program(0xC0), X + Y + MOD, vm_class=vm).gas_used == 150


def test_memory_expansion_is_charged_like_mload():
    # PUSH16 (out=1000, x=y=mod=0) ADDMOD384 STOP on empty memory: memory grows to
    # ceil32(1048) = 1056 bytes = 33 words: 33*3 + 33**2 // 512 = 101 gas.
    code = bytes([0x6F]) + (1000).to_bytes(4, "big") + bytes(12) + bytes([0xC0, 0x00])
    result = execute_in_pyevm(code, vm_class=with_evm384())
    assert result.success and result.gas_used == 3 + 8 + 101
    # MULMODMONT384 reads 56 bytes at mod: mod=1000 needs 1056 bytes too, mod=1010 needs 1088.
    code = bytes([0x6F]) + bytes(12) + (1010).to_bytes(4, "big") + bytes([0xC2, 0x00])
    assert execute_in_pyevm(code, vm_class=with_evm384()).gas_used == 3 + 24 + 34 * 3 + 34 ** 2 // 512


def test_out_of_gas_for_expansion_consumes_everything():
    code = bytes([0x6F]) + (0xFFFFFFFF).to_bytes(4, "big") + bytes(12) + bytes([0xC0, 0x00])
    result = execute_in_pyevm(code, gas=1_000_000, vm_class=with_evm384())
    assert not result.success and result.gas_used == 1_000_000
    assert "gas" in result.error.lower()


def test_stack_underflow_is_an_exceptional_halt():
    result = execute_in_pyevm(bytes([0xC2]), gas=10_000, vm_class=with_evm384())
    assert not result.success and result.gas_used == 10_000


def test_pyevm_tables_are_not_mutated_and_forks_are_selectable():
    cancun = with_evm384(CancunVM)
    assert issubclass(cancun, CancunVM) and cancun.__name__ == "EVM384CancunVM"
    assert latest_vm_class() is PragueVM and issubclass(with_evm384(), PragueVM)
    for vm in (CancunVM, PragueVM):
        assert not {0xC0, 0xC1, 0xC2} & set(vm._state_class.computation_class.opcodes)
    result = execute_in_pyevm(spec_program(0xC0), X + Y + MOD, vm_class=PragueVM)
    assert not result.success and "Invalid opcode" in result.error
    assert execute_in_pyevm(spec_program(0xC0), X + Y + MOD, vm_class=cancun).output == ADD_OUT


def test_bad_arguments():
    with pytest.raises(ValueError, match="unknown EVM384 gas schedule"):
        with_evm384(schedule="cheap")
    with pytest.raises(ValueError, match="unknown backend"):
        with_evm384(backend="gpu")


def test_plain_evm_in_pyevm_is_pyevm_itself():
    """opcodes="evm" adds nothing: py-evm's own VM is plain EVM (0xc0 undefined there)."""
    from evm384_native import execute
    from evm384_native.evm.opcode_sets import OPCODE_SETS
    from evm384_native.integrations.pyevm import _ADDED_BY_SET, set_opcodes
    assert set(_ADDED_BY_SET) == set(OPCODE_SETS)      # every set says what py-evm gets
    for vm in (CancunVM, PragueVM):
        assert with_evm384(vm, opcodes="evm") is vm
        assert set_opcodes(vm._state_class.computation_class.opcodes, "evm") == {}
    assert with_evm384(opcodes="evm") is latest_vm_class()
    theirs = execute_in_pyevm(spec_program(0xC0), X + Y + MOD, gas=10_000,
                              vm_class=with_evm384(opcodes="evm"))
    ours = execute(spec_program(0xC0), X + Y + MOD, gas=10_000, opcodes="evm", fork="prague")
    assert (theirs.success, theirs.gas_used) == (ours.success, ours.gas_used) == (False, 10_000)
