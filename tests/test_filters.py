"""The LLVM filters' patterns (grammars/llvm/filters.tokens, filters.py) on real dumps: what each hides, that a
pipeline is offered only the filters that would change one of its lines, and, by the oracle (tests/llvmoracle.py,
the dump alone), that hiding debug info and metadata of a -g build leaves what the build without -g shows."""

from __future__ import annotations

import re

import pytest

from dumptools import FIXTURES
from llvmoracle import changes, dumps
from modeltools import build, load_dump, model_json
from pypto_ir_trace import builder, filters

LLVM = FIXTURES / "llvm"
G = LLVM / "lz4-renorm-O2-g.txt"
LLC = LLVM / "lz4-llc-setstreamdecode-O2-g.txt"
PLAIN = LLVM / "lz4-renorm-O2.txt"
SCOPE = LLVM / "version-module-scope-O1.txt"  # whole modules: metadata lines and attribute groups

DEBUG = re.compile(r"!dbg |!DIAssignID |#dbg_|@llvm\.dbg\.|\bDBG_[A-Z_]+\b|debug-location|^!\d+ = (distinct )?!DI")
DEBUG_INSTRUCTION = re.compile(r"^[ \t]+(DBG_[A-Z_]+)\b")  # in machine code: the only hidden lines that run an op
METADATA = re.compile(r", !(?!dbg )[a-z][-\w.]* !\d| #\d+\b|^![-\w.]+ = |^attributes #|^; Function Attrs:")


def _named(*names: str) -> tuple[filters.LineFilter, ...]:
    return tuple(f for f in filters.of("llvm") if f.name in names)


def _lines(path):
    return [line for _, body in dumps(path) for line in body]


@pytest.mark.parametrize("path", [G, LLC, SCOPE], ids=lambda p: p.name)
def test_debug_info_is_hidden_and_nothing_else_is_touched(path):
    lines = _lines(path)
    shown = [filters.apply(_named("debug"), line) for line in lines]
    assert not [line for line in shown if line is not None and DEBUG.search(line)]
    # a line changed is a line that had debug info; the rest stay as they were
    assert all(after == before for before, after in zip(lines, shown) if not DEBUG.search(before))


@pytest.mark.parametrize("path", [G, LLC, SCOPE], ids=lambda p: p.name)
def test_attributes_and_metadata_are_hidden_but_debug_info_is_the_other_switch(path):
    lines = _lines(path)
    shown = [filters.apply(_named("metadata"), line) for line in lines]
    assert not [line for line in shown if line is not None and METADATA.search(line)]
    kept = [line for line in shown if line is not None]
    assert sum("!dbg " in line for line in kept) == sum("!dbg " in line for line in lines if not line.startswith("!"))


def test_a_pipeline_is_offered_only_the_filters_that_change_one_of_its_lines():
    offered = lambda path: [f["name"] for f in build(load_dump(path)).get("filters", [])]
    assert offered(G) == ["debug", "metadata"]
    assert offered(LLC) == ["debug", "metadata"]
    assert offered(PLAIN) == ["metadata"]  # no -g
    assert offered(FIXTURES / "mlir" / "multi_func" / "tree_dir") == []  # no filters for MLIR


@pytest.mark.parametrize("path", sorted(LLVM.glob("*.txt")), ids=lambda path: path.stem)
def test_a_filter_is_offered_exactly_when_applying_it_changes_a_line(path):
    """offered() searches the lines joined for each pattern rewritten to be found fast (a line's start as the
    newline before it, no leading optional comma); applying each filter to each line says the same."""
    lines = sorted(set(path.read_text(encoding="utf-8").split("\n")))
    changing = [f.name for f in filters.of("llvm") if any(filters.apply((f,), line) != line for line in lines)]
    assert [f.name for f in filters.offered("llvm", lines)] == changing


def test_hiding_debug_info_and_metadata_of_a_g_build_leaves_what_the_build_without_g_changes():
    with_g = changes(G, ("debug", "metadata"))
    assert with_g == changes(PLAIN, ("metadata",))
    assert changes(G) != with_g  # hiding them changes what the passes are seen to do


def test_in_machine_code_a_pass_that_only_moved_debug_values_changes_nothing_once_they_are_hidden():
    label = next(k + 1 for k, (header, _) in enumerate(dumps(LLC)) if "(livedebugvalues)" in header)
    assert changes(LLC)[label, "LZ4_setStreamDecode"]
    assert not changes(LLC, ("debug",))[label, "LZ4_setStreamDecode"]


@pytest.mark.parametrize("path", [LLC, G, PLAIN], ids=lambda p: p.name)
def test_the_ops_of_the_lines_a_filter_hides_are_in_the_data(path):
    """The page takes these out of the op counts while their lines are hidden: every distinct line of the dump
    that a filter hides whole and that runs an instruction (llc's DBG_VALUE; -g clang's records run none)."""
    data = build(load_dump(path))
    hidden = {data["lines"][line_id]: ops for line_id, *ops in data.get("hiddenOps", [])}
    instructions = {line for line in _lines(path) if DEBUG_INSTRUCTION.match(line)}
    assert hidden == {line: [DEBUG_INSTRUCTION.match(line)[1]] for line in instructions}
    assert bool(hidden) == (path == LLC)


def test_a_report_of_two_runs_carries_the_ops_of_the_lines_either_runs_filters_hide():
    """Two runs offer either run's filters (static/filteredruns.js): the lines they hide that run ops are listed as
    for one run, the llc -g dump's DBG_VALUEs against a build without debug info as much as against itself."""
    one = build(load_dump(LLC))
    hidden = {one["lines"][line_id]: ops for line_id, *ops in one["hiddenOps"]}
    for baseline in (LLC, PLAIN):
        runs = model_json(builder.build((load_dump(LLC), load_dump(baseline)), 3, baseline=1))
        assert runs["runs"] and {runs["lines"][line_id]: ops for line_id, *ops in runs["hiddenOps"]} == hidden
