"""A pass's effect in two runs compared as an edit (effect.py): words, hunks, lineups and the verdict, on small
texts written out line by line, then on the generated exp2 pair and on qwen3 decode edited the same way."""

from __future__ import annotations

import shutil

from dumptools import FIXTURES
from pypto_ir_trace import cli, compare, effect, render
from pypto_ir_trace.structure import Structure

EXP2 = FIXTURES / "runs" / "exp2"


class Table:
    """Line texts interned as ids, as the report's table of lines does."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def ids(self, text: str) -> list[int]:
        found = []
        for line in text.split("\n"):
            if line not in self.lines:
                self.lines.append(line)
            found.append(self.lines.index(line))
        return found

    def differ(self, old: int, new: int):
        return effect.words(self.lines[old], self.lines[new])


def diff(old: list[int], new: list[int]) -> compare.PassDiff:
    plain = Structure(regions=(), trusted=False)
    return compare.diff_pass(old, plain, new, plain)


def verdict(table: Table, theirs: tuple[str, str], ours: tuple[str, str]) -> effect.Verdict:
    """The pass taking theirs[0] to theirs[1] in the baseline and ours[0] to ours[1] in this run."""
    b_in, b_out, t_in, t_out = (table.ids(text) for text in (*theirs, *ours))
    sides = [
        effect.Side(effect.hunks(diff(before, after).pieces), before, after)
        for before, after in ((t_in, t_out), (b_in, b_out))
    ]
    inputs = effect.Lineup.of(diff(b_in, t_in).pieces, len(t_in))
    outputs = effect.Lineup.of(diff(b_out, t_out).pieces, len(t_out))
    return effect.compare(sides[0], sides[1], inputs, outputs, table.differ)


def test_words_are_the_replaced_stretches_in_order():
    assert effect.words("e = pl.tile.exp(a)", "e = pl.tile.exp2(a)") == (("exp", "exp2"),)
    assert effect.words("f(0, 64)", "f(4096, 64)  # x") == (("0", "4096"), ("", "  # x"))
    assert effect.words("same", "same") == ()


def test_hunks_are_changes_with_no_equal_line_between():
    table = Table()
    old, new = table.ids("a\nb\nc\nd\ne"), table.ids("a\nB\nC\nd\ne\nf")
    found = effect.hunks(diff(old, new).pieces)
    assert [(h.start, h.deleted, h.inserted) for h in found] == [(1, [1, 2], [1, 2]), (5, [], [5])]


def test_a_lineup_faces_equal_lines_and_pairs_changed_lines_in_order():
    table = Table()
    old, new = table.ids("a\nb\nc\nd"), table.ids("a\nB\nx\nC\nd")
    lineup = effect.Lineup.of(diff(old, new).pieces, len(new))
    assert lineup.partner == [0, 1, 2, -1, 3] and lineup.differs == {1, 2}
    assert [lineup.anchor(line) for line in range(6)] == [
        0,
        1,
        2,
        3,
        3,
        4,
    ]  # an unpaired line: after the last paired one
    assert effect.Lineup.same(3).partner == [0, 1, 2]


def test_the_same_edit_to_a_line_the_runs_already_disagreed_on_is_the_same_effect():
    table = Table()
    baseline = ("t = load(x)\ne = exp(t)\nreturn e", "t = load(x) @0\ne = exp(t) @0\nreturn e")
    this = ("t = load(x)\ne = exp2(t)\nreturn e", "t = load(x) @0\ne = exp2(t) @0\nreturn e")
    assert verdict(table, baseline, this) == effect.Verdict(True, (), ())


def test_another_edit_to_a_line_the_runs_disagreed_on_differs_at_that_hunk():
    table = Table()
    baseline = ("t = load(x)\nk\ne = exp(t)\nreturn e", "t = load(x) @0\nk\ne = exp(t) @64\nreturn e")
    this = ("t = load(x)\nk\ne = exp2(t)\nreturn e", "t = load(x) @0\nk\ne = exp2(t) @128\nreturn e")
    found = verdict(table, baseline, this)
    assert (found.same, found.facing, found.differing) == (False, (), (1,))
    # what the step's outputs differ by: the baseline's line against this run's, read as the baseline's
    assert effect.changes(found, table.lines.__getitem__) == (("64", "128"),)  # not exp -> exp2: known before


def test_a_difference_seen_before_the_pass_only_on_another_line_is_still_known():
    """`exp` -> `exp2` was a difference of the inputs: a line that comes to differ by it after the pass (moved)
    reads as the baseline's."""
    table = Table()
    baseline = ("e = exp(t)\nk\nreturn", "k\nreturn\ne = exp(t)")
    this = ("e = exp2(t)\nk\nreturn", "k\nreturn\ne = exp2(t)")
    assert verdict(table, baseline, this).same


def test_hunks_only_one_run_makes_face_none():
    table = Table()
    baseline = ("a\nb\nc\nd\ne", "a\nB\nc\nd\nE")
    this = ("a\nb\nc\nd\ne", "a\nB\nc\nd\ne")
    for theirs, ours, facing, told in (
        (baseline, this, ((0, 0), (-1, 1)), ("E", "e")),  # the baseline's edit: this run kept its input line
        (this, baseline, ((0, 0), (1, -1)), ("e", "E")),
    ):
        found = verdict(table, theirs, ours)
        assert (found.same, found.facing, found.differing) == (False, facing, (1,))
        assert effect.changes(found, table.lines.__getitem__) == (told,)


def test_the_generated_exp2_pair_differs_in_the_passes_that_made_another_edit(tmp_path):
    out = tmp_path / "runs.html"
    assert cli.main([str(EXP2 / "this"), "--baseline", str(EXP2 / "baseline"), "-o", str(out), "-q"]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    names = [p["name"] for p in data["pipelines"][0]["passes"]]
    rows = data["runs"]["rows"]
    assert [(names[r["this"]], r["sameEffect"], r.get("differing", [])) for r in rows] == [
        ("ConvertTensorToTileOps", False, [0]),  # exp against exp2
        ("InitMemRef", True, []),
        ("MemoryReuse", True, []),
        ("AllocateMemoryAddr", False, [1]),  # the second hunk: exp2's buffer at 16384, exp's at 8192
        ("Simplify", True, []),
    ]
    assert all(not r["identical"] for r in rows)  # and the runs print different text after every pass


def test_qwen3_with_exp2_differs_only_where_the_edit_differs(real_dumps, tmp_path):
    """The issue's case: exp lowered as exp2 from pass 11 on, and at 35 its buffer placed elsewhere."""
    base = real_dumps / "models_qwen3_decode_explicit"
    this = tmp_path / "this"
    shutil.copytree(base, this)
    for snapshot in sorted((this / "passes_dump").glob("*.py")):
        index = int(snapshot.name.split("_")[0])
        text = snapshot.read_text(encoding="utf-8")
        if index >= 11:
            text = text.replace("pl.tile.exp(", "pl.tile.exp2(")
        if index >= 35:
            text = text.replace("pl.MemRef(mem_vec_5, pl.const(32768, ", "pl.MemRef(mem_vec_5, pl.const(49152, ")
        snapshot.write_text(text, encoding="utf-8")
    out = tmp_path / "runs.html"
    assert cli.main([str(this), "--baseline", str(base), "-o", str(out), "-q"]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    passes = data["pipelines"][0]["passes"]
    rows = data["runs"]["rows"]
    assert [passes[r["this"]]["label"] for r in rows if not r["sameEffect"]] == ["11", "35"]
    assert sum(not r["identical"] for r in rows) == 39  # every row from 11 on prints different text
