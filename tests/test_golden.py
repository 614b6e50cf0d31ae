"""Golden report model: the JSON the page reads, for one small fixture, compared field by field.

A change to the model shows up here as a readable diff. When the change is intended, regenerate with
`UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py` and review the diff of tests/golden/ in the commit.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from dumptools import FIXTURES
from modeltools import load_dump, report_of
from pypto_ir_trace import __version__, model

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {"functions": FIXTURES / "viewer" / "functions" / "passes_dump"}


def _scrubbed(data: dict) -> dict:
    """The generator names the version: stable within a release, not across them."""
    assert data["generator"] == f"pypto-ir-trace {__version__}"
    return {**data, "generator": "pypto-ir-trace <version>"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_model_matches_golden(case):
    data = _scrubbed(model.to_json(report_of(load_dump(CASES[case]))))
    path = GOLDEN / f"{case}.json"
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with UPDATE_GOLDEN=1 and review it"
    assert json.loads(text) == json.loads(path.read_text(encoding="utf-8"))
