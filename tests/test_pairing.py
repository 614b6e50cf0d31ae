"""Regions paired by content (compare.py's Pairing): renamed and split functions diff line by line, every
snapshot still rebuilds exactly, and a pass whose regions all have namesakes diffs as it did by name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from modeltools import apply
from pypto_ir_trace import compare
from test_compare import analyse, view
from test_properties import PROFILE

HEAD = "import pypto.language as pl\n\n@pl.program\nclass P:\n"


def program(functions: list[tuple[str, list[str]]]) -> str:
    """A program class of methods (name, body lines), each with a decorator and a def line."""
    text = HEAD
    for name, body in functions:
        text += f"    @pl.function\n    def {name}(self, x):\n" + "".join(f"        {line}\n" for line in body)
    return text


def changed_rows(result, b_lines, a_lines, key=None):
    return [row for row in view(result, key, b_lines, a_lines) if row[0] != row[1]]


def run(before: str, after: str, by_content: bool = True):
    """The pass diff of two texts, checked to rebuild the after side; with both sides' lines."""
    table: dict[str, int] = {}
    (b_lines, b_struct), (a_lines, a_struct) = analyse(before), analyse(after)
    b_ids = [table.setdefault(x, len(table)) for x in b_lines]
    a_ids = [table.setdefault(x, len(table)) for x in a_lines]
    result = compare.diff_pass(b_ids, b_struct, a_ids, a_struct, by_content=by_content)
    assert apply(b_ids, result) == a_ids  # every diff rebuilds its after side exactly
    return result, b_lines, a_lines


BODY = ["y = pl.add(x, x)", "z = pl.mul(y, y)", "return z"]


def test_the_issue_example_is_one_changed_header_line():
    """`def broken(:` -> `def valid():` with the same body: one changed row, not two deleted and two inserted."""
    before = HEAD + "    def broken(:\n        return 1\n    def b(self):\n        return 2\n"
    after = HEAD + "    def valid():\n        return 1\n    def b(self):\n        return 2\n"
    result, b_lines, a_lines = run(before, after)
    assert changed_rows(result, b_lines, a_lines) == [("    def broken(:", None), (None, "    def valid():")]
    (piece,) = [p for p in result.pieces if p.key == "P.valid"]
    assert (piece.before_key, piece.inserted, piece.deleted) == ("P.broken", 1, 1)
    assert result.by_region == {"P.valid": (1, 1)}


def test_a_renamed_function_keeps_its_body_changes():
    before = program([("a", BODY), ("old", [*BODY, "pass"]), ("c", ["return x"])])
    after = program([("a", BODY), ("new", [*BODY[:2], "w = pl.sub(z, y)", BODY[2], "pass"]), ("c", ["return x"])])
    result, *_ = run(before, after)
    assert result.by_region == {"P.new": (2, 1)}  # the def line, and the inserted line
    assert [p.before_key for p in result.pieces if p.key == "P.new"] == ["P.old"]


def test_a_split_gives_its_best_match_and_the_other_parts_stay_inserted():
    """ExpandMixedKernel's shape: f keeps its name as a small wrapper, its body goes to f_aic and f_aiv."""
    cube = [f"c{i} = pl.matmul(x, w{i})" for i in range(6)]
    vector = [f"v{i} = pl.add(x, {i})" for i in range(3)]
    before = program([("f", cube + vector + ["return v2"]), ("g", ["return x"])])
    wrapper = ["self.f_aic(x)", "return self.f_aiv(x)"]
    after = program([("f_aic", cube), ("f_aiv", [*vector, "return v2"]), ("f", wrapper), ("g", ["return x"])])
    result, *_ = run(before, after)
    pieces = {p.key: p for p in result.pieces if p.key}
    assert pieces["P.f_aic"].before_key == "P.f"  # 6 of f's 12 lines, the most similar part
    assert (pieces["P.f_aiv"].before_key, pieces["P.f_aiv"].deleted) == (None, 0)
    assert (pieces["P.f"].before_key, pieces["P.f"].deleted) == (None, 0)  # the wrapper: all inserted
    by_name, *_ = run(before, after, by_content=False)
    assert result.inserted + result.deleted < by_name.inserted + by_name.deleted


