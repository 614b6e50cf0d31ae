"""A JSON Schema (draft 2020-12) validator for the keywords summary.schema.json uses, and only those: a schema
with any other keyword is refused outright (KEYWORDS), so that no rule of the schema is silently skipped.
The summaries are checked with it; tests/test_summary.py holds it to rejecting each kind of violation."""

from __future__ import annotations

KEYWORDS = {
    # annotations: no rule
    "$schema", "$id", "title", "description",
    # rules, each checked below
    "$defs", "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items",
    "minItems", "maxItems", "minimum", "oneOf", "allOf",
}  # fmt: skip
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class Invalid(AssertionError):
    pass


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
        elif key in ("oneOf", "allOf"):
            for k, sub in enumerate(value):
                found += unknown_keywords(sub, f"{where}/{key}/{k}")
    return found


def validate(value: object, schema: dict) -> None:
    """Raise Invalid naming the first place where value breaks schema."""
    unknown = unknown_keywords(schema)
    if unknown:
        raise ValueError(f"the schema uses keywords this validator does not check: {unknown}")
    _check(value, schema, schema, "$")


def _check(value: object, schema: object, root: dict, at: str) -> None:
    if schema is True:
        return
    if schema is False:
        raise Invalid(f"{at}: not allowed here")
    assert isinstance(schema, dict)
    if "$ref" in schema:
        target: object = root
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]  # type: ignore[index]
        _check(value, target, root, at)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            raise Invalid(f"{at}: {value!r} is not of type {' or '.join(types)}")
    if "enum" in schema and value not in schema["enum"]:
        raise Invalid(f"{at}: {value!r} is not one of {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        raise Invalid(f"{at}: {value!r} is not {schema['const']!r}")
    if "minimum" in schema and TYPES["number"](value) and value < schema["minimum"]:  # type: ignore[operator]
        raise Invalid(f"{at}: {value!r} is below {schema['minimum']}")
    if isinstance(value, dict):
        for name in schema.get("required", ()):
            if name not in value:
                raise Invalid(f"{at}: {name!r} is missing")
        properties = schema.get("properties", {})
        for name, item in value.items():
            if name in properties:
                _check(item, properties[name], root, f"{at}.{name}")
            elif "additionalProperties" in schema:
                _check(item, schema["additionalProperties"], root, f"{at}.{name}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            raise Invalid(f"{at}: {len(value)} items")
        for k, item in enumerate(value):
            if "items" in schema:
                _check(item, schema["items"], root, f"{at}[{k}]")
    for sub in schema.get("allOf", ()):
        _check(value, sub, root, at)
    if "oneOf" in schema:
        passed, failures = 0, []
        for sub in schema["oneOf"]:
            try:
                _check(value, sub, root, at)
                passed += 1
            except Invalid as err:
                failures.append(str(err))
        if passed != 1:
            raise Invalid(f"{at}: matches {passed} of oneOf, not exactly one ({'; '.join(failures)})")
