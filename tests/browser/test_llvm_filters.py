"""The LLVM filters in real Chromium, by role and name: "Hide debug info" and "Hide attributes and metadata" change
the diff, the pass list's no-op status, the Changed / No-op filters and the header together, as an oracle computed
from the dump alone says (tests/llvmoracle.py: which passes change something once the dump's lines are filtered);
they stay in the link, and are offered only where a dump has something to hide."""

from __future__ import annotations

import re

import pytest

from dumptools import FIXTURES
from llvmoracle import changes, dumps
from pagetools import pass_ops

pytestmark = pytest.mark.browser

G = "llvm/lz4-renorm-O2-g.txt"
LLC = "llvm/lz4-llc-setstreamdecode-O2-g.txt"
PLAIN = "llvm/lz4-renorm-O2.txt"
DEBUG, METADATA = "Hide debug info", "Hide attributes and metadata"


def _filtered(page, *names):
    """Check the switches named, each waited for: its report is built anew, and says so in the status."""
    for name in names:
        page.get_by_role("checkbox", name=name).check()
        page.get_by_role("status").filter(has_text="Hidden:").wait_for(timeout=30000)
        page.wait_for_function("() => !document.querySelector('#filter-toggles[aria-busy]')")


def _no_ops(page) -> dict[str, bool]:
    """pass label -> whether the list tags it no-op, read from each pass button's accessible name."""
    found = {}
    for name in _passes(page).all_text_contents():
        found[name.split()[0]] = "no-op" in name
    return found


def _passes(page):
    """The pass buttons the list shows (their names start with the pass's label)."""
    return page.get_by_role("navigation", name="Passes").get_by_role("button", name=re.compile(r"^\d+\s"))


def _changed_by_oracle(case: str, hide: tuple[str, ...]) -> dict[str, bool]:
    """pass label -> whether it changes something with those filters, for the passes the oracle compares."""
    found: dict[str, bool] = {}
    for (label, _), differs in changes(FIXTURES / case, hide).items():
        found[str(label)] = found.get(str(label), False) or differs
    return found


@pytest.mark.parametrize(
    ("case", "switches", "hide"),
    [(LLC, (DEBUG,), ("debug",)), (G, (DEBUG, METADATA), ("debug", "metadata"))],
    ids=["llc-debug", "clang-debug-and-metadata"],
)
def test_the_passes_that_change_something_are_those_whose_filtered_dumps_differ(open_report, case, switches, hide):
    page = open_report(case).page
    _filtered(page, *switches)
    listed = _no_ops(page)
    oracle = _changed_by_oracle(case, hide)
    assert oracle and set(oracle) <= set(listed)
    assert {label: not listed[label] for label in oracle} == oracle
    changed = sum(not no_op for no_op in listed.values())
    assert page.locator("#summary").inner_text().startswith(f"{changed} of {len(listed)} passes changed")


def test_a_pass_that_only_moved_debug_info_becomes_a_no_op_and_the_changed_filter_hides_it(open_report):
    page = open_report(LLC, fragment="#pass=111").page  # livedebugvalues: only DBG_VALUE lines change
    heading = page.get_by_role("heading", level=2)
    heading.filter(has_text="livedebugvalues").wait_for()
    assert page.locator("#pass-counts").inner_text() != "no-op"
    before = page.locator("#summary").inner_text()
    _filtered(page, DEBUG)
    heading.filter(has_text="livedebugvalues").wait_for()  # still the pass shown
    assert page.locator("#pass-counts").inner_text() == "no-op"
    assert "changed only what they hide" in page.locator("#notes").inner_text()
    after_count = int(page.locator("#summary").inner_text().split()[0])
    assert after_count < int(before.split()[0])
    page.get_by_role("checkbox", name="No-op").uncheck()  # the list's No-op filter: passes left are changed ones
    shown = _passes(page)
    assert shown.count() == after_count
    assert not any("livedebugvalues" in name for name in shown.all_text_contents())


def test_hidden_debug_info_leaves_the_panes_and_every_line_kept_keeps_its_highlighting(open_report):
    page = open_report(G, fragment="#pass=9").page  # SROAPass: #dbg_value records and !dbg everywhere
    after = page.get_by_role("region", name="After")
    assert after.get_by_text("!dbg").count() > 0 and after.get_by_text("#dbg_").count() > 0
    _filtered(page, DEBUG)
    page.get_by_role("heading", level=2).filter(has_text="SROAPass").wait_for()
    text = after.inner_text()
    assert "!dbg" not in text and "#dbg_" not in text
    assert "!tbaa" in text  # metadata is the other switch's
    assert after.locator(".hl-keyword", has_text="load").count() > 0  # a line cut keeps its highlights, moved
    assert after.locator(".hl-constant", has_text="!tbaa").count() > 0


def test_the_switches_stay_in_the_link_and_a_link_opens_with_them(open_report):
    page = open_report(G, fragment="#pass=3").page
    unfiltered = page.locator("#summary").inner_text()
    _filtered(page, DEBUG, METADATA)
    page.wait_for_function("() => location.hash.includes('hide=debug.metadata')")
    assert "pass=3" in page.evaluate("location.hash")
    summary = page.locator("#summary").inner_text()
    again = open_report(G, fragment="#pass=3&hide=debug.metadata").page
    again.get_by_role("status").filter(has_text="Hidden:").wait_for(timeout=30000)
    assert again.get_by_role("checkbox", name=DEBUG).is_checked()
    assert again.get_by_role("checkbox", name=METADATA).is_checked()
    assert again.locator("#summary").inner_text() == summary
    again.get_by_role("checkbox", name=DEBUG).uncheck()
    again.get_by_role("status").filter(has_text="Hidden: attributes and metadata").wait_for(timeout=30000)
    again.get_by_role("checkbox", name=METADATA).uncheck()  # the unfiltered report: back at once
    again.get_by_role("status").filter(has_text="Nothing hidden").wait_for()
    assert again.get_by_role("checkbox", name=METADATA).evaluate("box => box === document.activeElement")
    again.wait_for_function("() => !location.hash.includes('hide=') && location.hash.includes('pass=3')")
    assert again.locator("#summary").inner_text() == unfiltered


