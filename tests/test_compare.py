"""Pass diffs: regions paired by name, merged in after-file order, counts that add up."""

from __future__ import annotations

from modeltools import apply, blocks
from pypto_ir_trace import compare, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.languages import PYTHON


def analyse(text):
    lines, _ = split_lines(text)
    return lines, PYTHON.analyze(structure.parse(lines, PYTHON), lines)


def diff_texts(before, after, trusted=True):
    table: dict[str, int] = {}
    (b_lines, b_struct), (a_lines, a_struct) = analyse(before), analyse(after)
    if not trusted:
        b_struct = structure.Structure(b_struct.regions, False, "test")
    b_ids = [table.setdefault(x, len(table)) for x in b_lines]
    a_ids = [table.setdefault(x, len(table)) for x in a_lines]
    result = compare.diff_pass(b_ids, b_struct, a_ids, a_struct)
    text_of = {v: k for k, v in table.items()}
    return result, b_ids, a_ids, text_of


def view(result, key, b_lines, a_lines):
    """The rows of one piece (or all pieces for key None) as (before text | None, after text | None)."""
    rows = []
    for piece in result.pieces:
        if key is not None and piece.key != key:
            continue
        for b, a, eq, deleted, inserted in blocks(piece.segments):
            rows += [(b_lines[b + i], a_lines[a + i]) for i in range(eq)]
            rows += [(b_lines[b + eq + i], None) for i in range(deleted)]
            rows += [(None, a_lines[a + eq + i]) for i in range(inserted)]
    return rows


BEFORE = """\
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def a(self, x):
        y = pl.add(x, x)
        return y
    @pl.function
    def b(self, x):
        return x
    def gone(self):
        return 0
def helper():
    return 1
"""

AFTER = """\
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def b(self, x):
        return x
    @pl.function
    def a(self, x):
        y__ssa: pl.Tile = pl.add(x, x)
        return y__ssa
    def fresh(self):
        return 2
def helper():
    return 1
"""


def test_counts_add_up_and_rebuild_the_after_side():
    result, b_ids, a_ids, _ = diff_texts(BEFORE, AFTER)
    assert apply(b_ids, result) == a_ids
    assert result.inserted - result.deleted == len(a_ids) - len(b_ids)


def test_moved_function_is_matched_by_name():
    result, *_ = diff_texts(BEFORE, AFTER)
    # b moved above a but did not change; a changed two lines.
    assert "P.b" not in result.by_region
    assert result.by_region["P.a"] == (2, 2)
    assert result.by_region["P.gone"] == (0, 2)
    assert result.by_region["P.fresh"] == (2, 0)
    assert "helper" not in result.by_region


def test_pieces_follow_after_file_order_and_function_view_agrees_with_whole_file():
    result, b_ids, a_ids, text_of = diff_texts(BEFORE, AFTER)
    b_lines = [text_of[i] for i in b_ids]
    a_lines = [text_of[i] for i in a_ids]
    keys = [p.key for p in result.pieces if p.key]
    assert keys.index("P.b") < keys.index("P.a") < keys.index("P.fresh")
    whole = view(result, None, b_lines, a_lines)
    after_side = [a for _, a in whole if a is not None]
    assert after_side == a_lines  # every after line once, in order
    assert sorted(b for b, _ in whole if b is not None) == sorted(b_lines)
    for key in ("P.a", "P.b", "P.gone", "P.fresh", "helper"):
        rows = view(result, key, b_lines, a_lines)
        assert rows, key
        # the function's rows appear in the whole-file view as one contiguous, identical run
        starts = [i for i in range(len(whole)) if whole[i : i + len(rows)] == rows]
        assert starts, key


def test_function_view_shows_only_that_function():
    result, b_ids, a_ids, text_of = diff_texts(BEFORE, AFTER)
    rows = view(result, "P.a", [text_of[i] for i in b_ids], [text_of[i] for i in a_ids])
    assert rows[0] == ("    @pl.function", "    @pl.function")
    assert ("        y = pl.add(x, x)", None) in rows
    assert (None, "        y__ssa: pl.Tile = pl.add(x, x)") in rows
    assert all("def b" not in (b or "") + (a or "") for b, a in rows)


