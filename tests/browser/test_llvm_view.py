"""LLVM dumps in the viewer, in real Chromium by role and name: demangled C++ names in the Function selector and
the map (the symbol in tooltips), LLVM highlighting, the op counts of a pass."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

CPP = "llvm/double-conversion-cached-powers-O1.txt"
LZ4 = "llvm/lz4-renorm-O2.txt"
SYMBOL = "_ZN17double_conversion16PowersOfTenCache32GetCachedPowerForDecimalExponentEiPNS_5DiyFpEPi"
NAME = "double_conversion::PowersOfTenCache::GetCachedPowerForDecimalExponent(int, double_conversion::DiyFp*, int*)"


def test_the_function_selector_shows_demangled_names_with_the_symbol_in_the_tooltip(open_report):
    page = open_report(CPP, fragment="#pass=5").page  # SimplifyCFGPass on that function
    select = page.get_by_role("combobox", name="Function")
    option = select.locator("option", has_text=NAME)
    option.wait_for(state="attached")
    assert option.get_attribute("value") == SYMBOL and option.get_attribute("title") == SYMBOL
    select.select_option(SYMBOL)
    page.wait_for_function("() => location.hash.includes('fn=_ZN17')")  # links keep the symbol


def test_the_map_names_rows_demangled(open_report):
    page = open_report(CPP).page
    page.get_by_role("button", name="Map").click()
    grid = page.get_by_role("grid", name="Pipeline map")
    header = grid.get_by_role("rowheader").filter(has_text="GetCachedPowerForDecimalExponent(int")
    assert header.count() == 1
    assert header.get_attribute("title").startswith(SYMBOL)


def test_llvm_lines_are_highlighted_and_a_pass_says_which_ops_it_changed(open_report):
    page = open_report(LZ4, fragment="#pass=9").page  # SROAPass
    page.get_by_role("heading", level=2).filter(has_text="SROAPass").wait_for()
    after = page.get_by_role("region", name="After")
    assert after.locator(".hl-keyword", has_text="getelementptr").count() > 0
    assert after.locator(".hl-type", has_text="ptr").count() > 0
    assert "alloca \u22125" in page.locator("body").inner_text() or "alloca -5" in page.locator("body").inner_text()