def test_only_the_switches_a_dump_has_content_for_are_offered(open_report):
    page = open_report(PLAIN).page  # no -g: metadata, but no debug info
    assert page.get_by_role("checkbox", name=METADATA).is_visible()
    assert page.get_by_role("checkbox", name=DEBUG).count() == 0
    assert page.get_by_role("group", name="What to hide").is_visible()
    mlir = open_report("mlir/multi_func/tree_dir").page
    assert mlir.get_by_role("group", name="What to hide").count() == 0  # hidden: no switch to offer
    assert mlir.get_by_role("checkbox", name=METADATA).count() == 0


def test_compare_with_and_ignore_renumbering_read_the_filtered_texts(open_report):
    page = open_report(G, fragment="#pass=9").page
    _filtered(page, DEBUG)
    page.get_by_role("combobox", name="Compare with").select_option(label="1 Annotation2MetadataPass")
    page.locator("#pass-counts").filter(has_text="since").wait_for()
    after = page.get_by_role("region", name="After")
    assert "getelementptr" in after.inner_text() and "#dbg_" not in after.inner_text()
    page.get_by_role("combobox", name="Compare with").select_option(index=0)
    # AssignmentTrackingPass adds debug records, hidden; the !tbaa numbers they moved in the module's print are
    # named as the dump before names them (formats/llvm/metadata.py): nothing is left
    _passes(page).filter(has_text="AssignmentTrackingPass").click()
    counts = page.locator("#pass-counts")
    assert counts.inner_text() == "no-op"
    # InstCombinePass with debug info hidden: most of its changed lines are values renumbered
    _passes(page).filter(has_text=re.compile(r"^16 InstCombinePass")).click()
    changed = re.fullmatch(r"\+(\d+) \u2212(\d+)", counts.inner_text())
    assert changed and changed[1] == changed[2] != "0"
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    # the renamed pairs proven at build time that the filter keeps; a line renamed only once its !DIAssignID is
    # cut out was never proven a renaming, and stays changed
    renamed = re.fullmatch(r"\+(\d+) \u2212(\d+), (\d+) renamed", counts.inner_text())
    assert renamed and int(renamed[3]) > 0 and int(renamed[1]) + int(renamed[3]) == int(changed[1])


def test_the_map_counts_the_filtered_passes(open_report):
    def map_of(fragment):
        page = open_report(G, fragment=fragment).page
        if "hide=" in fragment:
            page.get_by_role("status").filter(has_text="Hidden:").wait_for(timeout=30000)
        grid = page.get_by_role("grid", name="Pipeline map")
        cell = grid.get_by_role("gridcell", name=re.compile(r"^3 AssignmentTrackingPass, LZ4_renormDictT, "))
        row = grid.get_by_role("rowheader", name=re.compile(r"^LZ4_renormDictT, "))
        return cell.get_attribute("aria-label"), int(
            row.get_attribute("aria-label").split(", ")[1].split()[0].replace(",", "")
        )

    cell, total = map_of("#pass=3&map=1")
    assert not cell.startswith("3 AssignmentTrackingPass, LZ4_renormDictT, +0 \u22120")
    cell, filtered_total = map_of("#pass=3&map=1&hide=debug.metadata")  # the map opens on the viewer built again
    assert cell.startswith("3 AssignmentTrackingPass, LZ4_renormDictT, +0 \u22120")
    assert 0 < filtered_total < total


def test_search_counts_the_lines_shown(open_report):
    page = open_report(G, fragment="#pass=9").page
    box = page.get_by_role("searchbox", name="Search all passes")
    box.fill("#dbg_value")
    summary = page.locator("#search-summary")
    summary.filter(has_text="Lines match").wait_for()
    _filtered(page, DEBUG)  # the search is carried to the viewer built again, and run on the filtered texts
    summary.filter(has_text="No line matches in any snapshot").wait_for()
    assert box.input_value() == "#dbg_value"


def test_the_op_counts_leave_out_the_ops_of_the_lines_hidden(open_report):
    """x86-isel emits DBG_VALUE instructions beside the code: with debug info hidden its op counts are the
    code's alone; virtregrewriter's only op change is 4 DBG_VALUE, so with them hidden it counts none."""
    body = dumps(FIXTURES / LLC)[30][1]  # dump 31, x86-isel: the first machine code of its function
    page = open_report(LLC, fragment="#pass=31").page
    heading = page.get_by_role("heading", level=2)
    heading.filter(has_text="x86-isel").wait_for()
    shown = pass_ops(page)
    assert shown["DBG_VALUE"] == sum(line.lstrip().startswith("DBG_VALUE ") for line in body) > 0
    _filtered(page, DEBUG)
    heading.filter(has_text="x86-isel").wait_for()
    assert pass_ops(page) == {op: n for op, n in shown.items() if not op.startswith("DBG_")}
    _passes(page).filter(has_text="virtregrewriter").click()
    heading.filter(has_text="virtregrewriter").wait_for()
    assert pass_ops(page) == {}
    page.get_by_role("checkbox", name=DEBUG).uncheck()
    page.get_by_role("status").filter(has_text="Nothing hidden").wait_for()
    assert pass_ops(page) == {"DBG_VALUE": 4}
