"""tests/eof_legacy.py: an EOF container as legacy bytecode (CALLF/RETF, RJUMP/RJUMPI and
DATACOPY rewritten, the data last), run on both engines against a hand-computed answer; and
each refusal, on hand-made containers and on evmone's own NTT container made unfaithful."""
import pytest

from evm384_native import execute
from eof_legacy import MAGIC, assemble, Label, Ref, parse, to_legacy
from peer_vectors import VECTORS, read_json

DATA = bytes.fromhex("deadbeef")
# section 0: CALLF 1; DATACOPY(0, 0, 4); DATACOPY(4, 2, 8) (6 of its 8 bytes past the data);
# a loop of 3 rounds (RJUMPI out, RJUMP back) adding 1 to memory[64..96]; RETURN(0, 96)
MAIN = bytes.fromhex(
    "e30001"                      # 0: CALLF 1
    "6004600060" "00d3"           # 3: DATACOPY(mem 0, data 0, 4)
    "6008600260" "04d3"           # 10: DATACOPY(mem 4, data 2, 8)
    "6003"                        # 17: PUSH1 3
    "8015"                        # 19: DUP1 ISZERO (the loop)
    "e10010"                      # 21: RJUMPI +16 -> 40
    "60019003"                    # 24: i - 1
    "6040516001016040" "52"       # 28: memory[64] += 1
    "e0ffeb"                      # 37: RJUMP -21 -> 19
    "50"                          # 40: POP
    "60606000f3")                 # 41: RETURN(0, 96)
SUBROUTINE = bytes.fromhex("602a601f53e4")    # MSTORE8(31, 42); RETF


def container(sections, data=DATA, types=None):
    """An EOF container (EIP-3540) of ``sections`` (code, inputs, outputs) and ``data``."""
    types = types or [(0, 0x80)] + [(0, 0)] * (len(sections) - 1)
    header = (MAGIC + b"\x01" + b"\x01" + (4 * len(sections)).to_bytes(2, "big")
              + b"\x02" + len(sections).to_bytes(2, "big")
              + b"".join(len(code).to_bytes(2, "big") for code in sections)
              + b"\x04" + len(data).to_bytes(2, "big") + b"\x00")
    type_bytes = b"".join(bytes([i, o]) + (8).to_bytes(2, "big") for i, o in types)
    return header + type_bytes + b"".join(sections) + data


def expected_output() -> bytes:
    out = bytearray(96)
    out[31] = 42
    out[0:4] = DATA
    out[4:12] = DATA[2:] + bytes(6)
    out[64:96] = (3).to_bytes(32, "big")
    return bytes(out)


@pytest.mark.parametrize("engine", ["fast", "python"])
def test_a_container_runs_as_its_legacy_code(engine):
    code = to_legacy(container([MAIN, SUBROUTINE]), {})
    result = execute(code, b"", opcodes="evm", engine=engine)
    assert result.success, result.error
    assert result.output == expected_output()
    assert code.endswith(DATA)                   # the data last: reads past it give zeros


def test_parse_reads_the_header():
    parsed = parse(container([MAIN, SUBROUTINE]))
    assert [s.code for s in parsed.sections] == [MAIN, SUBROUTINE]
    assert [(s.inputs, s.outputs) for s in parsed.sections] == [(0, 0x80), (0, 0)]
    assert parsed.data == DATA


def test_assemble_places_labels():
    here, data = Label(), Label(jumpdest=False)
    assert assemble([b"\x00", here, Ref(here), data, Ref(data)]) == bytes.fromhex(
        "00" "5b" "610001" "610005")


@pytest.mark.parametrize("section,message", [
    (bytes.fromhex("e2000000" "00"), "RJUMPV"),
    (bytes.fromhex("e50001"), "JUMPF"),
    (bytes.fromhex("d10000" "00"), "DATALOADN"),
    (bytes.fromhex("d2" "00"), "DATASIZE"),
    (bytes.fromhex("6000" "56"), "JUMP at 2: not valid in EOF"),
    (bytes.fromhex("5a" "00"), "GAS at 0: not valid in EOF"),
    (bytes.fromhex("e0fffe" "00"), "relative jump at 0 to 1: not an instruction"),
    (bytes.fromhex("61ff"), "truncated immediates"),
])
def test_what_has_no_faithful_legacy_form_is_refused(section, message):
    with pytest.raises(ValueError, match=message):
        to_legacy(container([section]), {})


@pytest.mark.parametrize("data,message", [
    (b"\xef\x01\x01", "not an EOF version 1 container"),
    (MAGIC + b"\x02", "not an EOF version 1 container"),
    (container([MAIN, SUBROUTINE])[:-1], "its length is not what its header declares"),
    (MAGIC + b"\x01\x01\x00\x04\x02\x00\x01\x00\x01\x03\x00\x01", "subcontainers"),
    (MAGIC + b"\x01\x02", "types section's header must come first"),
])
def test_a_container_that_does_not_parse_is_refused(data, message):
    with pytest.raises(ValueError, match=message):
        parse(data)


def test_callf_to_a_section_with_inputs_or_outputs_is_refused():
    for types in ([(0, 0x80), (1, 0)], [(0, 0x80), (0, 1)]):
        with pytest.raises(ValueError, match="only sections of neither are rewritten"):
            to_legacy(container([MAIN, SUBROUTINE], types=types), {})


def test_evmones_ntt_container_with_an_input_on_its_subroutine_is_refused():
    """evmone's NTT (its CALLF'd section takes nothing, returns nothing) converts; the same
    container declaring one input for that section does not: the return address would sit
    above the input the section reads."""
    vector = next(v for v in read_json(VECTORS / "evmone" / "evmmax.json")
                  if v["Name"].endswith("nttfw.json"))
    code = bytes.fromhex(vector["Code"])
    parsed = parse(code)
    assert [(s.inputs, s.outputs) for s in parsed.sections] == [(0, 0x80), (0, 0)]
    immediates = {op: 7 for op in (0xC3, 0xC4, 0xC5)}
    assert to_legacy(code, immediates).endswith(parsed.data)
    types_at = len(code) - len(parsed.data) - sum(len(s.code) for s in parsed.sections) - 8
    broken = bytearray(code)
    assert broken[types_at + 4:types_at + 6] == b"\x00\x00"
    broken[types_at + 4] = 1
    with pytest.raises(ValueError, match="section 1 takes 1 inputs"):
        to_legacy(bytes(broken), immediates)
