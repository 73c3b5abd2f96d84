"""The phone's `dataclasses`: what the engine uses of it, for MicroPython.

MicroPython keeps no annotations, so a class cannot say its fields: the
server lists them (`_engine_fields.FIELDS`, made from CPython's own
`dataclasses.fields`), and this `dataclass` reads its class's list there. A
field's default is what the class body assigned to its name. Frozen is not
enforced here: CPython enforces it, and both run the same engine.
"""

_MISSING = object()


class Field:
    def __init__(self, default=_MISSING, default_factory=_MISSING, compare=True):
        self.default = default
        self.default_factory = default_factory
        self.compare = compare
        self.name = None


def field(default=_MISSING, default_factory=_MISSING, compare=True, **_):
    return Field(default, default_factory, compare)


def _fields_of(cls):
    from _engine_fields import FIELDS  # written beside this file on the phone, only there

    key = cls.__module__ + "." + cls.__name__
    if key not in FIELDS:
        raise TypeError("no field list for " + key + ": the phone's engine files are out of date")
    found = []
    for name in FIELDS[key]:
        value = getattr(cls, name, _MISSING)
        made = value if isinstance(value, Field) else Field(default=value)
        made.name = name
        found.append(made)
    return tuple(found)


def _value(made):
    if made.default_factory is not _MISSING:
        return made.default_factory()
    return made.default


def _init(self, *args, **kwargs):
    made = type(self).__dataclass_fields__
    if len(args) > len(made):
        raise TypeError("too many arguments")
    for index, one in enumerate(made):
        if index < len(args):
            value = args[index]
            if one.name in kwargs:
                raise TypeError("two values for " + one.name)
        elif one.name in kwargs:
            value = kwargs.pop(one.name)
        else:
            value = _value(one)
            if value is _MISSING:
                raise TypeError("missing argument " + one.name)
        setattr(self, one.name, value)
    if kwargs:
        raise TypeError("unexpected argument " + ", ".join(kwargs))


def _compared(self):
    return tuple(getattr(self, f.name) for f in type(self).__dataclass_fields__ if f.compare)


def _eq(self, other):
    if type(other) is not type(self):
        return NotImplemented
    return _compared(self) == _compared(other)


def _ne(self, other):
    same = _eq(self, other)
    return same if same is NotImplemented else not same


def _hash(self):
    return hash(_compared(self))


def _repr(self):
    shown = ", ".join(f.name + "=" + repr(getattr(self, f.name))
                      for f in type(self).__dataclass_fields__)
    return type(self).__name__ + "(" + shown + ")"


def dataclass(cls=None, **_options):
    def make(cls):
        made = _fields_of(cls)
        for one in made:
            # The class keeps a plain default (or nothing): a Field object
            # left there would read as the value of an unset attribute.
            value = _value(one) if one.default_factory is _MISSING else _MISSING
            if value is _MISSING:
                if one.name in dir(cls):
                    delattr(cls, one.name)
            else:
                setattr(cls, one.name, value)
        cls.__dataclass_fields__ = made
        cls.__slots__ = tuple(f.name for f in made)
        cls.__init__ = _init
        cls.__eq__ = _eq
        cls.__ne__ = _ne
        cls.__hash__ = _hash
        cls.__repr__ = _repr
        return cls
    return make if cls is None else make(cls)


def fields(instance_or_class):
    return instance_or_class.__dataclass_fields__


def replace(instance, **changes):
    values = {f.name: getattr(instance, f.name) for f in instance.__dataclass_fields__}
    values.update(changes)
    return type(instance)(**values)
