"""A JSON Schema (draft 2020-12) validator for the keywords summary.schema.json and model.schema.json use, and
only those: a schema with any other keyword is refused outright (KEYWORDS), so that no rule of the schema is
silently skipped. `merge` checks every shard with it before reading a field; the tests check every summary and
every report model the tool writes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

KEYWORDS = {
    # annotations: no rule
    "$schema", "$id", "title", "description",
    # rules, each checked below
    "$defs", "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items",
    "prefixItems", "minItems", "maxItems", "minimum", "minLength", "oneOf", "allOf",
}  # fmt: skip
_SURROGATE = re.compile("[\ud800-\udfff]")  # a lone one: JSON's \ud800 escape, which no UTF-8 file can hold
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, (list, tuple)),  # json writes a tuple as an array (model.to_json's spans)
    "string": lambda v: isinstance(v, str) and (v.isascii() or not _SURROGATE.search(v)),
    "integer": lambda v: type(v) is int or (isinstance(v, int) and not isinstance(v, bool)),  # the first: fast
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_SHOWN = 40  # characters of a value quoted in a message


class Invalid(ValueError):
    """Where a value breaks the schema, and how, in one line: `programs[3].inserted: "abc" is not an integer`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str | int] = []  # from the value's top, filled in as the error leaves each container

    def __str__(self) -> str:
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in self.path).lstrip(".")
        return f"{where or 'the value'}: {self.message}"


Check = Callable[[object], None]  # raises Invalid


def unknown_keywords(schema: object, where: str = "#") -> list[str]:
    """Every keyword of the schema this validator does not check, with where it is."""
    found: list[str] = []
    if not isinstance(schema, dict):
        return found
    for key, value in schema.items():
        if key not in KEYWORDS:
            found.append(f"{where}/{key}")
        if key in ("$defs", "properties"):
            for name, sub in value.items():
                found += unknown_keywords(sub, f"{where}/{key}/{name}")
        elif key in ("items", "additionalProperties"):
            found += unknown_keywords(value, f"{where}/{key}")
        elif key in ("oneOf", "allOf", "prefixItems"):
            for k, sub in enumerate(value):
                found += unknown_keywords(sub, f"{where}/{key}/{k}")
    return found


def validate(value: object, root: dict, ref: str | None = None) -> None:
    """Raise Invalid naming the first place where value breaks the schema `root` (or its part at `ref`, such
    as "#/$defs/programs")."""
    validator(root, ref)(value)


def validator(root: dict, ref: str | None = None) -> Check:
    """The check of a value against the schema `root` (or its part at `ref`), made once: each rule a closure,
    so that a shard of 200,000 programs costs a few calls per field. The walk follows the schema, never
    deeper than it, however deep the value."""
    unknown = unknown_keywords(root)
    if unknown:
        raise ValueError(f"the schema uses keywords this validator does not check: {unknown}")
    refs: dict[str, Check | None] = {}
    return _compiled(_resolve(root, ref) if ref else root, root, refs)


def _resolve(root: dict, ref: str) -> object:
    target: object = root
    for part in ref.removeprefix("#/").split("/"):
        target = target[part]  # type: ignore[index]
    return target


def _compiled(schema: object, root: dict, refs: dict[str, Check | None]) -> Check:
    if schema is True:
        return lambda value: None
    if schema is False:
        return _refuse
    assert isinstance(schema, dict)
    checks: list[Check] = []
    if "$ref" in schema:
        checks.append(_reference(schema["$ref"], root, refs))
    checks += _value_rules(schema)
    properties = {name: _compiled(sub, root, refs) for name, sub in schema.get("properties", {}).items()}
    extra = _compiled(schema["additionalProperties"], root, refs) if "additionalProperties" in schema else None
    if properties or extra or "required" in schema:
        checks.append(_members(tuple(schema.get("required", ())), properties, extra))
    prefix = [_compiled(sub, root, refs) for sub in schema.get("prefixItems", ())]
    if prefix:
        checks.append(_prefix(prefix))
    if "items" in schema:  # the items after the prefix's
        checks.append(_items(_compiled(schema["items"], root, refs), len(prefix)))
    checks += [_compiled(sub, root, refs) for sub in schema.get("allOf", ())]
    if "oneOf" in schema:
        checks.append(_one_of([_compiled(sub, root, refs) for sub in schema["oneOf"]]))
    if len(checks) == 1:
        return checks[0]

    def every(value: object) -> None:
        for check in checks:
            check(value)

    return every


def _refuse(value: object) -> None:
    raise Invalid("not allowed here")


