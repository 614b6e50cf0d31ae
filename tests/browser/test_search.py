"""Search in the page (issue 9): empty matches count, and no pattern can hang the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FUNCTIONS = "viewer/functions"
FLASH = "real/models_03_flash_attention_concise"  # long lowercase runs: /([a-z_]+[a-z_]+)+#/ backtracks for minutes
STOPPED = re.compile(
    r"This pattern took longer than \d+ s on the [\d,]+ distinct lines of this report and was stopped\."
)
SUMMARY = "#search-summary"


def searchbox(page):
    return page.get_by_role("searchbox", name="Search all passes")


def badges(page) -> dict[str, str]:
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    return {button.inner_text().split()[0]: button.locator(".hits").inner_text() for button in buttons.all()}


def expected_badges(dump: Path, pattern: str) -> dict[str, str]:
    """The pass list's badges for a pattern, from the files: ▲/▼ where a pass changes the count."""
    files = sorted(dump.glob("*.py"))
    count = [
        sum(1 for line in f.read_text(encoding="utf-8").split("\n")[:-1] if re.search(pattern, line)) for f in files
    ]
    return {
        f.name[:2]: ("\u25b2" if now > was else "\u25bc" if now < was else "") + str(now)
        for f, was, now in zip(files[1:], count, count[1:])
    }


def search(page, query: str) -> str:
    """The summary of a search, once it is the summary of this one (Escape clears the previous one)."""
    searchbox(page).press("Escape")
    searchbox(page).fill(query)
    page.wait_for_function(
        "() => /^(Lines match|No line matches|This pattern|Not a)/.test(document.querySelector('#search-summary').textContent)"
    )
    return page.locator(SUMMARY).inner_text()


@pytest.mark.parametrize("pattern", [r"^$", r"^\s*$", r"^(?=\s*return)"])
def test_patterns_whose_matches_are_empty_find_their_lines(open_report, pattern):
    page = open_report(FUNCTIONS).page
    summary = search(page, f"/{pattern}/")
    assert summary.startswith("Lines match in ")
    assert badges(page) == expected_badges(FIXTURES / FUNCTIONS / "passes_dump", pattern)
    after = page.get_by_role("region", name="After")
    rows = after.locator(".row.eq, .row.ins")  # lines, not fillers or folds
    texts = rows.locator(".code").evaluate_all("nodes => nodes.map(node => node.textContent)")
    markers = [row.get_by_role("img", name="empty search match").count() for row in rows.all()]
    # Each matching line on screen carries the marker, and only those; an empty match is never a <mark>.
    assert markers == [1 if re.search(pattern, text) else 0 for text in texts]
    assert sum(markers) > 0 and after.locator("mark").count() == 0


def test_empty_matches_beside_characters_outside_the_bmp_end(open_report, tmp_path):
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    (dump / "00_frontend.py").write_text("x = '\U0001d523'\n\U0001d523\n", encoding="utf-8")
    (dump / "01_after_Add.py").write_text("x = '\U0001d523'\n\U0001d523\ny = 'x\U0001d523x'\n", encoding="utf-8")
    page = open_report(str(tmp_path)).page
    after = page.get_by_role("region", name="After")
    # After: x = '𝔣' / 𝔣 / y = 'x𝔣x'; the middle line has only empty matches, and says so with a marker.
    for query, marks, markers in (
        ("/\\w*/u", ["x", "y", "x", "x"], 1),
        ("/x?/u", ["x", "x", "x"], 1),
        ("/(?:)/v", [], 3),
    ):
        assert search(page, query) == "Lines match in 2 of 2 snapshots; first in 00_frontend.py; 3 in the last."
        assert badges(page) == {"01": "\u25b23"}
        assert after.locator("mark").all_inner_texts() == marks, query
        assert after.get_by_role("img", name="empty search match").count() == markers, query


