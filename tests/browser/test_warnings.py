"""The warnings panel (issue 9): a long log is built as it scrolls into view, and a warning that names a line
the snapshot does not have says so instead of offering a button that does nothing."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

PROGRAM = "".join(f"x_{n} = {n}\n" for n in range(30))


def write(tmp_path, files: dict[str, str]) -> str:
    dump = tmp_path / "passes_dump"
    dump.mkdir()
    for name, text in files.items():
        (dump / name).write_text(text, encoding="utf-8")
    return str(tmp_path)


def warnings_region(page):
    return page.get_by_role("region", name="Warnings")


def test_a_warning_past_the_end_of_the_snapshot_says_so(open_report, tmp_path):
    huge = "99999999999999999999"  # more than the page's numbers hold exactly
    log = (
        "01_after_Edit.py:999:1: warning: far past the end\n01_after_Edit.py:2:1: warning: on the last line\n"
        f"01_after_Edit.py:{huge}:1: warning: huge\n"
    )
    page = open_report(
        write(
            tmp_path,
            {
                "00_frontend.py": "a\nb\n",
                "01_after_Edit.py": "a\nc\n",
                "01_after_Edit.log": log,
            },
        )
    ).page
    panel = warnings_region(page)
    assert panel.get_by_role("button").all_inner_texts() == ["01_after_Edit.py:2:1: warning: on the last line"]
    text = panel.locator("pre").inner_text()
    assert (
        "01_after_Edit.py:999:1: warning: far past the end \u2014 line 999 is not in 01_after_Edit.py (2 lines)" in text
    )
    assert f"{huge}:1: warning: huge \u2014 that line is not in 01_after_Edit.py (2 lines)" in text
    assert "100000000000000000000" not in text
    panel.get_by_role("button", name=re.compile("on the last line")).click()
    assert page.get_by_role("region", name="After").locator(".row.warned .ln").all_inner_texts() == ["2"]


def test_a_long_log_is_built_as_it_scrolls(open_report, tmp_path):
    lines = [f"note {k}: nothing to see" for k in range(5000)]
    lines[4990] = "01_after_Edit.py:25:1: warning: near the end of the log"
    log = "\n".join(lines) + "\n"
    page = open_report(
        write(
            tmp_path,
            {
                "00_frontend.py": PROGRAM,
                "01_after_Edit.py": PROGRAM.replace("x_5 =", "y_5 ="),
                "01_after_Edit.log": log,
                "02_after_Same.py": PROGRAM.replace("x_5 =", "y_5 ="),
                "02_after_Same.log": "just one line\n",
            },
        ),
        fragment="#pass=01",
    ).page
    panel, pre = warnings_region(page), warnings_region(page).locator("pre")
    built = pre.evaluate("node => node.textContent.split('\\n').length")
    assert built < len(lines) // 10  # a pass switch builds the start of the log, not all of it
    for _ in range(200):  # scrolled to the end, the rest follows
        panel.evaluate("node => { node.scrollTop = node.scrollHeight; }")
        page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))")
        if pre.evaluate("node => node.textContent") == log:
            break
    assert pre.evaluate("node => node.textContent") == log
    panel.get_by_role("button", name="01_after_Edit.py:25:1: warning: near the end of the log").click()
    assert page.get_by_role("region", name="After").locator(".row.warned .ln").all_inner_texts() == ["25"]
    # Another pass starts its own log from the top, and coming back starts this one afresh.
    page.keyboard.press("j")
    assert pre.evaluate("node => node.textContent") == "just one line\n"
    page.keyboard.press("k")
    assert pre.evaluate("node => node.textContent.split('\\n').length") == built


def test_errors_are_named_and_counted_apart_from_warnings(open_report, tmp_path):
    """A log's `error:` lines make the pass one with errors: in the header, the pass list and the panel."""
    page = open_report(
        write(
            tmp_path,
            {
                "00_frontend.py": "a\nb\n",
                "01_after_Warn.py": "a\nc\n",
                "01_after_Warn.log": "01_after_Warn.py:2:1: warning: odd\n",
                "02_after_Fail.py": "a\nd\n",
                "02_after_Fail.log": "02_after_Fail.py:2:1: error: bad\n  detail\n02_after_Fail.py:1:1: warning: meh\n",
            },
        )
    ).page
    assert page.locator("#summary").inner_text() == (
        "2 of 2 passes changed the IR \u00b7 1 with errors \u00b7 1 with warnings"
    )
    passes = page.get_by_role("navigation", name="Passes")
    assert (
        passes.get_by_role("button", name=re.compile("^01")).get_by_role("img").get_attribute("aria-label") == "warning"
    )
    failing = passes.get_by_role("button", name=re.compile("^02"))
    assert failing.get_by_role("img").get_attribute("aria-label") == "error"
    failing.click()
    panel = page.get_by_role("region", name="Errors")
    assert panel.get_by_role("heading").inner_text() == "1 error emitted by this pass"
    assert panel.locator(".log-error").all_inner_texts() == ["02_after_Fail.py:2:1: error: bad\n"]
    assert not warnings_region(page).is_visible()
    passes.get_by_role("button", name=re.compile("^01")).click()
    assert warnings_region(page).get_by_role("heading").inner_text() == "Warnings emitted by this pass"
    assert warnings_region(page).locator(".log-error").count() == 0


def test_an_mlir_error_diagnostic_is_an_error(open_report):
    page = open_report("mlir/failing_bufferize/stream.txt").page
    page.get_by_role("navigation", name="Passes").get_by_role(
        "button", name=re.compile("^5 one-shot-bufferize")
    ).click()
    panel = page.get_by_role("region", name="Errors")
    assert panel.get_by_role("heading").inner_text() == "2 errors emitted by this pass"
    assert [line.split(": ")[1] for line in panel.locator(".log-error").all_inner_texts()] == ["error", "error"]
    assert "1 with errors" in page.locator("#summary").inner_text()
    assert "with warnings" not in page.locator("#summary").inner_text()
