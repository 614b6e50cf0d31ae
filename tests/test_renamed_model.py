"""Ignore renumbering in the model: the builder's renamed pairs on real MLIR fixtures differ by value and
label names only (checked with a mask of its own, not the grammar's spans), in the JSON, and never for PyPTO."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from modeltools import blocks, build, text_ids
from pypto_ir_trace import builder, model
from pypto_ir_trace.dump import Dump, Snapshot, split_lines
from pypto_ir_trace.formats import load

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MLIR = FIXTURES / "mlir"
MLIR_DUMPS = sorted(
    [
        p
        for p in MLIR.glob("*/*")
        if p.parent.name != "real"  # the real corpus, packed: test_mlir_real.py reads it
        and (p.is_dir() or (p.suffix == ".txt" and "stderr" not in p.name))
    ],
    key=str,
)
NAME = re.compile(r"[%^][\w$.-]+")  # an SSA value or a block label, as a reader would mask it


def mask(line: str) -> str:
    return NAME.sub("\0", line)


def changed_lines(entry: dict) -> tuple[dict[int, str | None], dict[int, str | None]]:
    """Each deleted before line and inserted after line of a pass, with the key of its piece."""
    deleted, inserted = {}, {}
    for piece in entry.get("pieces", []):
        for b, a, eq, dels, ins in blocks(piece["segments"]):
            deleted.update((i, piece["key"]) for i in range(b + eq, b + eq + dels))
            inserted.update((j, piece["key"]) for j in range(a + eq, a + eq + ins))
    return deleted, inserted


def check_pairs(data: dict) -> int:
    """Every renamed pair: a deleted and an inserted line of one piece, equal once names are masked,
    different as written; each line in one pair at most. Returns the number of pairs."""
    cache: dict = {}
    count = 0
    for entry in data["passes"]:
        pairs = entry.get("renamed", [])
        if not pairs:
            continue
        before = [data["lines"][i] for i in text_ids(data, entry["before"], cache)]
        after = [data["lines"][i] for i in text_ids(data, entry["after"], cache)]
        deleted, inserted = changed_lines(entry)
        assert len({b for b, _ in pairs}) == len(pairs) == len({a for _, a in pairs})
        assert [a for _, a in pairs] == sorted(a for _, a in pairs)
        for b, a in pairs:
            assert b in deleted and a in inserted and deleted[b] == inserted[a], (entry["label"], b, a)
            assert before[b] != after[a]
            assert mask(before[b]) == mask(after[a]), (entry["label"], before[b], after[a])
        count += len(pairs)
    return count


@pytest.mark.parametrize("path", MLIR_DUMPS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_renamed_pairs_on_real_fixtures_differ_by_names_only(path):
    for dump in load(path):
        data = build(dump)
        assert data["renumbering"] is True
        check_pairs(data)


def test_real_renumbering_is_found():
    data = build(load(MLIR / "multi_func" / "tree_dir")[0])
    assert check_pairs(data) >= 30  # reconcile-unrealized-casts and the llvm canonicalize renumber whole functions
    by_label = {p["label"]: p for p in data["passes"]}
    assert len(by_label["33"]["renamed"]) > 20


def test_pypto_has_no_renumbering():
    data = build(load(FIXTURES / "real" / "advanced_01_split_k_concise" / "passes_dump")[0])
    assert "renumbering" not in data
    assert all("renamed" not in p for p in data["passes"])


def test_the_model_keeps_the_pairs_typed():
    report = builder.build((load(MLIR / "multi_func" / "tree_dir")[0],), 3)
    pipeline = report.pipelines[0]
    assert pipeline.renumbering
    with_pairs = [p for p in pipeline.passes if p.renamed]
    assert with_pairs and all(isinstance(pair, tuple) and len(pair) == 2 for p in with_pairs for pair in p.renamed)
    entry = model.to_json(report)["pipelines"][0]["passes"][pipeline.passes.index(with_pairs[0])]
    assert entry["renamed"] == [list(pair) for pair in with_pairs[0].renamed]


# ---- a property: a real snapshot renumbered, some of its operations changed ------------------------


def _snapshots() -> list[list[str]]:
    """The distinct snapshot texts of a real fixture, as lines."""
    texts = {snapshot.text for dump in load(MLIR / "multi_func" / "tree_dir") for snapshot in dump.snapshots[1:]}
    return [split_lines(text)[0] for text in sorted(texts)]


SNAPSHOTS = _snapshots()


def _snapshot(index: int, lines: list[str]) -> Snapshot:
    return Snapshot(
        index, f"{index:02d}", "input" if index == 0 else "canonicalize", f"{index}.mlir", "\n".join(lines) + "\n", None
    )


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_renamed_rows_differ_by_names_only_and_changed_ops_are_never_renamed(data):
    lines = data.draw(st.sampled_from(SNAPSHOTS))
    numbers = sorted({int(m) for line in lines for m in re.findall(r"%(\d+)\b", line)})
    target = data.draw(st.permutations([n + data.draw(st.integers(0, 3)) for n in numbers])) if numbers else []
    rename = dict(zip(numbers, target))
    renamed = [re.sub(r"%(\d+)\b", lambda m: f"%{rename[int(m.group(1))]}", line) for line in lines]
    # Change the operation of a few lines that define a value: these must never be paired as renamed.
    defining = [i for i, line in enumerate(renamed) if re.match(r"\s*%\w+ = [\w.]+", line)]
    touched = set(data.draw(st.lists(st.sampled_from(defining), max_size=3))) if defining else set()
    after = [
        re.sub(r"= ([\w.]+)", r"= \1_changed", line, count=1) if i in touched else line
        for i, line in enumerate(renamed)
    ]
    dump = Dump("prop", (_snapshot(0, lines), _snapshot(1, after)), format="mlir-stream")
    json = build(dump)
    check_pairs(json)
    pairs = json["passes"][0].get("renamed", [])
    assert not {a for _, a in pairs} & touched
