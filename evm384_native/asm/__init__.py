"""Tools to write EVM (and EVM384) code from Python: assembler, disassembler, memory layout."""
from ..evm.evm384 import pack_offsets, unpack_offsets
from .assembler import Assembler, Label, Location, Program, SourceMap, Subroutine, listing
from .disasm import Instruction, disassemble
from .layout import (Fp, Fp2, Fp6, Fp12, G1, G1Jacobian, G2, G2Jacobian, Memory, Modulus, Region, Slot,
                     array, raw, struct)

__all__ = ["Assembler", "Label", "Location", "Program", "SourceMap", "Subroutine",
           "pack_offsets", "unpack_offsets", "Instruction", "disassemble", "listing",
           "Fp", "Fp2", "Fp6", "Fp12", "G1", "G1Jacobian", "G2", "G2Jacobian", "Memory", "Modulus",
           "Region", "Slot", "array", "raw", "struct"]
