"""MLIR in the viewer, in real Chromium by role and name: the Pipeline selector and its links, MLIR
functions, pass details, a failed pass, Ignore renumbering (exact: only names differ on a renamed row)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MULTI = "mlir/multi_func/tree_dir"
NAME = re.compile(r"[%^][\w$.-]+")  # an SSA value or a block label


@pytest.fixture(scope="module")
def compile_output(tmp_path_factory) -> str:
    """What a PyPTO compile with dump_ptoas_passes leaves: passes_dump/ and ptoas_passes/<unit>/."""
    root = tmp_path_factory.mktemp("compile") / "prog"
    shutil.copytree(FIXTURES / "real" / "advanced_01_split_k_concise" / "passes_dump", root / "passes_dump")
    shutil.copytree(FIXTURES / MULTI, root / "ptoas_passes" / "kernel_aiv")
    shutil.copytree(FIXTURES / "mlir" / "failing_bufferize" / "tree_dir", root / "ptoas_passes" / "kernel_aic")
    return str(root)  # absolute: the report fixture's FIXTURES / path is this path


def nav(page):
    return page.get_by_role("navigation", name="Passes")


def pipeline_box(page):
    return page.get_by_role("combobox", name="Pipeline")


def heading(page):
    return page.get_by_role("heading", level=2)


def counts(page) -> str:
    return page.locator("#pass-counts").inner_text()


def expect_heading(page, start: str):
    page.wait_for_function("s => document.querySelector('h2').textContent.startsWith(s)", arg=start)


def fragment(page) -> str:
    return page.evaluate("location.hash")


def pane_rows(page, side: str):
    return page.get_by_role("region", name=side).locator(".rows .row")


# ---- several pipelines ------------------------------------------------------------------------


def test_pipeline_selector_lists_pypto_then_each_unit_and_switches(open_report, compile_output):
    page = open_report(compile_output).page
    box = pipeline_box(page)
    assert box.is_visible()
    assert box.locator("option").all_inner_texts() == ["PyPTO", "kernel_aic", "kernel_aiv"]
    assert box.input_value() == "0"  # no link: the first pipeline
    assert nav(page).get_by_role("button", name=re.compile("FlattenCallExpr")).count() == 1
    page.get_by_role("button", name="Stacked").click()
    page.get_by_role("searchbox", name="Search all passes").fill("llvm.func")
    box.select_option(label="kernel_aiv")
    expect_heading(page, "1 canonicalize")
    assert nav(page).get_by_role("button", name=re.compile("FlattenCallExpr")).count() == 0
    assert nav(page).get_by_role("button").count() == 39
    page.wait_for_function("() => location.hash.startsWith('#pipe=kernel_aiv&pass=1')")  # written after a pause
    # Layout and search text are kept; the search runs on this pipeline.
    assert page.get_by_role("button", name="Stacked").get_attribute("aria-pressed") == "true"
    assert page.get_by_role("searchbox", name="Search all passes").input_value() == "llvm.func"
    page.wait_for_function("() => document.querySelectorAll('nav .hits').length === 39")
    # j / k walk this pipeline's passes.
    page.locator("body").press("j")
    expect_heading(page, "2 cse")
    page.wait_for_function("() => location.hash.includes('pipe=kernel_aiv&pass=2')")
    box.select_option(label="PyPTO")
    page.wait_for_function("() => !location.hash.includes('pipe=kernel')")
    assert fragment(page).startswith("#pipe=PyPTO&pass=")


def test_a_link_opens_its_pipeline_and_pass(open_report, compile_output):
    page = open_report(compile_output, fragment="#pipe=kernel_aiv&pass=36").page
    assert pipeline_box(page).input_value() == "2"
    expect_heading(page, "36 canonicalize")
    page.evaluate("location.hash = '#pipe=kernel_aic&pass=3'")
    expect_heading(page, "3 canonicalize")
    assert pipeline_box(page).input_value() == "1"
    assert nav(page).get_by_role("button").count() == 5


def test_each_pipeline_labels_its_input_as_its_passes_are_labelled(open_report, compile_output):
    """PyPTO's input is 00 (00_frontend.py); an MLIR pipeline counts its passes from 1, so its input is 0.
    The header names the compile output, over every pipeline."""
    page = open_report(compile_output, fragment="#pass=07").page
    assert page.locator(".dump-title").inner_text() == "prog"
    compare = page.get_by_role("combobox", name="Compare with")
    assert compare.locator("option").all_inner_texts()[1:3] == ["00 frontend", "01 InlineFunctions"]
    pipeline_box(page).select_option(label="kernel_aiv")
    expect_heading(page, "1 canonicalize")
    assert compare.locator("option").all_inner_texts()[1:3] == ["0 (input not dumped)", "1 canonicalize"]
    compare.select_option(label="0 (input not dumped)")
    page.wait_for_function("() => /base=0(&|$)/.test(location.hash)")


def test_a_link_without_pipe_opens_the_first(open_report, compile_output):
    page = open_report(compile_output, fragment="#pass=07").page
    assert pipeline_box(page).input_value() == "0"
    expect_heading(page, "07 FlattenCallExpr")


def test_one_pipeline_has_no_pipeline_selector(open_report):
    page = open_report(MULTI).page
    assert pipeline_box(page).count() == 0
    assert not fragment(page).startswith("#pipe")


# ---- MLIR in the views ------------------------------------------------------------------------


def test_mlir_functions_pass_details_and_highlighting(open_report):
    page = open_report(MULTI, fragment="#pass=36").page
    expect_heading(page, "36 canonicalize")
    assert page.get_by_text("Canonicalizer on llvm.func @axpb_exp").is_visible()
    assert "Canonicalizer on llvm.func @axpb_exp" in nav(page).get_by_role(
        "button", name=re.compile("^36")
    ).get_attribute("title")
    function = page.get_by_role("combobox", name="Function")
    options = function.locator("option").all_inner_texts()
    assert any(o.startswith("\u25cf (+") and o.endswith(" @axpb_exp") for o in options), (
        options
    )  # counts, then the name
    assert any("@expf_ext" in o for o in options)
    function.select_option(value="@axpb_exp")
    page.wait_for_function("() => /fn=(%40|@)axpb_exp/.test(location.hash)")
    after = page.get_by_role("region", name="After").locator(".rows").inner_text()
    assert "llvm.func @axpb_exp" in after and "llvm.func @reduce_sum" not in after
    assert page.locator(".rows .hl-function").count() > 0  # highlights.scm of MLIR
    # The function stays picked while stepping through the passes that have it.
    page.locator("body").press("k")
    expect_heading(page, "35 cse")
    assert function.input_value() == "@axpb_exp"
    assert nav(page).locator("button.touches").count() >= 5  # its history: the passes that change it


def test_a_failed_pass_is_flagged_noted_and_summarised(open_report, compile_output):
    page = open_report(compile_output, fragment="#pipe=kernel_aic&pass=5").page
    expect_heading(page, "5 one-shot-bufferize")
    failed = nav(page).get_by_role("img", name="failed")
    assert failed.count() == 1
    assert (
        nav(page)
        .get_by_role("button", name=re.compile("^5 one-shot-bufferize"))
        .get_by_role("img", name="failed")
        .count()
        == 1
    )
    assert nav(page).get_by_role("img", name="warning").count() == 0  # distinct from a warning
    assert page.get_by_text(re.compile("the pipeline stopped here")).is_visible()
    assert "stopped at 5 one-shot-bufferize" in page.locator("#summary").inner_text()
    notes = page.get_by_text("About this dump")
    notes.click()
    assert page.get_by_text(re.compile("snapshot 0 is empty")).is_visible()
    pipeline_box(page).select_option(label="kernel_aiv")
    assert "stopped at" not in page.locator("#summary").inner_text()
    assert nav(page).get_by_role("img", name="failed").count() == 0


# ---- Ignore renumbering ------------------------------------------------------------------------


def renamed_rows(page) -> list[tuple[str, str]]:
    """(before, after) code of each row shown as renamed; the two panes' rows line up."""
    before, after = pane_rows(page, "Before"), pane_rows(page, "After")
    classes = before.evaluate_all("rows => rows.map(r => r.className)")
    after_classes = after.evaluate_all("rows => rows.map(r => r.className)")
    texts_b = before.evaluate_all("rows => rows.map(r => r.querySelector('.code')?.textContent ?? '')")
    texts_a = after.evaluate_all("rows => rows.map(r => r.querySelector('.code')?.textContent ?? '')")
    found = []
    for k, name in enumerate(classes):
        if "renamed" in name.split():
            assert "renamed" in after_classes[k].split()
            found.append((texts_b[k], texts_a[k]))
    assert sum("renamed" in c.split() for c in after_classes) == len(found)
    return found


