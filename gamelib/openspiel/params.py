"""OpenSpiel parameters and gamelib config fields, both ways.

OpenSpiel parameters are bools, ints, floats and strings; a gamelib config also holds tuples and
``None``.  Tuples are written as text, elements separated by ``:`` (``suit_sizes=9:9:9``; a
one-element tuple ends in ``:``; Deck the Yard's ``patterns`` separates patterns by ``/``), an
empty field (``None``) is ``none``, and Garner's ``forbidden_pile_size`` is ``0`` for none.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gamelib.core import ConfigError

__all__ = ["field_from_param", "param_from_field", "params_of"]


def _split(text: str, sep: str) -> list[str]:
    return [x.strip() for x in text.split(sep)] if text.strip() else []


def field_from_param(name: str, default: Any, value: Any) -> Any:
    """A config field's value from an OpenSpiel parameter (tuples and None come as text)."""
    if isinstance(default, bool | str):
        return value
    if name == "forbidden_pile_size":
        return None if value == 0 else value
    if isinstance(default, int) and not isinstance(value, str):
        return value
    if isinstance(default, float) and isinstance(value, int | float):
        return float(value)
    text = str(value)
    if text.lower() == "none":
        return None
    try:
        if name == "patterns":
            return tuple(tuple(_split(p, ":")) for p in _split(text, "/"))
        kinds = {type(x) for x in default} if isinstance(default, tuple) else set()
        if name == "suit_weights" or kinds == {float}:
            return tuple(float(x) for x in _split(text, ":"))
        if name in ("suit_sizes", "amulets") or kinds == {int}:  # "9:" is a one-element tuple
            return tuple(int(x) for x in _split(text, ":"))
        if kinds == {str}:
            return tuple(_split(text, ":"))
    except ValueError as exc:
        raise ConfigError(f"parameter {name}={value!r} is not valid: {exc}") from None
    return value


def param_from_field(value: Any, name: str = "") -> bool | int | float | str:
    """An OpenSpiel parameter for a config field value."""
    if name == "forbidden_pile_size":
        return 0 if value is None else int(value)
    if isinstance(value, tuple) and len(value) == 1:
        return f"{value[0]}:"
    if isinstance(value, bool | int | float | str):
        return value
    if value is None:
        return "none"
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return "/".join(":".join(map(str, p)) for p in value)
    if isinstance(value, tuple):
        return ":".join(map(str, value))
    raise TypeError(f"no OpenSpiel parameter type for {value!r}")


def params_of(config: Any) -> dict[str, Any]:
    """A config's fields as OpenSpiel parameters."""
    out = {}
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        # a float field holding an int (Gargon's zero_multiplier = 2) is still a float parameter
        is_float = f.type in ("float", float) and isinstance(value, int)
        out[f.name] = float(value) if is_float else param_from_field(value, f.name)
    return out
