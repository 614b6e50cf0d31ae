"""The page's reader against the data contract, without a browser: static/model.js, run unchanged under Node,
reads every field model.schema.json declares and no other, on the golden models (which test_golden.py holds
to the schema and to what model.py writes). A field the writer adds is refused by the schema unless declared
there (test_golden.py); declared, it must be read here, or the test names it.

One Node process serves the module (model_harness.js: a JSON line in, a JSON line out).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from nodeharness import Harness
from pypto_ir_trace import model

HARNESS = Path(__file__).with_name("model_harness.js")
SCRIPTS = ("linediff.js", "compare.js", "model.js")  # model.js diffs two runs' rows with compare.js
GOLDEN = sorted((Path(__file__).resolve().parent / "golden").glob("*.json"))


def declared(schema: dict) -> set[str]:
    """Every field the schema declares, named as the harness notes reads: "pass.beforeFile" (its $defs entry),
    "report.limits.myers_max_cost" (the path from the entry, or the top, enclosing an inline object)."""
    found = set(_fields(schema, "report"))
    for name, entry in schema["$defs"].items():
        found.update(_fields(entry, name))
    return found


def _fields(node: dict, kind: str) -> Iterator[str]:
    for key, sub in node.get("properties", {}).items():
        yield f"{kind}.{key}"
        while "items" in sub and "$ref" not in sub:
            sub = sub["items"]
        if "$ref" not in sub:
            yield from _fields(sub, f"{kind}.{key}")


@pytest.fixture(scope="module")
def node():
    child = Harness(HARNESS, SCRIPTS)
    yield child
    child.close()


def fields_read(node: Harness, schema: dict, data: dict) -> set[str]:
    reply = node.ask([schema, data])
    assert "error" not in reply, reply
    return set(reply["result"])


@pytest.fixture(scope="module")
def read(node) -> set[str]:
    """What the reader reads of every golden model, together: each case brings kinds the others lack."""
    schema = model.schema()
    return set().union(*(fields_read(node, schema, json.loads(path.read_text(encoding="utf-8"))) for path in GOLDEN))


def test_the_reader_reads_every_field_the_schema_declares(read):
    assert declared(model.schema()) - read == set()


def test_the_reader_reads_no_field_the_schema_leaves_out(read):
    assert read - declared(model.schema()) == set()


def test_a_field_declared_but_never_read_is_named(node):
    """The check can fail: a field the schema gains and the reader does not know is found missing."""
    schema = model.schema()
    grown = {**schema, "$defs": {**schema["$defs"], "anchor": json.loads(json.dumps(schema["$defs"]["anchor"]))}}
    grown["$defs"]["anchor"]["properties"]["column"] = {"type": "integer"}
    data = json.loads((GOLDEN[0].parent / "functions.json").read_text(encoding="utf-8"))
    assert declared(grown) - fields_read(node, grown, data) >= {"anchor.column"}
