"""renumber.js without a report: a pass seen with its renamed pairs as unchanged, the rows marked renamed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagetools import pure_page

pytestmark = pytest.mark.browser

EQUAL, PAIR, DELETED, INSERTED, RENAMED = 0, 1, 2, 3, 4


@pytest.fixture(scope="module")
def logic(browser, pure_scripts):
    with pure_page(browser, pure_scripts, "logic") as page:
        yield lambda js, arg=None: page.evaluate(js, arg)


SHOW = """([pieces, renamed]) => {
  const inserted = pieces.reduce((n, p) => n + p.inserted, 0), deleted = pieces.reduce((n, p) => n + p.deleted, 0);
  const byRegion = new Map(pieces.filter(p => p.key !== null).map(p => [p.key, {inserted: p.inserted, deleted: p.deleted}]));
  const pass = IRTraceRenumber.ignoring({pieces, inserted, deleted, byRegion, renamed});
  const rows = IRTraceRenumber.markRows(IRTraceRows.buildRows(pass, null, [0, 0]), pass);
  return {
    rows: Array.from(rows.b, (b, r) => [b, rows.a[r], rows.kind[r]]),
    inserted: pass.inserted, deleted: pass.deleted, renamed: pass.renamedCount, counts: IRTraceRenumber.counts(pass),
    byRegion: Object.fromEntries(pass.byRegion),
  };
}"""


def piece(key, blocks):
    return {
        "key": key,
        "inserted": sum(r[4] for r in blocks),
        "deleted": sum(r[3] for r in blocks),
        "blocks": [dict(zip(("b", "a", "equal", "deleted", "inserted"), r)) for r in blocks],
    }


def test_renamed_pairs_become_marked_rows_and_leave_the_counts(logic):
    shown = logic(SHOW, [[piece("f", [(0, 0, 1, 3, 3)])], [[1, 1], [3, 3]]])
    assert shown["rows"] == [[0, 0, EQUAL], [1, 1, RENAMED], [2, 2, PAIR], [3, 3, RENAMED]]
    assert (shown["inserted"], shown["deleted"], shown["renamed"]) == (1, 1, 2)
    assert shown["counts"] == "+1 \u22121, 2 renamed"
    assert shown["byRegion"] == {"f": {"inserted": 1, "deleted": 1, "renamed": 2}}


def test_without_pairs_nothing_changes(logic):
    shown = logic(SHOW, [[piece(None, [(0, 0, 1, 2, 1)])], []])
    assert shown["rows"] == [[0, 0, EQUAL], [1, 1, PAIR], [2, -1, DELETED]]
    assert shown["counts"] == "+1 \u22122"


def test_pairs_that_cross_are_not_shown_as_renamed(logic):
    # renumber.py never reports crossing pairs in one block; were it to, rows could not show both.
    shown = logic(SHOW, [[piece(None, [(0, 0, 0, 3, 3)])], [[2, 0], [0, 2]]])
    assert sum(kind == RENAMED for _, _, kind in shown["rows"]) == 1
    assert shown["renamed"] == 1 and shown["inserted"] == 2 and shown["deleted"] == 2


@st.composite
def passes(draw):
    """The blocks of one piece and monotone renamed pairs inside their changed parts."""
    blocks, pairs, b, a = [], [], 0, 0
    for _ in range(draw(st.integers(1, 5))):
        eq, dels, ins = draw(st.integers(0, 3)), draw(st.integers(0, 4)), draw(st.integers(0, 4))
        blocks.append((b, a, eq, dels, ins))
        k = draw(st.integers(0, min(dels, ins)))
        left = sorted(draw(st.lists(st.integers(0, dels - 1), min_size=k, max_size=k, unique=True))) if k else []
        right = sorted(draw(st.lists(st.integers(0, ins - 1), min_size=k, max_size=k, unique=True))) if k else []
        pairs += [[b + eq + i, a + eq + j] for i, j in zip(left, right)]
        b, a = b + eq + dels, a + eq + ins
    return blocks, sorted(pairs, key=lambda p: p[1])


@settings(max_examples=60, deadline=None)
@given(passes())
def test_every_line_is_shown_once_and_exactly_the_pairs_are_renamed(logic, drawn):
    blocks, pairs = drawn
    plain = logic(SHOW, [[piece("f", blocks)], []])["rows"]
    shown = logic(SHOW, [[piece("f", blocks)], pairs])
    rows = shown["rows"]
    assert sorted(b for b, _, _ in rows if b >= 0) == sorted(b for b, _, _ in plain if b >= 0)
    assert sorted(a for _, a, _ in rows if a >= 0) == sorted(a for _, a, _ in plain if a >= 0)
    assert sorted([b, a] for b, a, kind in rows if kind == RENAMED) == sorted(pairs)
    assert [[b, a] for b, a, kind in rows if kind == EQUAL] == [[b, a] for b, a, kind in plain if kind == EQUAL]
    assert shown["renamed"] == len(pairs)
    assert shown["inserted"] == sum(r[4] for r in blocks) - len(pairs)
    assert shown["deleted"] == sum(r[3] for r in blocks) - len(pairs)
