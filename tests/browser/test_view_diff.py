"""The panes show exactly the diff of the pair on screen (issue 9): any pass against any snapshot, a change on
line 1, and the counts beside the heading are the shown diff's."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_compare_any import python_counts

from pypto_ir_trace import cli, render
from test_properties import PROFILE

pytestmark = pytest.mark.browser

FUNCTIONS = "viewer/functions"
EXPLICIT = "real/advanced_01_split_k_explicit"  # its pass 02 (UnrollLoops) is a no-op

# Every row of both panes, in order, after "Expand all" (the views here fit in the rendered window).
VIEW = """() => {
  const expand = document.getElementById("expand-all");
  if (!expand.disabled) expand.click();
  const rows = side => Array.from(document.querySelectorAll(`#${side} .row`), row => ({
    kind: ["eq", "del", "ins", "filler", "fold-row"].find(k => row.classList.contains(k)),
    ln: row.querySelector(".ln") ? row.querySelector(".ln").textContent : null,
    code: row.querySelector(".code") ? row.querySelector(".code").textContent : null,
  }));
  return {counts: document.getElementById("pass-counts").textContent, before: rows("scroll-before"), after: rows("scroll-after")};
}"""

# The same for each [pass index, base snapshot or null] pair, picked through the pass list and "Compare with".
VIEWS = f"""(pairs) => {{
  const buttons = Array.from(document.querySelectorAll('nav[aria-label="Passes"] button'));
  const base = document.querySelector('select[aria-label="Compare with"]');
  return pairs.map(([p, s]) => {{
    base.value = s === null ? "" : String(s);
    base.dispatchEvent(new Event("change"));
    buttons[p].click();
    return ({VIEW})();
  }});
}}"""


def check_view(view: dict, before: list[str], after: list[str], expected: tuple[int, int] | None) -> None:
    """The rows rebuild both texts, face equal lines with equal lines, and count what the heading says."""
    assert len(view["before"]) == len(view["after"])
    assert "fold-row" not in {row["kind"] for row in view["before"] + view["after"]}
    for side, text in (("before", before), ("after", after)):
        lines = [row for row in view[side] if row["kind"] != "filler"]
        assert [row["code"] for row in lines] == text, side
        assert [row["ln"] for row in lines] == [str(n) for n in range(1, len(text) + 1)], side
    for b, a in zip(view["before"], view["after"]):
        assert (b["kind"] == "eq") == (a["kind"] == "eq")
        if b["kind"] == "eq":
            assert b["code"] == a["code"]
    deleted = sum(row["kind"] == "del" for row in view["before"])
    inserted = sum(row["kind"] == "ins" for row in view["after"])
    if view["counts"] == "no-op":
        assert before == after and (inserted, deleted) == (0, 0)
    else:
        assert re.match(rf"\+{inserted} −{deleted}\b", view["counts"]), (view["counts"], inserted, deleted)
    if before == after:
        assert (inserted, deleted) == (0, 0)  # identical texts: not one changed row
    if expected is not None:
        assert (inserted, deleted) == expected


def lines_of(text: str) -> list[str]:
    return text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") if text else []


# ---- 1. any pass against any snapshot --------------------------------------------------------------

VOCABULARY = [
    "# pypto.program: demo",
    "import pypto.language as pl",
    "",
    "@pl.program",
    "class demo:",
    "    @pl.function(type=pl.FunctionType.InCore)",
    "    def kernel(self, x):",
    "    def main(self, x):",
    "        y = pl.tile.load(x, [0], [64])",
    "        z = self.kernel(y)",
    "        return y",
    "        return z",
    "def helper(x):",
    "    return x",
    "x = 1  # \U0001d523 outside the BMP",
    "    if x:",
]
texts = st.lists(st.sampled_from(VOCABULARY), max_size=18).map(lambda lines: "".join(line + "\n" for line in lines))
# Snapshots drawn from a small pool, so that no-op passes and equal non-adjacent snapshots are common.
dumps = st.lists(texts, min_size=1, max_size=3, unique=True).flatmap(
    lambda pool: st.lists(st.sampled_from(pool), min_size=2, max_size=5)
)


@settings(PROFILE, max_examples=max(8, PROFILE.max_examples // 3))
@given(dumps)
def test_every_pass_against_every_snapshot_shows_exactly_their_diff(browser, snapshots):
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        dump = root / "passes_dump"
        dump.mkdir()
        names = ["00_frontend.py"] + [f"{k:02d}_after_Step{k}.py" for k in range(1, len(snapshots))]
        for name, text in zip(names, snapshots):
            (dump / name).write_text(text, encoding="utf-8")
        output = root / "report.html"
        assert cli.main([str(dump), "-o", str(output)]) == 0
        raw = render.decode_data(output.read_text(encoding="utf-8"))
        context = browser.new_context()
        try:
            page = context.new_page()
            problems = []
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto(output.as_uri())
            page.wait_for_selector("body[data-ready='true']", state="attached")
            passes = len(snapshots) - 1
            pairs = [[p, s] for p in range(passes) for s in [None, *range(passes + 1)]]
            views = page.evaluate(VIEWS, pairs)
        finally:
            context.close()
    assert problems == []
    data = {**raw, **raw["pipelines"][0]}
    text_of = [0] + [entry["after"] for entry in data["passes"]]  # snapshot -> text index
    for (p, s), view in zip(pairs, views, strict=True):
        base = p if s is None else s
        ins, deleted, _ = python_counts(data, text_of[base], text_of[p + 1])
        check_view(view, lines_of(snapshots[base]), lines_of(snapshots[p + 1]), (ins, deleted))


@pytest.mark.parametrize(
    "case, fragment, base, after",
    [
        (FUNCTIONS, "#pass=04&base=04", "04_after_ConvertToSSA.py", "04_after_ConvertToSSA.py"),  # the pass with itself
        (
            EXPLICIT,
            "#pass=01&base=02",
            "02_after_UnrollLoops.py",
            "01_after_InlineFunctions.py",
        ),  # 02 printed 01's text
        (EXPLICIT, "#pass=02&base=01", "01_after_InlineFunctions.py", "02_after_UnrollLoops.py"),
    ],
)
def test_comparing_with_a_snapshot_of_the_same_text_changes_nothing(open_report, case, fragment, base, after):
    page = open_report(case, fragment=fragment).page
    assert page.locator("#pass-counts").inner_text() == f"+0 −0 since {base}"
    dump = Path(__file__).resolve().parents[2] / "fixtures" / case / "passes_dump"
    text = lines_of((dump / after).read_text(encoding="utf-8"))
    assert text == lines_of((dump / base).read_text(encoding="utf-8"))
    for side in ("Before", "After"):  # scrolled through: every line there, none changed
        scroller = page.get_by_role("region", name=side).locator(".scroller")
        seen = {}
        for top in range(0, 20 * len(text) + 1, 400):
            scroller.evaluate("(node, top) => { node.scrollTop = top; }", top)
            page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => resolve()))")
            rows = scroller.locator(".row")
            assert scroller.locator(".row.del, .row.ins, .row.filler, .row.fold-row").count() == 0, side
            for ln, code in zip(
                rows.locator(".ln").all_inner_texts(),
                rows.locator(".code").evaluate_all("nodes => nodes.map(node => node.textContent)"),
            ):
                seen[int(ln)] = code
        assert [seen.get(n) for n in range(1, len(text) + 1)] == text, side


# ---- 2. a change on line 1 ----------------------------------------------------------------------------


def test_a_change_on_line_one_is_one_replaced_row(open_report, tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    (dump / "00_frontend.py").write_text("old\na\n")
    (dump / "01_after_Rename.py").write_text("new\na\n")
    page = open_report(str(tmp_path)).page
    view = page.evaluate(VIEW)
    assert view["counts"] == "+1 −1"
    assert view["before"] == [{"kind": "del", "ln": "1", "code": "old"}, {"kind": "eq", "ln": "2", "code": "a"}]
    assert view["after"] == [{"kind": "ins", "ln": "1", "code": "new"}, {"kind": "eq", "ln": "2", "code": "a"}]


def test_first_line_changes_get_word_marks_and_folds_work_at_the_start(open_report, tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    tail = "".join(f"line_{n} = {n}\n" for n in range(12))
    (dump / "00_frontend.py").write_text("y = old(x)\n" + tail)
    (dump / "01_after_Rename.py").write_text("y = new(x)\n" + tail)
    (dump / "02_after_Last.py").write_text("y = new(x)\n" + tail + "z = 1\n")
    page = open_report(str(tmp_path)).page
    before, after = page.get_by_role("region", name="Before"), page.get_by_role("region", name="After")
    first = before.locator(".row").first
    assert first.locator(".ln").inner_text() == "1" and first.locator("del").all_inner_texts() == ["old"]
    assert after.locator(".row").first.locator("ins").all_inner_texts() == ["new"]
    assert before.locator(".row.del").count() == 1 and after.locator(".row.ins").count() == 1
    # Context 3 after the change, then the rest folded.
    assert before.get_by_role("button", name=re.compile("9 unchanged lines")).count() == 1
    # A change at the end: the unchanged lines at the file's start fold, and open.
    page.get_by_role("navigation", name="Passes").get_by_role("button", name=re.compile("02")).click()
    fold = before.get_by_role("button", name=re.compile("10 unchanged lines"))
    assert "fold-row" in before.locator(".row").first.get_attribute("class")
    fold.click()
    numbers = [n for n in after.locator(".ln").all_inner_texts() if n.strip()]
    assert numbers == [str(n) for n in range(1, 15)]


# ---- 3. the counts beside the heading ----------------------------------------------------------------


def test_the_counts_beside_the_heading_follow_the_picked_function(open_report, report):
    raw = render.decode_data(report(FUNCTIONS).read_text(encoding="utf-8"))
    entry = next(p for p in raw["pipelines"][0]["passes"] if len(p.get("byRegion", {})) > 1)
    page = open_report(FUNCTIONS, fragment=f"#pass={entry['label']}").page
    assert page.evaluate(VIEW)["counts"] == f"+{entry['inserted']} −{entry['deleted']}"
    function = page.get_by_role("combobox", name="Function")
    for key, (ins, deleted) in entry["byRegion"].items():
        assert (ins, deleted) != (entry["inserted"], entry["deleted"])  # else the test could not tell them apart
        function.select_option(key)
        view = page.evaluate(VIEW)
        assert view["counts"] == f"+{ins} −{deleted}", key
        shown = (
            sum(row["kind"] == "ins" for row in view["after"]),
            sum(row["kind"] == "del" for row in view["before"]),
        )
        assert shown == (ins, deleted), key
    # Compared with another snapshot, the function's counts are those of the compared pair.
    page.get_by_role("combobox", name="Compare with").select_option(label="00 frontend")
    view = page.evaluate(VIEW)
    shown = (sum(row["kind"] == "ins" for row in view["after"]), sum(row["kind"] == "del" for row in view["before"]))
    assert view["counts"].startswith(f"+{shown[0]} −{shown[1]} since 00_frontend.py")
    function.select_option("")
    assert page.locator("#pass-counts").inner_text().startswith("+")