def test_a_pattern_that_backtracks_is_stopped_and_the_page_stays_responsive(open_report):
    page = open_report(FLASH).page
    box = searchbox(page)
    box.fill("/([a-z_]+[a-z_]+)+#/")
    summary = page.locator(SUMMARY)
    page.wait_for_function("() => document.querySelector('#search-summary').textContent === 'Searching\u2026'")
    # Typing goes on while the worker grinds: each key lands and the summary still says the search runs.
    box.press("End")
    box.press("ArrowLeft")
    box.press_sequentially("#")
    assert box.input_value() == "/([a-z_]+[a-z_]+)+##/"
    assert summary.inner_text() in ("", "Searching\u2026")
    page.keyboard.press("Tab")  # and the page answers its keys
    page.keyboard.press("j")
    page.wait_for_function(
        "() => /took longer/.test(document.querySelector('#search-summary').textContent)", timeout=15000
    )
    assert STOPPED.fullmatch(summary.inner_text())
    assert box.get_attribute("aria-invalid") == "false"
    assert page.get_by_role("navigation", name="Passes").locator(".hits").count() == 0
    # A fresh worker takes the next search.
    assert search(page, "tile.move").startswith("Lines match in ")
    assert page.get_by_role("navigation", name="Passes").locator(".hits").count() > 0


def test_a_line_with_thousands_of_matches_marks_its_first_ones_and_counts_the_rest(open_report, tmp_path):
    """A dense constant matches a common character on every other column: painting 300,000 marks froze the
    page for a minute. A line marks its first 500 and says how many more it holds."""
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    dense = "x = '" + "a," * 2000 + "'\n"
    (dump / "00_frontend.py").write_text("y = 1\n", encoding="utf-8")
    (dump / "01_after_Add.py").write_text("y = 1\n" + dense, encoding="utf-8")
    page = open_report(str(tmp_path)).page
    after = page.get_by_role("region", name="After")
    assert search(page, "a").startswith("Lines match in 1 of 2 snapshots")
    assert badges(page) == {"01": "\u25b21"}  # the line counts once, however many matches it holds
    assert after.locator("mark").count() == 500
    assert after.get_by_role("img", name="1,500 more search matches on this line, not marked").count() == 1


def test_a_long_line_shows_its_start_and_the_rest_when_asked(open_report, tmp_path):
    """A 5 MB line took the browser seconds to lay out at every paint: a line shows its first 20,000 characters
    and a button for the rest, which lays it out whole when pressed."""
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    long = "c = '" + "0123456789" * 3000 + "'"  # 30,006 characters
    (dump / "00_frontend.py").write_text(long + "\ny = 1\n", encoding="utf-8")
    (dump / "01_after_Add.py").write_text(long + "\ny = 2\n", encoding="utf-8")
    page = open_report(str(tmp_path)).page
    after = page.get_by_role("region", name="After")
    rest = after.get_by_role("button", name="\u2026 10,006 more characters")
    assert rest.count() == 1
    shown = rest.evaluate("button => button.parentElement.textContent.length - button.textContent.length")
    assert shown == 20_000
    rest.click()
    expect_text = "0123456789" * 3000
    page.wait_for_function(
        "text => [...document.querySelectorAll('#scroll-after .code')].some(c => c.textContent.includes(text))",
        arg=expect_text,
    )
    assert after.get_by_role("button", name="\u2026 10,006 more characters").count() == 0


def test_a_search_whose_only_match_is_folded_opens_the_fold_and_shows_the_match(open_report, real_dumps):
    """Issue 31: qwen3 EXPLICIT pass 47 opens at line 610; its only line with row_sum(t__tile, tmp_tile) is line 266,
    inside a fold. Typing the search opens that fold and brings the match on screen, at column 0."""
    page = open_report(
        str(real_dumps / "models_qwen3_decode_explicit/passes_dump"), viewport=(1400, 900), fragment="#pass=47"
    ).page
    assert page.get_by_role("region", name="After").get_by_role("button", name=re.compile("Line 266")).count() == 0
    searchbox(page).fill("row_sum(t__tile, tmp_tile)")
    after = page.get_by_role("region", name="After")
    mark = after.locator("mark").first
    mark.wait_for()
    box, at = after.locator(".scroller").bounding_box(), mark.bounding_box()
    assert box["x"] <= at["x"] and at["x"] + at["width"] <= box["x"] + box["width"]
    assert box["y"] <= at["y"] and at["y"] + at["height"] <= box["y"] + box["height"]
    row = after.locator(".rows > .row").filter(has=page.locator("mark"))
    assert row.locator(".ln").inner_text() == "266"
    assert after.locator(".scroller").evaluate("s => s.scrollLeft") == 0
