"""The MODEXP contract's memory: what its parser leaves for the path that computes the
power, so that each path (:mod:`.small` for a modulus below 2**256, the multi-word paths)
is written against data, not against the parser's code.

Every path but the single-word one (all three lengths at most 32 bytes) enters with an
empty stack and this memory:

    TABLE_AT .. SLOTS_AT        free for the path (the small path's window table)
    SLOTS_AT + 32 * i           slot i, one word each (the ``*_SLOT`` names below)
    DATA_AT ..                  base, exponent and modulus, each as whole 32-byte words,
                                most significant word first: the base in BASE_WORDS words
                                (its bytes right-aligned in them, leading zeros kept), the
                                exponent in EXP_WORDS words (the same), then the modulus
                                from MOD_AT in MOD_WORDS words with its leading zero words
                                dropped (MOD_WORDS >= 1: its first word is not zero)
    FREE_AT ..                  free (memory past the modulus; zeros)

and leaves by RETURNing ``MOD_LENGTH`` bytes, the result right-aligned (zeros above it).
"""
from __future__ import annotations

WORD = 32
TABLE_AT = 0
TABLE_WORDS = 32                   # the small path's window table: 2**WINDOW entries
SLOTS_AT = TABLE_AT + WORD * TABLE_WORDS
SLOT_NAMES = ("EXP_NEXT", "EXP_END",                        # the small path's exponent words
              "BASE_LENGTH", "EXP_LENGTH", "MOD_LENGTH",   # bytes, as declared
              "BASE_WORDS", "EXP_WORDS", "MOD_WORDS",       # whole words in memory
              "BASE_AT", "EXP_AT", "MOD_AT", "FREE_AT")     # byte offsets in memory
(EXP_NEXT_SLOT, EXP_END_SLOT, BASE_LENGTH_SLOT, EXP_LENGTH_SLOT, MOD_LENGTH_SLOT, BASE_WORDS_SLOT, EXP_WORDS_SLOT,
 MOD_WORDS_SLOT, BASE_AT_SLOT, EXP_AT_SLOT, MOD_AT_SLOT, FREE_AT_SLOT) = (
    SLOTS_AT + WORD * i for i in range(len(SLOT_NAMES)))
DATA_AT = SLOTS_AT + WORD * len(SLOT_NAMES)