def test_ignore_renumbering_marks_renamed_rows_and_counts_follow(open_report):
    page = open_report(MULTI, fragment="#pass=36").page
    expect_heading(page, "36 canonicalize")
    toggle = page.get_by_role("checkbox", name="Ignore renumbering")
    assert toggle.is_visible() and not toggle.is_checked()
    assert counts(page) == "+18 \u221226"
    assert renamed_rows(page) == []
    deleted_before = pane_rows(page, "Before").filter(has_text="llvm.mlir.undef")
    assert "del" in deleted_before.first.get_attribute("class").split()
    button = nav(page).get_by_role("button", name=re.compile("^36"))
    assert "+18" in button.inner_text()
    toggle.check()
    match = re.fullmatch(r"\+(\d+) \u2212(\d+), (\d+) renamed", counts(page))
    assert match, counts(page)
    ins, dels, renamed = map(int, match.groups())
    assert renamed > 0 and ins == 18 - renamed and dels == 26 - renamed
    rows = renamed_rows(page)
    assert len(rows) == renamed
    for before, after in rows:
        assert before != after and NAME.sub("%", before) == NAME.sub("%", after), (before, after)
    # Marked, not hidden; word marks on the renamed names; a changed operation stays deleted.
    assert page.locator(".row.renamed .mk").first.inner_text() == "\u2248"
    assert page.locator(".row.renamed ins, .row.renamed del").count() > 0
    assert "del" in deleted_before.first.get_attribute("class").split()
    assert f"+{ins}" in button.inner_text()
    toggle.uncheck()
    assert counts(page) == "+18 \u221226"
    assert renamed_rows(page) == []
    assert "+18" in button.inner_text()


