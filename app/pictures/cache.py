"""The pictures' caches: a small thread-safe LRU map (``functools.lru_cache`` cannot wait on a render in
progress, and a caller checks it again once it holds the render's lock)."""
from __future__ import annotations

import threading
from collections import OrderedDict


class LRU:
    """At most ``size`` entries, the least recently used dropped first."""

    def __init__(self, size: int):
        self._size, self._items, self._lock = size, OrderedDict(), threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key, value) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
