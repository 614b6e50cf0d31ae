"""rows.js in the browser: replaced blocks face similar lines, and every line shows exactly once, in order."""

from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.browser

BUILD = """([del, ins, before, after]) => {
  const pass = {pieces: [{key: null, inserted: ins, deleted: del, blocks: [{b: 0, a: 0, equal: 0, deleted: del, inserted: ins}]}]};
  const rows = IRTraceRows.buildRows(pass, null, [0, 0], (side, line) => (side ? after : before)[line]);
  return Array.from(rows.b, (b, r) => [b, rows.a[r], rows.kind[r]]);
}"""


@pytest.fixture
def page(open_report):
    return open_report("viewer/crlf").page


def test_an_inserted_line_does_not_shift_the_pairs(page):
    before = ["x = pl.load(a, [0])", "y = pl.add(x, x)", "return y"]
    after = ["if idx == 0:", "    x = pl.load(a, [1])", "    y = pl.add(x, x)", "    return y"]
    rows = page.evaluate(BUILD, [3, 4, before, after])
    assert [(b, a) for b, a, _ in rows] == [(-1, 0), (0, 1), (1, 2), (2, 3)]
    assert [kind for _, _, kind in rows] == [3, 1, 1, 1]  # inserted, then three facing pairs


def test_dissimilar_lines_still_pair_by_position(page):
    rows = page.evaluate(BUILD, [2, 2, ["alpha beta", "gamma delta"], ["one two", "three four"]])
    assert [(b, a, kind) for b, a, kind in rows] == [(0, 0, 1), (1, 1, 1)]


def test_every_line_once_and_in_order_on_random_blocks(page):
    rng = random.Random(3)
    words = ["pl.load", "x", "y", "z", "(", ")", "=", "tile", "0", "1", "add", "mul"]
    for _ in range(40):
        before = [" ".join(rng.choices(words, k=rng.randint(1, 6))) for _ in range(rng.randint(0, 12))]
        after = [" ".join(rng.choices(words, k=rng.randint(1, 6))) for _ in range(rng.randint(0, 12))]
        if not before and not after:
            continue
        rows = page.evaluate(BUILD, [len(before), len(after), before, after])
        assert [b for b, _, _ in rows if b >= 0] == list(range(len(before)))
        assert [a for _, a, _ in rows if a >= 0] == list(range(len(after)))
        for b, a, kind in rows:
            assert kind == (1 if b >= 0 and a >= 0 else 2 if b >= 0 else 3)
