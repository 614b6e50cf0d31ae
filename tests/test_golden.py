"""Golden report models: the JSON the page reads, for one dump of each kind (a PyPTO passes_dump, an MLIR tree,
an MLIR stream, two runs compared, a function renamed, an LLVM stream with its filters), compared field by field.

A change to the model shows up here as a readable diff. On a mismatch the actual model is written beside the
expected one (`tests/golden/<case>.actual.json`, ignored by git) to diff or inspect. When the change is
intended, regenerate every case with

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

and review the diff of tests/golden/ in the commit.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import tempfile
from pathlib import Path

import pytest

from dumptools import FIXTURES
from modeltools import load_dump, report_of
from pypto_ir_trace import __version__, model, programs
from pypto_ir_trace.filters import LineFilter
from pypto_ir_trace.schemacheck import Invalid, unknown_keywords, validate
from pypto_ir_trace.structure import Region

GOLDEN = Path(__file__).resolve().parent / "golden"
RUNS = FIXTURES / "runs" / "small"


def _pypto() -> model.Report:
    return report_of(load_dump(FIXTURES / "viewer" / "functions" / "passes_dump"))


def _renamed() -> model.Report:
    """A function renamed by one pass: its piece is paired by content (beforeKey)."""
    return report_of(load_dump(FIXTURES / "viewer" / "renamed" / "passes_dump"))


def _mlir_tree() -> model.Report:
    return report_of(load_dump(FIXTURES / "mlir" / "multi_func" / "tree_dir"))


def _mlir_stream() -> model.Report:
    return report_of(load_dump(FIXTURES / "mlir" / "multi_func" / "stream.txt"))


def _llvm() -> model.Report:
    """The first three dumps of a real clang -g dump: LLVM's texts and the filters it offers (debug, metadata)."""
    text = (FIXTURES / "llvm" / "lz4-renorm-O2-g.txt").read_text(encoding="utf-8")
    cut = [m.start() for m in re.finditer(r"^; \*\*\* IR Dump", text, re.MULTILINE)][3]
    with tempfile.TemporaryDirectory() as tmp:  # the dump's folder names it: one of the same name each time
        path = Path(tmp) / "llvm" / "lz4-renorm-O2-g-3.txt"
        path.parent.mkdir()
        path.write_text(text[:cut], encoding="utf-8")
        return report_of(load_dump(path))


def _two_runs() -> model.Report:
    return programs.build_pair((load_dump(RUNS / "this"),), (load_dump(RUNS / "baseline"),), 3)


CASES = {
    "functions": _pypto,
    "renamed": _renamed,
    "mlir-tree": _mlir_tree,
    "mlir-stream": _mlir_stream,
    "two-runs": _two_runs,
    "llvm": _llvm,
}


def _scrubbed(data: dict) -> dict:
    """The generator names the version: stable within a release, not across them."""
    assert data["generator"] == f"pypto-ir-trace {__version__}"
    return {**data, "generator": "pypto-ir-trace <version>"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_model_matches_golden(case):
    data = _scrubbed(model.to_json(CASES[case]()))
    expected, actual = GOLDEN / f"{case}.json", GOLDEN / f"{case}.actual.json"
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(text, encoding="utf-8")
    assert expected.exists(), f"no golden file {expected.name}: run with UPDATE_GOLDEN=1 and review it"
    if json.loads(text) == json.loads(expected.read_text(encoding="utf-8")):
        actual.unlink(missing_ok=True)
        return
    actual.write_text(text, encoding="utf-8")
    pytest.fail(f"the model of {case} differs from {expected.name}: see `diff {expected} {actual}`")


# ---- one contract: the schema, one naming convention ------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_model_is_what_its_schema_declares(case):
    """model.schema.json is the page's data contract: what model.py writes is held to it (as is every model
    modeltools builds), and model.js to reading it (test_model_node.py)."""
    validate(model.to_json(CASES[case]()), model.schema())


def test_a_field_the_writer_adds_but_the_schema_lacks_is_refused(monkeypatch):
    written = model._region
    monkeypatch.setattr(model, "_region", lambda region: {**written(region), "column": 0})
    with pytest.raises(Invalid, match=r"^pipelines\[0\]\.texts\[0\]\.regions\[0\]\.column: not allowed here"):
        validate(model.to_json(_pypto()), model.schema())


def test_every_object_of_the_schema_refuses_keys_it_does_not_declare():
    """Else a field the writer adds would pass unseen."""
    assert unknown_keywords(model.schema()) == []
    assert [
        where for where, node in _objects(model.schema(), "#") if node.get("additionalProperties") is not False
    ] == []


def _objects(node: dict, where: str):
    """Every schema object that declares properties, with where it is."""
    if "properties" in node:
        yield where, node
    for key in ("properties", "$defs"):
        for name, sub in node.get(key, {}).items():
            yield from _objects(sub, f"{where}/{key}/{name}")
    if isinstance(node.get("items"), dict):
        yield from _objects(node["items"], f"{where}/items")


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _keys(*records) -> set[str]:
    """The records' fields and properties (a Region's `error`, its message made from its fields), camel case."""
    fields = {field.name for record in records for field in dataclasses.fields(record)}
    properties = {name for record in records for name, value in vars(record).items() if isinstance(value, property)}
    return {_camel(name) for name in fields | properties}


# Each object of the schema (its $defs entry, "#" the top) and the records whose fields it carries (a pass
# carries its Diff's, a text its Newlines'); "schema" is the JSON's own.
RECORDS = {
    "#": (model.Report,),
    "pipeline": (model.Pipeline,),
    "input": (model.Input,),
    "text": (model.Text, model.Newlines),
    "region": (Region,),
    "pass": (model.Pass, model.Diff),
    "anchor": (model.Anchor,),
    "piece": (model.Piece,),
    "pipelineMap": (model.PipelineMap,),
    "runs": (model.Runs,),
    "row": (model.RunRow,),
    "filter": (LineFilter,),
}


def test_every_key_the_schema_declares_is_the_camel_case_of_a_model_field():
    """One convention, no renames between Python and the page: `inserted` is `inserted` in both."""
    schema = model.schema()
    entries = {"#": schema} | {name: entry for name, entry in schema["$defs"].items() if "properties" in entry}
    assert entries.keys() == RECORDS.keys()
    for name, records in RECORDS.items():
        assert set(entries[name]["properties"]) - _keys(*records) <= {"schema"}, name
