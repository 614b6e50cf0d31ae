"""The index page of many programs tells what a compiler change did (issue 34): the programs grouped by the same
edit above the grid, each group opening its programs at that pass in Pass effect, and the grid's passes whose
effect differs; on real programs of the archive with three edits made to subsets of them (edited_runs.py)."""

from __future__ import annotations

import re

import pytest

import edited_runs
from pypto_ir_trace import cli


@pytest.fixture(scope="module")
def index(real_dumps, tmp_path_factory):
    where = tmp_path_factory.mktemp("edited-index")
    this, baseline = edited_runs.write_roots(real_dumps, where)
    assert cli.main([str(this), "--baseline", str(baseline), "-o", str(where / "out"), "-q"]) == 0
    return where / "out" / "index.html"


@pytest.fixture
def page(browser, index):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(index.as_uri())
    yield page
    context.close()
    assert problems == []


def test_the_groups_tell_each_edit_once_and_open_its_programs_at_that_pass(page):
    groups = page.get_by_role("region", name=re.compile(r"^What the change did"))
    told = groups.locator("summary").all_inner_texts()
    assert told == [
        "pl.tile.exp → pl.tile.exp2 at 11 ConvertTensorToTileOps 5 programs",
        "pl.Mem.Mat → pl.Mem.L1 at 11 ConvertTensorToTileOps 3 programs",
        "pl.tile.relu → pl.tile.relu_fast at 11 ConvertTensorToTileOps 1 program",
    ]
    link = groups.get_by_role("link", name="models_qwen3_decode_concise")
    assert not link.is_visible()  # a group opens its programs when asked
    groups.locator("summary").first.click()
    assert groups.get_by_role("link").filter(visible=True).all_inner_texts() == sorted(edited_runs.EDITS["exp2"][3])
    link.click()
    page.wait_for_selector("body[data-ready='true']", state="attached")
    assert page.get_by_role("heading", name="11 ConvertTensorToTileOps").is_visible()
    assert page.get_by_role("button", name="Pass effect", exact=True).get_attribute("aria-pressed") == "true"


def test_the_grid_rings_the_passes_whose_effect_differs_and_counts_them(page):
    grid = page.get_by_role("grid", name="Programs by pass")
    row = grid.get_by_role("rowheader", name="9 of 11 programs had a pass whose effect differs: how many at each pass")
    assert row.is_visible()
    assert grid.get_by_role(
        "gridcell", name="11 ConvertTensorToTileOps, all programs: its effect differs in 9 programs"
    ).is_visible()
    later = grid.get_by_role(
        "gridcell", name=re.compile(r"^32 InitMemRef, advanced_01_split_k_explicit: .*its effect differs$")
    )
    assert "effect-differs" in later.get_attribute("class")
    plain = grid.get_by_role(
        "gridcell", name=re.compile(r"^13 LowerCompositeOps, advanced_01_split_k_explicit: runs differ")
    )
    assert "effect-differs" not in plain.get_attribute("class")  # differs after it, yet the pass did the same
    row.click()  # the row sorts the passes by its counts: the pass the change touches comes first
    assert page.get_by_role("combobox", name="Order passes").input_value() == "effect"
    assert grid.get_by_role("columnheader").nth(1).get_attribute("aria-label").startswith("11 ConvertTensorToTileOps")
    later.click()
    page.wait_for_selector("body[data-ready='true']", state="attached")
    assert page.url.endswith("advanced_01_split_k_explicit.html#pass=32&view=effect")
