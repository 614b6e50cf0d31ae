"""Renamed and split functions in the page (issue 19), in real headless Chromium by role and name: the Function
selector names a content pair `old → new`, and the function's history (● marks, Shift+J / Shift+K) follows it
across the rename, both ways."""

from __future__ import annotations

import re

import pytest
from test_following import expect_current, function, nav, select_pass, status
from test_viewer import expect_fragment

pytestmark = pytest.mark.browser

RENAMED = "viewer/renamed"  # 02 renames kernel_add to kernel_add_incore_0; 01, 03, 05 change it, 04 does not
OLD, NEW = "tiny_add.kernel_add", "tiny_add.kernel_add_incore_0"
PAIR = f"{OLD} \u2192 kernel_add_incore_0"  # the qualifier both share, once
FLASH = "real/models_03_flash_attention_concise"
INCORE = "_jit_flash_attention.flash_attention_incore_0"


def marked(page) -> list[str]:
    return nav(page).locator(".pass.touches .pass-label").all_inner_texts()


def test_the_function_selector_names_the_pair_and_shows_one_changed_header_line(open_report):
    page = open_report(RENAMED).page
    select_pass(page, "02")
    pair = function(page).get_by_role("option", name=PAIR)
    assert pair.inner_text() == f"\u25cf (+1 \u22121) {PAIR}"
    assert function(page).get_by_role("option", name=re.compile(r"\(removed\)|\(added\)")).count() == 0
    function(page).select_option(NEW)
    heading = page.get_by_role("heading", level=2)
    assert "OutlineIncoreScopes" in heading.inner_text()
    counts = heading.locator("xpath=following-sibling::*[not(@hidden)][1]")  # the counts beside it
    assert counts.inner_text() == "+1 \u22121"
    assert page.get_by_role("region", name="Before").locator("del").all_inner_texts() == ["kernel_add"]
    assert page.get_by_role("region", name="After").locator("ins").all_inner_texts() == ["kernel_add_incore_0"]
    assert page.get_by_text(f"Paired by content: {NEW} is the function most like {OLD} before this pass").is_visible()


def test_shift_j_and_k_follow_the_function_across_its_rename(open_report):
    page = open_report(RENAMED).page
    select_pass(page, "01")
    function(page).select_option(OLD)
    assert marked(page) == ["01", "02", "03", "05"]  # under both names; 04 changes another function
    assert page.get_by_text(f"{OLD} (elsewhere named {NEW}) is changed by 4 passes").is_visible()
    for label, name in (("02", NEW), ("03", NEW), ("05", NEW)):
        page.keyboard.press("Shift+J")
        expect_current(page, label)
        assert function(page).input_value() == name
    page.keyboard.press("Shift+J")
    assert status(page).inner_text() == f"No later pass changes {NEW}."
    for label, name in (("03", NEW), ("02", NEW), ("01", OLD)):
        page.keyboard.press("Shift+K")
        expect_current(page, label)
        assert function(page).input_value() == name
    assert marked(page) == ["01", "02", "03", "05"]


def test_j_and_k_and_a_link_keep_the_function_under_its_new_name(open_report):
    page = open_report(RENAMED, fragment=f"#pass=01&fn={OLD}").page
    expect_current(page, "01")
    page.keyboard.press("j")
    expect_current(page, "02")
    assert function(page).input_value() == NEW
    page.keyboard.press("j")
    expect_current(page, "03")
    expect_fragment(page, f"#pass=03&fn={NEW}")
    page.keyboard.press("k")
    page.keyboard.press("k")
    expect_current(page, "01")
    assert function(page).input_value() == OLD


def test_a_real_split_pairs_its_best_match(open_report):
    """ExpandMixedKernel splits flash_attention_incore_0: its _aiv part is the most like it."""
    page = open_report(FLASH).page
    select_pass(page, "22")
    pair = f"{INCORE} \u2192 flash_attention_incore_0_aiv"
    assert function(page).get_by_role("option", name=pair).count() == 1
    assert function(page).get_by_role("option", name=f"(added) {INCORE}_aic").count() == 1
    function(page).select_option(f"{INCORE}_aiv")
    after = page.get_by_role("region", name="After")
    assert after.locator(".row.eq").count() > 0 and after.locator(".row.ins").count() > 0
    assert "09" in marked(page) and "24" in marked(page)  # its history before the split and after it
