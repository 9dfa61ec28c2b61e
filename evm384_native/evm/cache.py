"""An LRU cache of what is made from code bytes, bounded by the memory its values hold, not
by how many there are, and found without hashing the whole code.

Decoded code grows while it runs (blocks decode when execution first reaches them), so
whenever an entry is added, the sizes of the values used since the last addition are asked
again (only those: a value grows only while its code runs) and the least recently used
entries go until the total fits. A value larger than the whole budget is not kept.

A lookup runs on every execution, so it must cost less than the smallest run. CPython
caches a bytes object's hash in the object, but a new object of equal content (code read
from a file, a state trie or a fuzzer's buffer) hashes all of its bytes again: 24 KB
costs some 8 us, more than a short run. So code longer than ``SMALL_CODE`` is found by a
*content key*, its length and every n-th of its bytes (``SAMPLES`` of them), and then
compared byte for byte (memcmp, a tenth of the hash's time). Codes that share a content
key (same length, differing only between the samples: a contract's instances with other
constants) are kept up to ``MAX_ALIKE`` per key; more of them are found by their whole
bytes, as a plain dict would.

Before any of that, the code object itself: callers run the same bytes objects again and
again (a contract's code, kept by its caller), and a run after other work finds the
content key's bytes, its tuple's hash and the context's out of the caches (some 5 us of
misses, against 1 us for the identity map's one lookup). An entry is found by ``id(code)``
only while it holds that very object (so the id cannot have been reused) and for its own
context; the map drops it with the entry.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Dict, Generic, Hashable, List, Optional, Tuple, TypeVar

V = TypeVar("V")

SMALL_CODE = 256        # bytes: hashing code this short costs less than sampling it
SAMPLES = 64
MAX_ALIKE = 8
TOUCHED = 256           # entries hit between two insertions, re-measured at the next (more: all)


class _Entry(Generic[V]):
    """One cached value; hashed by identity, so the LRU order costs no hashing of codes."""
    __slots__ = ("code", "value", "key", "size")

    def __init__(self, code: bytes, value: V, key: Hashable, size: int) -> None:
        self.code = code
        self.value = value
        self.key = key          # its index key: (context, content key or the code itself)
        self.size = size        # the value's size when last measured


class SizedCache(Generic[V]):
    """``get(code, context, make)``: the value cached for ``code`` (bytes) in ``context`` (a
    tuple of hashables: schedule, opcode set, ...), or ``make(code, *context)`` remembered
    under them."""

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        self.budget = budget
        self.size_of = size_of
        # index key -> the entries under it (a tuple, replaced whole under the lock, so
        # lookups read it without the lock)
        self._index: Dict[Hashable, Tuple[_Entry[V], ...]] = {}
        self._recent: "OrderedDict[_Entry[V], None]" = OrderedDict()  # least recent first
        # id(code) -> the entry last found for that very object (see the module docstring)
        self._by_identity: Dict[int, _Entry[V]] = {}
        self._lock = threading.Lock()
        # The kept values' sizes, as last measured. A value grows only while its code runs,
        # so an insertion re-measures the entries used since the last one (their list is
        # appended without the lock; past TOUCHED of them, every entry is re-measured):
        # each insertion costs what was used meanwhile, not the whole cache.
        self._total = 0
        self._touched: List[_Entry[V]] = []
        self._remeasure_all = False

    def get(self, code: bytes, context: Tuple[Hashable, ...], make: Callable[..., V]) -> V:
        entry = self._by_identity.get(id(code))
        if entry is not None and entry.code is code and entry.key[0] == context:
            return self._hit(entry)
        # the content key (see the module docstring), inline: this runs on every execution
        size = len(code)
        key = (context, code if size <= SMALL_CODE else (size, code[::size // SAMPLES]))
        for entry in self._index.get(key, ()):  # _find, inline on the path of every hit
            if entry.code == code:
                break
        else:
            entry = None
            if len(self._index.get(key, ())) >= MAX_ALIKE:
                key = (context, code)           # a crowded content key: the whole bytes
                entry = self._find(key, code)
            if entry is None:
                return self._add(key, code, context, make)
        if entry.code is code and entry in self._recent:   # not evicted meanwhile
            self._by_identity[id(code)] = entry
        return self._hit(entry)

    def _hit(self, entry: _Entry[V]) -> V:
        try:
            # no lock: one C call on an identity-hashed key is atomic under the GIL
            self._recent.move_to_end(entry)
        except KeyError:                        # evicted meanwhile by another thread
            pass
        touched = self._touched
        if len(touched) < TOUCHED:
            touched.append(entry)
        else:
            self._remeasure_all = True
        return entry.value

    def _add(self, key: Hashable, code: bytes, context: Tuple[Hashable, ...],
             make: Callable[..., V]) -> V:
        value = make(code, *context)          # outside the lock: threads decode in parallel
        size = self.size_of(value)
        if size > self.budget:
            return value
        with self._lock:
            found = self._find(key, code)       # another thread made it meanwhile: share it
            if found is not None:
                return found.value
            self._remeasure()
            entry = _Entry(code, value, key, size)
            self._index[key] = self._index.get(key, ()) + (entry,)
            self._recent[entry] = None
            self._by_identity[id(code)] = entry
            self._total += size
            self._touched.append(entry)         # it runs now, and may grow
            while self._recent and self._total > self.budget:
                evicted, _ = self._recent.popitem(last=False)
                self._forget(evicted)
                self._total -= evicted.size
        return value

    def _remeasure(self) -> None:
        """Bring the running total up to date with the entries used since the last
        insertion (under the lock)."""
        touched, self._touched = self._touched, []
        if self._remeasure_all:
            self._remeasure_all = False
            # over a copy (made in one C call): hits reorder the dict without the lock
            touched = list(tuple(self._recent))
        for kept in dict.fromkeys(touched):     # identity-hashed: each once
            if kept in self._recent:            # not evicted since
                size = self.size_of(kept.value)
                self._total += size - kept.size
                kept.size = size

    def _find(self, key: Hashable, code: bytes) -> Optional[_Entry[V]]:
        for entry in self._index.get(key, ()):
            if entry.code == code:              # the same object compares in no time
                return entry
        return None

    def _forget(self, entry: _Entry[V]) -> None:
        if self._by_identity.get(id(entry.code)) is entry:
            del self._by_identity[id(entry.code)]
        rest = tuple(kept for kept in self._index[entry.key] if kept is not entry)
        if rest:
            self._index[entry.key] = rest
        else:
            del self._index[entry.key]

    def total(self) -> int:
        """Bytes the cached values hold now (estimated by ``size_of``), every entry
        measured again."""
        with self._lock:
            self._remeasure_all = True
            self._remeasure()
            return self._total

    def clear(self) -> None:
        with self._lock:
            self._index.clear()
            self._recent.clear()
            self._by_identity.clear()
            self._touched = []
            self._total = 0
