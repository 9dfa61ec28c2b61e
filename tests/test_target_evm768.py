"""The EVM768 tower target (evm384_native/tower/target_evm768.py): resolved by name, its
value size as data, fields it refuses; its contract is tested in test_bw6_761_contracts."""
import pytest

from evm384_native.asm.layout import FP_BYTES
from evm384_native.curves.bw6_761 import BW6_761
from evm384_native.curves.model import PrimeField
from evm384_native.tower.target_evm768 import EVM768
from evm384_native.tower.targets import resolve_target


def test_it_is_resolved_by_name():
    target = resolve_target("evm768")
    assert isinstance(target, EVM768) and target.opcodes == "evm768"
    assert resolve_target(target) is target


def test_values_take_96_bytes_of_memory():
    target = resolve_target("evm768")
    memory = target.new_memory()
    assert memory.register_bytes == 96
    assert target.memory_bytes(None, 3 * FP_BYTES) == 3 * 96
    constants = target.montgomery_constants(BW6_761.p)
    assert constants.modulus is None                           # a buffer of its own
    assert int.from_bytes(constants.r2, "little") == pow(2, 2 * 768, BW6_761.p)
    assert len(constants.raw_one) == 96


def test_a_field_wider_than_768_bits_is_refused():
    wide = PrimeField("wide", 2 ** 769 + 1)          # for_field reads only its size
    with pytest.raises(ValueError, match="up to 768 bits"):
        resolve_target("evm768").for_field(wide)
