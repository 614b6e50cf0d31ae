"""The line history (static/blame.js) under Node, no browser: against generated pipelines whose every line's history
is known by construction (blamecases.py), and for consistency on real dumps (PyPTO and MLIR, Ignore renumbering
off and on): a line's history never starts after its snapshot, an unchanged line keeps its origin from one
snapshot to the next, and the gutter's origin is the chain's first step."""

from __future__ import annotations

from pathlib import Path

import pytest

from blamecases import Pipeline
from dumptools import write_dump
from modeltools import load_dump, report_of
from nodeharness import Harness
from pypto_ir_trace import model

HARNESS = Path(__file__).with_name("blame_harness.js")
SCRIPTS = ("rows.js", "linediff.js", "compare.js", "model.js", "renumber.js", "blame.js")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# MLIR dumps of every shape: module scope, local scope (ops diffed against their own previous dumps), a stream,
# a failed pass, renumbered values
MLIR = [
    "multi_func/tree_dir",
    "multi_func/tree_dir_no_module_scope",
    "multi_func/stream.txt",
    "failing_bufferize/tree_dir_no_module_scope",
    "affine_matmul/variant_tree_dir_after_change",
]


@pytest.fixture(scope="module")
def node():
    child = Harness(HARNESS, SCRIPTS)
    yield child
    child.close()


def histories(node: Harness, report: dict, pipeline: int = 0, renumber: bool = False) -> list:
    """Every snapshot's lines, each with its chain and its origin, as blame.js finds them."""
    reply = node.ask({"report": report, "pipeline": pipeline, "renumber": renumber})
    assert "error" not in reply, reply
    return reply["result"]


def report_json(path: Path, format_name: str | None = None) -> dict:
    return model.to_json(report_of(load_dump(path, format_name)))


@pytest.mark.parametrize("seed", range(12))
def test_every_line_s_history_is_the_one_it_was_built_with(node, tmp_path, seed):
    pipeline = Pipeline(seed)
    found = histories(node, report_json(write_dump(tmp_path / "dump", pipeline.files())))
    for s, (truth, lines) in enumerate(zip(pipeline.truth(), found)):
        assert len(truth) == len(lines)
        for line, (history, got) in enumerate(zip(truth, lines)):
            chain = [(step[0], step[1], step[2]) for step in got["chain"]]
            assert chain == [tuple(step) for step in history], f"snapshot {s}, line {line + 1}"
            assert got["origin"] == history[0][0]


def test_the_generated_pipelines_exercise_every_kind_of_edit():
    """The oracle is only as good as its cases: over the seeds, every kind of step occurs, many times."""
    kinds: dict[str, int] = {}
    for seed in range(12):
        for lines in Pipeline(seed).truth():
            for history in lines:
                for _, how, _ in history:
                    kinds[how] = kinds.get(how, 0) + 1
                if len(history) > 2:
                    kinds["chains of 3+"] = kinds.get("chains of 3+", 0) + 1
    assert all(kinds.get(kind, 0) > 50 for kind in ("input", "inserted", "changed", "chains of 3+")), kinds


def consistent(snapshots: list, passes: list) -> None:
    """Each line's history never starts after its snapshot; the gutter's origin is the chain's first step; the
    steps go back in time; a
    line a pass leaves equal keeps its origin (`passes[p]`: its after line -> before line, for equal lines)."""
    for s, lines in enumerate(snapshots):
        for line, got in enumerate(lines):
            first = got["chain"][0]
            # not followed (a before snapshot no pass printed): the gutter says so, the chain names where it stops
            assert got["origin"] == (None if first[1] == "unfollowed" else first[0]), (s, line, got)
            assert first[0] <= s - 1, (s, line, got)
            steps = [step[0] for step in got["chain"]]
            assert steps == sorted(steps, reverse=True), (s, line, steps)
    for p, equal in enumerate(passes):
        for after, before in equal.items():
            assert snapshots[p + 1][after]["origin"] == snapshots[p][before]["origin"], (p, after)


def equal_lines(report: dict, pipeline: int = 0) -> list[dict[int, int]]:
    """Per pass, its equal lines: after line -> before line (a no-op pass: every line to itself)."""
    from modeltools import blocks, text_ids

    data = report["pipelines"][pipeline]
    out = []
    for p in data["passes"]:
        if "pieces" not in p:
            out.append({line: line for line in range(len(text_ids(data, p["after"])))})
            continue
        equal = {}
        for piece in p["pieces"]:
            for b, a, eq, _, _ in blocks(piece["segments"]):
                equal.update({a + k: b + k for k in range(eq)})
        out.append(equal)
    return out


@pytest.mark.parametrize("name", sorted(path.name for path in (FIXTURES / "real").iterdir()))
def test_real_pypto_dumps_are_consistent(node, name):
    report = report_json(FIXTURES / "real" / name / "passes_dump")
    consistent(histories(node, report), equal_lines(report))


def test_qwen3_decode_explicit_is_consistent(node, real_dumps):
    """The largest real dump (50 snapshots of up to 1,600 lines): every line of every snapshot."""
    report = report_json(real_dumps / "models_qwen3_decode_explicit" / "passes_dump")
    consistent(histories(node, report), equal_lines(report))


@pytest.mark.parametrize("renumber", [False, True], ids=["renumbering shown", "renumbering ignored"])
@pytest.mark.parametrize("name", MLIR)
def test_mlir_dumps_are_consistent(node, name, renumber):
    report = report_json(FIXTURES / "mlir" / name)
    snapshots = histories(node, report, renumber=renumber)
    data = report["pipelines"][0]
    # An MLIR op dumped in local scope is diffed against its own previous dump: the equal lines of a pass then
    # link its after snapshot to that one, not to the previous pass's; the check keeps to passes of the PyPTO kind.
    chained = [
        p == 0 or data["passes"][p]["before"] == data["passes"][p - 1]["after"] for p in range(len(data["passes"]))
    ]
    equal = [lines if ok else {} for lines, ok in zip(equal_lines(report), chained)]
    if renumber:  # renamed lines are followed as equal: they keep their origin too
        for lines, ok, p in zip(equal, chained, data["passes"]):
            lines.update({a: b for b, a in p.get("renamed", ()) if ok})
    consistent(snapshots, equal)
