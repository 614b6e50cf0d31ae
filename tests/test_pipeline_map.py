"""The map's figures (pipeline_map.py, opcounts.py) are the diff view's: per pass and function, the inserted and
deleted lines the diff view counts with that function picked, the function's lines after the pass, the IR's
lines after each pass, and each pass's op count deltas against a count of whole snapshots."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tree_sitter import Parser, QueryCursor

from modeltools import build, load_dump, source, text_ids
from pypto_ir_trace import grammar
from pypto_ir_trace.languages import LANGUAGES
from pypto_ir_trace.pipeline_map import merge_orders
from test_properties import PROFILE, mutated, seeds

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = sorted(
    [
        *(path for path in (ROOT / "fixtures" / "viewer").iterdir() if path.is_dir()),
        *(ROOT / "fixtures" / "real").glob("*/passes_dump"),
    ]
    + [
        path
        for path in (ROOT / "fixtures" / "mlir").glob("*/*")
        if path.parent.name != "real"  # the real corpus, packed: test_mlir_real.py reads it
        and (path.is_dir() or (path.suffix == ".txt" and "threading" not in path.name))
    ]
)


def diff_view_counts(entry: dict, key: str) -> tuple[int, int]:
    """What the diff view counts for a pass with `key` picked (views.js's counts: the sum of its pieces)."""
    pieces = [piece for piece in entry.get("pieces", []) if piece["key"] == key]
    return sum(piece["inserted"] for piece in pieces), sum(piece["deleted"] for piece in pieces)


def check_map(data: dict, whole: bool = True) -> None:
    """whole: every snapshot prints the whole program (PyPTO; an MLIR dump may print one function)."""
    found = data["pipelineMap"]
    functions = found["functions"]
    assert len(set(functions)) == len(functions)
    sizes = dict(zip(functions, found["start"]))  # each function's lines as the passes leave them
    regions = [{r["key"]: r["end"] - r["start"] for r in text["regions"]} for text in data["texts"]]
    assert {key for key, lines in sizes.items() if lines} == set(regions[0])
    for p, entry in enumerate(data["passes"]):
        cells = found["cells"][p]
        named = {functions[cells[i]]: list(cells[i + 1 : i + 4]) for i in range(0, len(cells), 4)}
        for key in regions[entry["before"]].keys() | regions[entry["after"]].keys():
            assert key in functions
            inserted, deleted = diff_view_counts(entry, key)
            lines = regions[entry["after"]].get(key, 0)
            if key in named:
                assert named[key] == [inserted, deleted, lines], (entry["name"], key)
                sizes[key] = lines
            else:  # left alone: nothing to count, and its lines as before
                assert (inserted, deleted) == (0, 0) and lines == regions[entry["before"]].get(key, 0)
            if key in regions[entry["after"]]:
                assert sizes[key] == lines
        if whole:  # the IR after the pass is its snapshot
            assert found["lines"][p] == len(text_ids(data, entry["after"]))


def whole_text_ops(language_name: str, text: str) -> Counter[str]:
    """The ops of a whole snapshot, its query run on one parse of it (not line by line, as the builder reads them)."""
    language = LANGUAGES[language_name]
    tree = Parser(language.grammar).parse(text.encode("utf-8", "surrogatepass"))
    query = grammar.query(language.grammar, language.name, "ops")
    nodes = QueryCursor(query).captures(tree.root_node).get("op", [])
    return Counter(node.text.decode().strip('"') for node in nodes)


def check_ops(data: dict, language_name: str) -> None:
    for entry in data["passes"]:
        before = whole_text_ops(language_name, source(data, entry["before"]))
        after = whole_text_ops(language_name, source(data, entry["after"]))
        expected = {op: after[op] - before[op] for op in before.keys() | after.keys() if after[op] != before[op]}
        assert dict(entry.get("ops", [])) == expected, entry["name"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: str(path.relative_to(ROOT / "fixtures")))
def test_the_map_counts_what_the_diff_view_counts_on_every_fixture(path):
    dump = load_dump(path)
    data = build(dump)
    check_map(data, whole=dump.format == "pypto")
    check_ops(data, "python" if dump.format == "pypto" else "mlir")


def test_a_pass_names_the_ops_it_changed_largest_first():
    data = build(load_dump(ROOT / "fixtures" / "real" / "advanced_01_split_k_explicit" / "passes_dump"))
    ops = {entry["name"]: entry.get("ops", []) for entry in data["passes"]}
    tiled = dict(ops["ConvertTensorToTileOps"])
    assert tiled["pl.tile.load"] > 0 and tiled["pl.tile.store"] > 0
    assert not any(op.startswith("self.") for entry in ops.values() for op, _ in entry)  # calls of functions: rows
    for entry in ops.values():
        assert [abs(n) for _, n in entry] == sorted((abs(n) for _, n in entry), reverse=True)


@pytest.mark.parametrize(
    "sequences, expected",
    [
        ([["a", "b", "c"], ["b", "c"]], ["a", "b", "c"]),
        ([["a", "main"], ["main"], ["a_aic", "a_aiv", "main"]], ["a", "a_aic", "a_aiv", "main"]),  # outlined: beside
        ([["f", "g"], ["f", "f_part", "g"]], ["f", "f_part", "g"]),
        ([["x"], ["y"]], ["x", "y"]),  # nothing known: last
    ],
)
def test_rows_keep_program_order(sequences, expected):
    assert merge_orders(sequences) == expected


@st.composite
def pipelines(draw) -> list[str]:
    """Three to five snapshots, each a mutation of the one before (passes that add, remove, break functions)."""
    before, after = draw(st.sampled_from(seeds()))
    texts = [before]
    for _ in range(draw(st.integers(2, 4))):
        texts.append(draw(st.sampled_from([after, texts[-1]])) if draw(st.booleans()) else draw(mutated(texts[-1])))
    return texts


@PROFILE
@given(pipelines())
def test_the_map_counts_what_the_diff_view_counts_on_generated_pipelines(texts):
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        for i, text in enumerate(texts):
            name = "00_frontend.py" if i == 0 else f"{i:02d}_after_Pass{i}.py"
            (root / name).write_bytes(text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode())
        data = build(load_dump(root))
    check_map(data)


def test_two_runs_name_each_function_that_differs_after_a_row():
    """A row's functions that differ are those of the two snapshots' diff (the Across runs view), with its counts."""
    from pypto_ir_trace import compare, programs, structure
    from pypto_ir_trace.languages import PYTHON

    pair = ROOT / "fixtures" / "runs" / "variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit" / "passes_dump"
    baseline = (
        ROOT / "fixtures" / "runs" / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit" / "passes_dump"
    )
    report = programs.build_pair((load_dump(pair),), (load_dump(baseline),), 3)
    runs = report.runs
    snapshots = [load_dump(pair).snapshots, load_dump(baseline).snapshots]
    checked = 0
    for row in runs.rows:
        if row.this is None or row.baseline is None or row.identical:
            continue
        texts = [snapshots[0][row.this + 1].text, snapshots[1][row.baseline + 1].text]
        ids: dict[str, int] = {}
        lines = [text.splitlines() for text in texts]
        numbered = [[ids.setdefault(line, len(ids)) for line in side] for side in lines]
        shapes = [PYTHON.analyze(structure.parse(side, PYTHON), side) for side in lines]
        found = compare.diff_pass(numbered[1], shapes[1], numbered[0], shapes[0])
        assert dict((key, (i, d)) for key, i, d in row.by_region) == found.by_region
        checked += 1
    assert checked >= 10  # the runs differ after 15 rows
