"""One diff, one answer, in the page: the page's linediff.js and compare.js, loaded as the page loads them,
return what linediff.py and compare.py return on real snapshot pairs, and the model's compare rebuilds texts.

The generated cases (every shape of line list and of regions, Hypothesis) run under Node, without a browser:
tests/test_diff_node.py, on the cases of tests/diffcases.py, which these checks share.
"""

from __future__ import annotations

import pytest

from diffcases import REAL_NAMES, check_passes, real_pair_cases, text_of
from modeltools import blocks, text_ids
from pagetools import pure_page
from pypto_ir_trace import linediff, render

pytestmark = pytest.mark.browser

PASS = """cases => cases.map(([bIds, bText, aIds, aText, limits]) =>
  IRTraceCompare.compareIds(bIds, bText, aIds, aText, limits))"""


@pytest.fixture(scope="module")
def page(browser, pure_scripts):
    """A blank page holding only the diff modules, inlined: it needs no network and no report."""
    with pure_page(browser, pure_scripts, "diff agreement") as page:
        yield page


def in_page(page):
    return lambda cases: page.evaluate(PASS, cases)


@pytest.mark.parametrize("name", REAL_NAMES)
def test_real_snapshot_pairs_agree(page, name):
    results = check_passes(in_page(page), real_pair_cases(name))
    assert any(result["inserted"] or result["deleted"] for result in results)


# ---- issue 9: the whole comparison, through the model's compare ----------------------------------------------------


def test_a_changed_first_line_is_one_replaced_block_in_the_page(page):
    """old/a -> new/a: one block deleting one line and inserting one at line 0, as on any other line."""
    for b_ids, a_ids, line in [([1, 2], [3, 2], 0), ([2, 1], [2, 3], 1), ([1], [3], 0)]:
        for untrusted in (False, True):
            b_text, a_text = text_of([], untrusted)[1], text_of([], False)[1]
            case = [b_ids, b_text, a_ids, a_text, linediff.LIMITS]
            (got,) = check_passes(in_page(page), [case])
            changed = [
                (b + eq, a + eq, d, i)
                for piece in got["pieces"]
                for b, a, eq, d, i in blocks(piece["segments"])
                if d or i
            ]
            assert changed == [(line, line, 1, 1)]


COMPARE_TEXTS = """([data, pairs]) => {
  const pipeline = IRTraceModel.read(data).pipelines[0];
  return pairs.map(([tb, ta]) => {
    const result = pipeline.compare(tb, ta);
    const rebuilt = Array.from(IRTraceModel.applyPass(pipeline.ids(tb), result));
    const pieces = result.pieces.map(piece => ({ key: piece.key, blocks: piece.blocks }));
    return [{ before: result.before, after: result.after, inserted: result.inserted, deleted: result.deleted,
              insertedIds: Array.from(result.insertedIds), byRegion: Object.fromEntries(result.byRegion), pieces },
            rebuilt, Array.from(pipeline.ids(ta))];
  });
}"""


def test_an_identical_text_compares_to_no_change(page, report):
    """The same text index, or two indices holding equal texts: zero counts, all-equal pieces that rebuild it."""
    raw = render.decode_data(report("real/models_03_flash_attention_concise").read_text(encoding="utf-8"))
    data = {**raw, **raw["pipelines"][0]}
    last = len(data["texts"]) - 1
    copy = dict(data["texts"][last], ids=text_ids(data, last))
    copy.pop("producedBy", None)
    data["texts"].append(copy)  # a second index whose text equals the last one's (data["texts"] is the pipeline's)
    untrusted = dict(copy, untrusted="test")
    data["texts"].append(untrusted)
    copy_at, untrusted_at = last + 1, last + 2
    pairs = [[0, 0], [last, last], [last, copy_at], [copy_at, last], [untrusted_at, last], [untrusted_at, untrusted_at]]
    for (tb, ta), (result, rebuilt, target) in zip(pairs, page.evaluate(COMPARE_TEXTS, [raw, pairs]), strict=True):
        assert (result["before"], result["after"]) == (tb, ta)
        assert (result["inserted"], result["deleted"], result["byRegion"], result["insertedIds"]) == (0, 0, {}, []), (
            tb,
            ta,
        )
        assert rebuilt == target
        assert result["pieces"], (tb, ta)
        assert all(
            not block["deleted"] and not block["inserted"] for piece in result["pieces"] for block in piece["blocks"]
        )
        if "untrusted" not in data["texts"][tb]:  # every function has its own all-equal piece
            keys = [piece["key"] for piece in result["pieces"] if piece["key"] is not None]
            assert keys == [region["key"] for region in data["texts"][ta]["regions"]]


def test_the_page_has_no_limits_of_its_own(page):
    """Without the report's limits the page refuses to diff rather than use limits that could disagree."""
    error = page.evaluate("""() => {
      try { IRTraceLinediff.diff([1], [2], undefined); return null; } catch (err) { return err.name; }
    }""")
    assert error == "TypeError"
