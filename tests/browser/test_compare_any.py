"""Comparing any two snapshots in the browser (static/compare.js) agrees with the Python pass diff."""

from __future__ import annotations

import re

import pytest

from pypto_ir_trace import compare, render, structure

pytestmark = pytest.mark.browser

FLASH = "real/models_03_flash_attention_concise"

CHECK = """([data, pairs]) => {
  const pipeline = IRTraceModel.read(data).pipelines[0];
  return pairs.map(([tb, ta]) => {
    const result = pipeline.compare(tb, ta);
    const rebuilt = result.pieces ? Array.from(IRTraceModel.applyPass(pipeline.ids(tb), result)) : Array.from(pipeline.ids(tb));
    const exact = rebuilt.length === pipeline.ids(ta).length && rebuilt.every((id, i) => id === pipeline.ids(ta)[i]);
    const regions = Object.fromEntries(Array.from(result.byRegion, ([key, counts]) => [key, [counts.inserted, counts.deleted]]));
    return [exact, result.inserted, result.deleted, regions];
  });
}"""


def python_counts(data, tb, ta):
    """The same comparison through compare.py, from the model's own texts and regions."""
    from modeltools import text_ids

    def structure_of(t):
        entry = data["texts"][t]
        regions = tuple(
            structure.Region(r["key"], r["kind"], r["start"], r["end"], r["start"], r.get("error"))
            for r in entry["regions"]
        )
        return structure.Structure(regions, "untrusted" not in entry, entry.get("untrusted"))

    result = compare.diff_pass(text_ids(data, tb), structure_of(tb), text_ids(data, ta), structure_of(ta))
    return result.inserted, result.deleted, {k: list(v) for k, v in result.by_region.items()}


def test_any_two_snapshots_rebuild_exactly_and_count_like_python(open_report, report):
    raw = render.decode_data(report(FLASH).read_text(encoding="utf-8"))
    data = {**raw, **raw["pipelines"][0]}
    last = len(data["texts"]) - 1
    pairs = [[0, t] for t in range(1, last + 1)] + [[t, last] for t in range(last)] + [[last, 0], [3, 3]]
    page = open_report(FLASH).page
    for (tb, ta), (exact, ins, deleted, regions) in zip(pairs, page.evaluate(CHECK, [raw, pairs])):
        assert exact, (tb, ta)
        assert (ins, deleted, regions) == python_counts(data, tb, ta), (tb, ta)


def test_compare_with_the_frontend_and_back(open_report):
    page = open_report(FLASH).page
    base = page.get_by_role("combobox", name="Compare with")
    assert base.input_value() == ""
    page.get_by_role("navigation", name="Passes").get_by_role("button").last.click()
    base.select_option(label="00 frontend")
    counts = page.locator("#pass-counts")
    assert re.fullmatch(r"\+\d+ −\d+ since 00_frontend\.py", counts.inner_text())
    assert page.locator("#before-file").inner_text() == "00_frontend.py"
    assert "the changes of passes 01–34" in page.locator("#notes").inner_text()
    page.wait_for_function("() => location.hash.includes('base=00')")  # written once the reader pauses
    page.keyboard.press("k")  # stepping keeps the base: each pass against the frontend
    assert page.locator("#pass-counts").inner_text().endswith("since 00_frontend.py")
    assert page.locator("#after-file").inner_text() == "33_after_MaterializeSemanticAliases.py"
    base.select_option("")
    assert "since" not in page.locator("#pass-counts").inner_text()
    assert page.locator("#before-file").inner_text() == "32_after_InitMemRef.py"
