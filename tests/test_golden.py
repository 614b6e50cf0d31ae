"""Golden report models: the JSON the page reads, for one dump of each kind (a PyPTO passes_dump, an MLIR tree,
an MLIR stream, two runs compared, a function renamed), compared field by field.

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
from pathlib import Path

import pytest

from dumptools import FIXTURES
from modeltools import load_dump, report_of
from pypto_ir_trace import __version__, model, programs
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


def _two_runs() -> model.Report:
    return programs.build_pair((load_dump(RUNS / "this"),), (load_dump(RUNS / "baseline"),), 3)


CASES = {
    "functions": _pypto,
    "renamed": _renamed,
    "mlir-tree": _mlir_tree,
    "mlir-stream": _mlir_stream,
    "two-runs": _two_runs,
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


# ---- one naming convention --------------------------------------------------------------------------------


def _camel(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _keys(*records) -> set[str]:
    return {_camel(field.name) for record in records for field in dataclasses.fields(record)}


# Each kind of JSON object and the records whose fields it carries (a pass carries its Diff's, a text its
# Newlines'); "schema" is the JSON's own.
KINDS = {
    "report": (_keys(model.Report) | {"schema"}, ("pipelines", "runs")),
    "pipeline": (_keys(model.Pipeline), ("input", "texts", "passes")),
    "input": (_keys(model.Input), ()),
    "text": (_keys(model.Text, model.Newlines), ("regions",)),
    "region": (_keys(Region), ()),
    "pass": (_keys(model.Pass, model.Diff), ("anchors", "pieces")),
    "anchor": (_keys(model.Anchor), ()),
    "piece": (_keys(model.Piece), ()),
    "runs": (_keys(model.Runs), ("inputs", "rows")),
    "row": (_keys(model.RunRow), ()),
}
CHILD = {"pipelines": "pipeline", "input": "input", "texts": "text", "regions": "region", "passes": "pass"}
CHILD |= {"anchors": "anchor", "pieces": "piece", "runs": "runs", "inputs": "row", "rows": "row"}


def _misnamed(kind: str, entry: dict, where: str):
    allowed, nested = KINDS[kind]
    for key in entry:
        if key not in allowed:
            yield f"{where}.{key}"
    for key in nested:
        children = entry.get(key)
        for i, child in enumerate(children if isinstance(children, list) else [children] if children else []):
            yield from _misnamed(CHILD[key], child, f"{where}.{key}[{i}]")


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_key_is_the_camel_case_of_a_model_field(case):
    """One convention, no renames between Python and the page: `inserted` is `inserted` in both."""
    data = model.to_json(CASES[case]())
    assert list(_misnamed("report", data, "report")) == []
    kinds = {"pipeline", "text", "pass", "piece"} | ({"runs", "row"} if case == "two-runs" else set())
    assert kinds <= set(_found_kinds("report", data))  # the walk reached every kind the case has


def _found_kinds(kind: str, entry: dict):
    yield kind
    for key in KINDS[kind][1]:
        children = entry.get(key)
        for child in children if isinstance(children, list) else [children] if children else []:
            yield from _found_kinds(CHILD[key], child)
