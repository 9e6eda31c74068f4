"""Errors raised while loading configuration files.

Every problem in a YAML file ends up as one :class:`ConfigError` that names
the file, the field path inside it, the bad value and what is allowed.
"""

from __future__ import annotations

import types
import typing

import pydantic


class _Missing:
    """Stands for the value of a required field that is absent."""

    def __repr__(self) -> str:
        return "<missing>"


MISSING = _Missing()


class ConfigError(ValueError):
    """A configuration file is wrong. ``str()`` says where, what and what is allowed."""

    def __init__(self, file, field: str, value, allowed: str):
        self.file = str(file)
        self.field = field
        self.value = value
        self.allowed = allowed
        super().__init__(f"{self.file}: field '{field}': got {value!r}; {allowed}")

    def __reduce__(self):
        """Pickled with its four parts (a Ray worker's error reaches the driver whole, not as a TypeError)."""
        return type(self), (self.file, self.field, self.value, self.allowed)


class FieldProblem(ValueError):
    """Raised by validators; the loader turns it into a ConfigError.

    ``field`` is a path relative to where the check runs (a tuple of keys and
    list indexes, or ``()`` for the checked value itself).
    """

    def __init__(self, field, value, allowed: str):
        super().__init__(allowed)
        self.field = tuple(field) if isinstance(field, (tuple, list)) else (field,)
        self.value = value
        self.allowed = allowed


def format_loc(loc) -> str:
    """('fighters', 2, 'weapons', 1) -> 'fighters[2].weapons[1]'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top level)"


def from_problem(file, problem: FieldProblem, prefix=()) -> ConfigError:
    return ConfigError(file, format_loc(tuple(prefix) + problem.field), problem.value, problem.allowed)


def _model_fields_at(model, loc) -> list[str] | None:
    """Field names of the pydantic model reached by following ``loc`` from ``model``."""
    ann = model
    for part in loc:
        ann = _unwrap(ann, part)
        if ann is None:
            return None
    ann = _unwrap(ann, None)
    if isinstance(ann, type) and issubclass(ann, pydantic.BaseModel):
        return list(ann.model_fields)
    return None


def _unwrap(ann, part):
    """One step into an annotation: a model field by name, a list/dict item by index/key."""
    origin = typing.get_origin(ann)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(ann)[0], part)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(ann):
            got = _unwrap(arg, part)
            if got is not None:
                return got
        return None
    if part is None:
        return ann
    if isinstance(ann, type) and issubclass(ann, pydantic.BaseModel):
        field = ann.model_fields.get(part) if isinstance(part, str) else None
        return field.annotation if field else None
    if origin in (list, tuple):
        return typing.get_args(ann)[0]
    if origin is dict:
        return typing.get_args(ann)[1]
    return None


def _allowed_text(err: dict, model, loc) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "missing":
        return "this field is required"
    if kind == "extra_forbidden":
        names = _model_fields_at(model, loc[:-1])
        listed = ", ".join(names) if names else "none"
        return f"unknown field; allowed fields here: {listed}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "expected an integer"
    if kind == "bool_type":
        return "expected true or false"
    if kind == "string_type":
        return "expected a string"
    if kind == "list_type":
        return "expected a list"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "expected a mapping (key: value pairs)"
    if kind == "greater_than_equal":
        return f"expected a number >= {ctx.get('ge')}"
    if kind == "less_than_equal":
        return f"expected a number <= {ctx.get('le')}"
    if kind == "too_short":
        return f"expected at least {ctx.get('min_length')} item(s)"
    if kind == "too_long":
        return f"expected at most {ctx.get('max_length')} item(s)"
    msg = err.get("msg", "invalid value")
    for prefix in ("Value error, ", "Assertion failed, "):
        if msg.startswith(prefix):
            msg = msg[len(prefix):]
    return msg.replace("Input should be", "expected")


def from_validation_error(file, exc: pydantic.ValidationError, model) -> ConfigError:
    """The first error of a pydantic ValidationError as a ConfigError."""
    errors = exc.errors(include_url=False)
    # An unknown key usually explains a "missing" one next to it (a typo), so report it first.
    err = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    loc = tuple(err["loc"])
    value = err.get("input", MISSING)
    problem = (err.get("ctx") or {}).get("error")
    if isinstance(problem, FieldProblem):
        return from_problem(file, problem, loc)
    if err["type"] == "missing":
        value = MISSING
    return ConfigError(file, format_loc(loc), value, _allowed_text(err, model, loc))
