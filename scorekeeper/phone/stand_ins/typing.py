"""The phone's `typing`: the names the engine imports, for MicroPython.

The engine uses them in annotations, which MicroPython does not evaluate,
in `isinstance(value, Mapping)` (a mapping is a dict there) and in
`Union[...]` at module level (any subscript gives the same placeholder).
"""


class _Placeholder:
    def __getitem__(self, _):
        return self


Any = Callable = Iterable = Sequence = Union = _Placeholder()
Mapping = dict