def test_every_renamed_row_of_every_pass_differs_by_names_only(open_report):
    page = open_report(MULTI, fragment="#pass=1").page
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    seen = 0
    for k in range(39):
        page.evaluate(f"location.hash = '#pass={k + 1}'")
        expect_heading(page, f"{k + 1} ")
        expand = page.get_by_role("button", name="Expand all")
        if expand.is_enabled():
            expand.click()
        for before, after in renamed_rows(page):
            assert NAME.sub("%", before) == NAME.sub("%", after), (k + 1, before, after)
            seen += 1
    assert seen >= 30


def test_ignore_renumbering_is_off_for_comparisons_with_a_reason(open_report):
    page = open_report(MULTI, fragment="#pass=36").page
    toggle = page.get_by_role("checkbox", name="Ignore renumbering")
    toggle.check()
    page.get_by_role("combobox", name="Compare with").select_option(label="33 reconcile-unrealized-casts")
    assert toggle.is_disabled()
    assert page.get_by_text(re.compile("not to \u201cCompare with\u201d")).is_visible()
    assert renamed_rows(page) == []
    page.get_by_role("combobox", name="Compare with").select_option(value="")
    assert toggle.is_enabled()
    assert "renamed" in counts(page)


def test_pypto_has_no_renumbering_switch(open_report):
    page = open_report("real/advanced_01_split_k_explicit").page
    assert page.get_by_role("checkbox", name="Ignore renumbering").count() == 0


def test_a_streams_diagnostics_are_the_failed_passs_errors(open_report):
    page = open_report("mlir/failing_bufferize/stream.txt").page
    button = nav(page).get_by_role("button", name=re.compile("^5 one-shot-bufferize"))
    assert button.get_by_role("img", name="error").count() == 1  # `error:` diagnostics: not warnings
    assert button.get_by_role("img", name="failed").count() == 1
    button.click()
    expect_heading(page, "5 one-shot-bufferize")
    errors = page.get_by_role("region", name="Errors")
    assert errors.is_visible()
    assert "cannot bufferize bodiless function" in errors.inner_text()
    assert page.get_by_text(re.compile("the pipeline stopped here")).is_visible()


def test_switching_pipelines_keeps_ignore_renumbering_and_the_theme(open_report, compile_output):
    page = open_report(compile_output, fragment="#pipe=kernel_aic&pass=1").page
    page.get_by_role("button", name="Toggle dark theme").click()
    page.get_by_role("checkbox", name="Ignore renumbering").check()
    pipeline_box(page).select_option(label="PyPTO")
    assert page.get_by_role("checkbox", name="Ignore renumbering").count() == 0  # PyPTO has no value names
    pipeline_box(page).select_option(label="kernel_aiv")
    page.evaluate("location.hash = '#pipe=kernel_aiv&pass=36'")
    expect_heading(page, "36 canonicalize")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.get_by_role("checkbox", name="Ignore renumbering").is_checked()  # kept through PyPTO
    assert "renamed" in counts(page)
    pipeline_box(page).select_option(label="kernel_aic")
    assert page.get_by_role("checkbox", name="Ignore renumbering").is_checked()


