"""Hostile and odd dump text in real Chromium: nothing in a dump runs, everything is shown literally."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

HOSTILE = "odd/hostile_text"
PASS_NAME = "<img src=x onerror=window.__pwned=4>{{7*7}}<!--"
# Record anything a dump could make run: a global flag, dialogs, and elements that should not exist.
WATCH = "window.__pwned = undefined; window.alert = () => { window.__pwned = 'alert'; };"


def shown_code(page, pane: str) -> str:
    return page.get_by_role("region", name=pane).inner_text()


def test_hostile_text_never_runs_and_is_shown_literally(open_report):
    opened = open_report(HOSTILE, init_script=WATCH)
    page = opened.page
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    # The pass name comes from a file name: shown as text in the pass list and the title.
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    assert PASS_NAME in buttons.nth(0).inner_text()
    assert page.get_by_role("heading", name=PASS_NAME).count() == 1
    # The code, in the after pane, as printed.
    after = shown_code(page, "After")
    assert '"</script><script>window.__pwned = 1</script>"' in after
    assert '"<!-- <script> --> <img src=x onerror=\\"window.__pwned = 2\\">"' in after
    assert '"{{ 7 * 7 }} {% if true %}jinja{% endif %} ${7*7}"' in after
    assert "# </script><img src=x onerror=window.__pwned=3> {{ title }}" in after
    # The warnings panel.
    warnings = page.get_by_role("region", name="Warnings")
    assert "</script><script>window.__pwned=5</script> {% raw %} {{ 1 }} <!--" in warnings.inner_text()
    # Function names that are also names of JavaScript object properties.
    select = page.get_by_role("combobox", name="Function")
    labels = select.locator(":scope > option").all_inner_texts()  # the pass's own (not those of "Not in this pass")
    names = [label.split()[-1] for label in labels]  # the name comes last, after what the pass did to it
    assert names == ["file", "Odd.constructor", "Odd.__proto__", "Odd.toString", "Odd.main", "constructor", "__proto__"]
    assert select.locator("optgroup > option").all_inner_texts() == ["Odd.hasOwnProperty (from 02)"]
    assert any(label.startswith("\u25cf (+") and label.endswith(" Odd.constructor") for label in labels)
    # Nothing ran, nothing was injected.
    assert page.evaluate("window.__pwned") is None
    assert dialogs == []
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0
    # the viewer's compressed code, the JSON data, the loader and the viewer it inflated: nothing else
    assert page.evaluate("[...document.scripts].map(s => s.id || s.type || 'loader')") == [
        "viewer-code",
        "report-data",
        "loader",
        "viewer",
    ]
    assert "49" not in page.title() and PASS_NAME not in page.title()


def test_untouched_functions_named_like_object_properties_are_not_marked_changed(open_report):
    page = open_report(HOSTILE).page
    page.get_by_role("navigation", name="Passes").get_by_role("button").nth(1).click()
    labels = page.get_by_role("combobox", name="Function").locator("option").all_inner_texts()
    # Pass 02 changed only Odd.toString -> Odd.hasOwnProperty; constructor and __proto__ are untouched.
    by_name = {label.replace("\u25cf", "").split()[0]: label for label in labels[1:]}
    marked = [
        by_name[name]
        for name in ("Odd.constructor", "Odd.__proto__", "constructor", "__proto__")
        if by_name[name].startswith("\u25cf") or "undefined" in by_name[name]
    ]
    assert marked == []


def test_control_characters_are_shown_visibly(open_report):
    page = open_report("odd/control_characters").page
    after = shown_code(page, "After")
    line = next(line for line in after.splitlines() if "nul" in line)
    for glyph in ("\u2400nul", "\u2401soh", "\u241b[31mesc", "\u2421del", "\u240cff", "\u240bvt"):
        assert glyph in line, (glyph, line)