def test_untrusted_side_falls_back_to_one_whole_file_piece():
    result, b_ids, a_ids, _ = diff_texts(BEFORE, AFTER, trusted=False)
    assert [p.key for p in result.pieces] == [None]
    assert result.by_region == {}
    assert apply(b_ids, result) == a_ids


def test_identical_texts_have_no_changes():
    result, b_ids, a_ids, _ = diff_texts(BEFORE, BEFORE)
    assert (result.inserted, result.deleted, result.by_region) == (0, 0, {})
    assert apply(b_ids, result) == a_ids


def test_outside_lines_diff_as_lines():
    after = BEFORE.replace("import pypto.language as pl", "import pypto.language as pl\nimport pypto.dist as pld")
    result, *_ = diff_texts(BEFORE, after)
    assert (result.inserted, result.deleted) == (1, 0)
    assert [p.key for p in result.pieces if p.inserted] == [None]


def changed_blocks(result):
    """(before line, after line, deleted, inserted) of every run that changes something."""
    return [(b + eq, a + eq, d, i) for piece in result.pieces for b, a, eq, d, i in blocks(piece.segments) if d or i]


def test_a_changed_first_line_is_one_replaced_line_like_any_other():
    """Issue 9: a change on line 1 was a deleted run then an inserted run, drawn as two rows."""
    for before, after, line in [("old\na\n", "new\na\n", 0), ("a\nold\n", "a\nnew\n", 1), ("old\n", "new\n", 0)]:
        for trusted in (True, False):
            result, b_ids, a_ids, _ = diff_texts(before, after, trusted)
            assert changed_blocks(result) == [(line, line, 1, 1)], (before, trusted)
            assert apply(b_ids, result) == a_ids


def test_limits_reach_every_line_diff():
    """A reduced cap gives up on the anchorless gap inside a function as it does for plain lines."""
    body_a = "".join(f"        x{i % 2}\n" for i in range(40))
    body_b = "".join(f"        x{(i + 1) % 3}\n" for i in range(40))
    wrap = "@pl.program\nclass P:\n    def f(self):\n{}        return 0\n"
    table: dict[str, int] = {}
    sides = []
    for text in (wrap.format(body_a), wrap.format(body_b)):
        lines, structure_ = analyse(text)
        sides.append(([table.setdefault(x, len(table)) for x in lines], structure_))
    (b_ids, b_struct), (a_ids, a_struct) = sides
    full = compare.diff_pass(b_ids, b_struct, a_ids, a_struct)
    capped = compare.diff_pass(b_ids, b_struct, a_ids, a_struct, limits={"myers_max_cost": 100})
    assert apply(b_ids, capped) == a_ids
    assert full.by_region["P.f"][0] < 40
    assert capped.by_region["P.f"] == (38, 38)  # all but the two shared last lines (x0, x1) given up


def test_a_shared_memo_changes_no_diff():
    """Two runs' rows meet the same pairs of functions again: a diff from the memo is the diff made afresh."""
    texts = [
        "def f():\n    a = 1\n    return a\n\ndef g():\n    b = 2\n    return b\n",
        "def f():\n    a = 1\n    return a\n\ndef g():\n    b = 3\n    return b\n",
        "x = 0\n\ndef g():\n    b = 3\n    return b\n\ndef f():\n    a = 1\n    return a\n",
        "def f():\n    a = 4\n    return a\n",
    ]
    table: dict[str, int] = {}
    sides = []
    for text in texts:
        lines, found = analyse(text)
        sides.append(([table.setdefault(line, len(table)) for line in lines], found))
    memo: compare.Memo = {}
    for _ in range(2):  # the second round comes from the memo only
        for b_ids, b_struct in sides:
            for a_ids, a_struct in sides:
                fresh = compare.diff_pass(b_ids, b_struct, a_ids, a_struct)
                assert compare.diff_pass(b_ids, b_struct, a_ids, a_struct, memo=memo) == fresh
    assert memo