@pytest.mark.parametrize("viewport", [(1024, 768), (1400, 900)])
def test_what_the_pass_ran_on_stays_readable_at_common_widths(open_report, viewport):
    """The op a pass ran on is the detail MLIR users read first: the picker beside it wraps before it is cut."""
    page = open_report(MULTI, fragment="#pass=36", viewport=viewport).page
    expect_heading(page, "36 canonicalize")
    page.get_by_role("checkbox", name="Ignore renumbering").check()  # the longest counts: "+x −y, n renamed"
    detail = page.locator("#pass-detail")
    assert detail.inner_text() == "Canonicalizer on llvm.func @axpb_exp"
    assert detail.evaluate("e => e.scrollWidth <= e.clientWidth"), detail.evaluate(
        "e => [e.scrollWidth, e.clientWidth]"
    )
    assert page.get_by_role("combobox", name="Compare with").is_visible()


def test_the_before_pane_names_what_the_pass_is_diffed_against(open_report):
    """In local scope a dump before the first whole one holds its op alone and is diffed against its op's previous
    text, not the dump before it (another function's); after it, a dump is shown in the whole IR as it stands and
    diffed against the dump before it, which shows the whole IR too."""
    page = open_report("mlir/multi_func/tree_dir_no_module_scope", fragment="#pass=36").page
    expect_heading(page, "36 canonicalize")
    assert "local scope, shown in the whole IR" in page.locator("#pass-detail").inner_text()
    before = page.locator("#before-file")
    assert before.inner_text() == "builtin_module_no-symbol-name/llvm_func_expf_ext/5_1_cse.mlir"
    assert counts(page) == "+18 −26"
    after = pane_rows(page, "After").all_inner_texts()  # the module, another function's line among its first
    assert "module {" in after[0] and "llvm.func @expf_ext" in after[1], after[:2]
    page.evaluate("location.hash = '#pass=3'")
    expect_heading(page, "3 canonicalize")
    assert before.inner_text() == "(input not dumped)"  # its first dump: nothing holds it before
    page.evaluate("location.hash = '#pass=4'")
    expect_heading(page, "4 cse")
    assert before.inner_text() == "builtin_module_no-symbol-name/func_func_axpb_exp/0_0_canonicalize.mlir"
    page.get_by_role("combobox", name="Compare with").select_option(label="1 canonicalize")
    assert before.inner_text() == "builtin_module_no-symbol-name/func_func_expf_ext/0_0_canonicalize.mlir"


def test_before_dumps_are_told_apart_and_the_first_is_the_input(open_report):
    """--mlir-print-ir-before-all: a Before dump and its pass's After dump are named alike, and the list tells the Before
    ones by a "before" tag; the first, the whole IR before the first pass, is the input the first pass is shown against."""
    stream = FIXTURES / "mlir" / "real" / "split_bufferize_failed" / "stream_before_and_after.txt"
    headers = [line for line in stream.read_text(encoding="utf-8").split("\n") if line.startswith("// -----// IR Dump")]
    chunk = headers[
        : 1 + next(k for k, line in enumerate(headers[1:], 1) if "(canonicalize)" in line and "Before" in line)
    ]
    page = open_report(str(stream), fragment="#pass=1").page
    expect_heading(page, "1 canonicalize")
    page.get_by_role("checkbox", name="No-op").check()
    items = page.get_by_role("navigation", name="Passes").get_by_role("button")
    names = items.all_inner_texts()
    assert len(names) == len(chunk) - 2  # the first chunk's dumps, less its input and the next chunk's first
    assert [re.search(r"\bbefore\b", name) is not None for name in names] == [
        "IR Dump Before" in line for line in chunk[1:-1]
    ]
    assert page.locator("#before-file").inner_text() == "stream_before_and_after.txt:1"
    assert counts(page) == "+3 −6"  # canonicalize on the input, not the whole IR added
    befores = sum("IR Dump Before" in line for line in chunk[1:-1])
    assert (
        page.locator("#summary")
        .inner_text()
        .startswith(f"1 of {len(names)} dumps ({befores} printed before their pass) changed the IR \u00b7 ")
    )
