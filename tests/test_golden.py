"""Golden report models: the JSON the page reads, for one dump of each kind (a PyPTO passes_dump, an MLIR tree,
an MLIR stream, two runs compared), compared field by field.

A change to the model shows up here as a readable diff. On a mismatch the actual model is written beside the
expected one (`tests/golden/<case>.actual.json`, ignored by git) to diff or inspect. When the change is
intended, regenerate every case with

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

and review the diff of tests/golden/ in the commit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dumptools import FIXTURES
from modeltools import load_dump, report_of
from pypto_ir_trace import __version__, model, programs

GOLDEN = Path(__file__).resolve().parent / "golden"
RUNS = FIXTURES / "runs" / "small"


def _pypto() -> model.Report:
    return report_of(load_dump(FIXTURES / "viewer" / "functions" / "passes_dump"))


def _mlir_tree() -> model.Report:
    return report_of(load_dump(FIXTURES / "mlir" / "multi_func" / "tree_dir"))


def _mlir_stream() -> model.Report:
    return report_of(load_dump(FIXTURES / "mlir" / "multi_func" / "stream.txt"))


def _two_runs() -> model.Report:
    return programs.build_pair((load_dump(RUNS / "this"),), (load_dump(RUNS / "baseline"),), 3)


CASES = {"functions": _pypto, "mlir-tree": _mlir_tree, "mlir-stream": _mlir_stream, "two-runs": _two_runs}


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
