"""An LRU cache bounded by the memory its values hold, not by how many there are.

Decoded code grows while it runs (blocks decode when execution first reaches them), so
each value's size is asked again whenever an entry is added; the least recently used
entries go until the total fits. A value larger than the whole budget is not kept.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Callable, Generic, Hashable, TypeVar

V = TypeVar("V")


class SizedCache(Generic[V]):
    """``get(key, make)``: the cached value, or ``make()`` remembered under ``key``."""

    def __init__(self, budget: int, size_of: Callable[[V], int]) -> None:
        self.budget = budget
        self.size_of = size_of
        self._entries: "OrderedDict[Hashable, V]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
                return value
        value = make()                        # outside the lock: threads decode in parallel
        if self.size_of(value) > self.budget:
            return value
        with self._lock:
            self._entries[key] = value
            total = sum(self.size_of(entry) for entry in self._entries.values())
            while self._entries and total > self.budget:
                _, evicted = self._entries.popitem(last=False)
                total -= self.size_of(evicted)
        return value

    def total(self) -> int:
        """Bytes the cached values hold now (estimated by ``size_of``)."""
        with self._lock:
            return sum(self.size_of(entry) for entry in self._entries.values())

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