def test_regions_too_different_are_not_paired():
    before = program([("old", ["a = 1", "b = 2", "c = 3", "return a"])])
    after = program([("new", ["p = 1", "q = 2", "r = 3", "return a"])])
    result, *_ = run(before, after)
    assert [p.before_key for p in result.pieces] == [None, None, None]
    assert result.by_region == {"P.new": (6, 0), "P.old": (0, 6)}


def test_pairing_stays_between_the_same_paired_neighbours():
    """A renamed function that also moved past a function paired by name stays deleted and inserted."""
    before = program([("old", BODY), ("keep", ["return x"])])
    after = program([("keep", ["return x"]), ("new", BODY)])
    result, *_ = run(before, after)
    assert all(p.before_key is None for p in result.pieces)


def test_without_a_new_name_a_pass_diffs_as_by_name():
    before = program([("a", BODY), ("gone", BODY), ("c", ["return x"])])
    after = program([("a", BODY[:2]), ("c", ["return x"])])
    assert run(before, after)[0] == run(before, after, by_content=False)[0]


def test_the_cost_bound_leaves_a_block_unpaired(monkeypatch):
    before = program([("old", BODY)])
    after = program([("new", BODY)])
    monkeypatch.setattr(compare, "PAIR_MAX_COST", 9)  # 1 x 5 + 1 x 5 lines: over
    assert all(p.before_key is None for p in run(before, after)[0].pieces)
    monkeypatch.setattr(compare, "PAIR_MAX_COST", 10)
    assert any(p.before_key for p in run(before, after)[0].pieces)


# ---- generated renames and splits ----------------------------------------------------------------------------

LINES = st.sampled_from([f"t{i} = pl.op{i % 4}(x, {i})" for i in range(12)] + ["return x", "pass", "x = x"])
BODIES = st.lists(LINES, min_size=1, max_size=10)


@st.composite
def programs(draw):
    names = draw(st.lists(st.sampled_from("abcdefgh"), min_size=1, max_size=6, unique=True))
    return [(name, draw(BODIES)) for name in names]


@PROFILE
@given(programs(), st.data())
def test_a_pure_rename_diffs_as_one_changed_header_line(functions, data):
    k = data.draw(st.integers(0, len(functions) - 1))
    name, body = functions[k]
    renamed = [*functions[:k], (name + "_renamed", body), *functions[k + 1 :]]
    result, b_lines, a_lines = run(program(functions), program(renamed))
    assert changed_rows(result, b_lines, a_lines) == [
        (f"    def {name}(self, x):", None),
        (None, f"    def {name}_renamed(self, x):"),
    ]
    assert result.by_region == {f"P.{name}_renamed": (1, 1)}
    assert [p.before_key for p in result.pieces if p.key == f"P.{name}_renamed"] == [f"P.{name}"]


@PROFILE
@given(programs(), st.data())
def test_a_split_rebuilds_exactly_and_pairs_at_most_one_part(functions, data):
    k = data.draw(st.integers(0, len(functions) - 1))
    name, body = functions[k]
    cut = data.draw(st.integers(0, len(body)))
    parts = [(name + "_aic", body[:cut] or ["pass"]), (name + "_aiv", body[cut:] or ["pass"])]
    if data.draw(st.booleans()):  # the original keeps its name as a wrapper calling the parts
        parts.append((name, [f"self.{name}_aic(x)", f"return self.{name}_aiv(x)"]))
    split = [*functions[:k], *parts, *functions[k + 1 :]]
    result, *_ = run(program(functions), program(split))  # rebuilds exactly (run checks)
    paired = [(p.before_key, p.key) for p in result.pieces if p.before_key]
    assert paired in ([], [(f"P.{name}", f"P.{name}_aic")], [(f"P.{name}", f"P.{name}_aiv")])
    keys = [p.key for p in result.pieces if p.key is not None]
    assert len(keys) == len(set(keys))  # one piece per region: the Function selector's values stay unique
    assert sum(p.inserted for p in result.pieces) == result.inserted
