"""A few values kept by key, the oldest put dropped first: the per-game memos
of the tap path (service/games.py, web/api.py). Each holds what a pure
function gave and is used only once its inputs are checked, so a stale or
lost entry costs a recomputation, never a wrong answer."""

from collections import OrderedDict
from typing import Generic, Hashable, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        items = self._items
        items[key] = value
        items.move_to_end(key)
        if len(items) > self.size:
            items.popitem(last=False)  # one C call each: safe between threads

    def __len__(self) -> int:
        return len(self._items)

    def newest(self) -> K | None:
        return next(reversed(self._items), None)