def _reference(ref: str, root: dict, refs: dict[str, Check | None]) -> Check:
    if ref not in refs:
        refs[ref] = None  # being compiled: a reference met inside it is looked up when checked
        refs[ref] = _compiled(_resolve(root, ref), root, refs)
    return refs[ref] or (lambda value: refs[ref](value))  # type: ignore[misc]


def _value_rules(schema: dict) -> list[Check]:
    """The rules on a value itself, not on what it holds."""
    rules: list[Check] = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        tests = [TYPES[kind] for kind in types]
        fits = tests[0] if len(tests) == 1 else lambda value: any(test(value) for test in tests)

        def typed(value: object) -> None:
            if not fits(value):
                if isinstance(value, str) and "string" in types:
                    raise Invalid(f"{shown(value)} holds a lone surrogate, which no UTF-8 text can hold")
                raise Invalid(f"{shown(value)} is not {' or '.join(map(_a, types))}")

        rules.append(typed)
    if "enum" in schema:
        allowed = schema["enum"]

        def listed(value: object) -> None:
            if not any(_same(value, item) for item in allowed):
                raise Invalid(f"{shown(value)} is not one of {', '.join(map(shown, allowed))}")

        rules.append(listed)
    if "const" in schema:
        rules.append(_constant(schema["const"]))
    if "minimum" in schema:
        rules.append(_at_least(schema["minimum"]))
    if "minLength" in schema:
        rules.append(_long_enough(schema["minLength"]))
    if "minItems" in schema or "maxItems" in schema:
        rules.append(_sized(schema.get("minItems", 0), schema.get("maxItems")))
    return rules


def _constant(expected: object) -> Check:
    def check(value: object) -> None:
        if not _same(value, expected):
            raise Invalid(f"{shown(value)} is not {shown(expected)}")

    return check


def _at_least(minimum: float) -> Check:
    def check(value: object) -> None:
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < minimum:
            raise Invalid(f"{shown(value)} is below {minimum}")

    return check


def _long_enough(length: int) -> Check:
    def check(value: object) -> None:
        if isinstance(value, str) and len(value) < length:
            raise Invalid(f"{shown(value)} is {'empty' if length == 1 else f'shorter than {length} characters'}")

    return check


def _sized(least: int, most: int | None) -> Check:
    def check(value: object) -> None:
        if isinstance(value, (list, tuple)) and not least <= len(value) <= (len(value) if most is None else most):
            raise Invalid(f"{len(value)} items")

    return check


def _members(required: tuple[str, ...], properties: dict[str, Check], extra: Check | None) -> Check:
    def check(value: object) -> None:
        if not isinstance(value, dict):
            return
        for name in required:
            if name not in value:
                error = Invalid("missing")
                error.path.append(name)
                raise error
        for name, item in value.items():
            rule = properties.get(name, extra)
            if rule is not None:
                try:
                    rule(item)
                except Invalid as error:
                    error.path.insert(0, name)
                    raise

    return check


def _items(rule: Check, start: int = 0) -> Check:
    def check(value: object) -> None:
        if not isinstance(value, (list, tuple)):
            return
        for k in range(start, len(value)):
            try:
                rule(value[k])
            except Invalid as error:
                error.path.insert(0, k)
                raise

    return check


def _prefix(rules: list[Check]) -> Check:
    """An array's first items, each by its own rule (a tuple: [op, delta])."""

    def check(value: object) -> None:
        if not isinstance(value, (list, tuple)):
            return
        for k, (rule, item) in enumerate(zip(rules, value, strict=False)):
            try:
                rule(item)
            except Invalid as error:
                error.path.insert(0, k)
                raise

    return check


def _one_of(branches: list[Check]) -> Check:
    def check(value: object) -> None:
        passed, failures = 0, []
        for branch in branches:
            try:
                branch(value)
                passed += 1
            except Invalid as err:
                failures.append(str(err))
        if passed != 1:
            raise Invalid(f"matches {passed} of oneOf, not exactly one ({'; '.join(failures)})")

    return check


def _same(value: object, expected: object) -> bool:
    """JSON's equality: true is not 1, as Python's True == 1 would have it."""
    return isinstance(value, bool) == isinstance(expected, bool) and value == expected


def _a(kind: str) -> str:
    return {"object": "an object", "array": "an array", "integer": "an integer", "null": "null"}.get(kind, f"a {kind}")


def shown(value: object) -> str:
    """A value as a message quotes it: JSON, cut; a container by its kind."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    text = json.dumps(
        value, ensure_ascii=isinstance(value, str) and not TYPES["string"](value)
    )  # a lone surrogate escaped
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
