"""What a reader sees when a changed pass opens: the real CLI, the report in headless Chromium.

    python benchmarks/reading.py          # qwen3 EXPLICIT and CONCISE under /tmp/dumps, if present
    python benchmarks/reading.py --dump DIR --dump DIR2 --sizes 1400x900,1024x768 --layouts split,stacked,unified --wrap

For each dump, layout and window size, every changed pass is opened in turn (`j` with the No-op filter off)
and tests/browser/onscreen.js checks the change it opens on, in each pane: the pane at column 0 (scrollLeft 0),
the change's first row on screen near the top, every changed word (`<del>` / `<ins>`) of the change on the
rows the screen shows inside the pane's visible width (none cut at the right edge), the change's rows without
word marks (inserted, deleted) that the right edge cuts, and unchanged rows taller than one row.
With --wrap each case also runs with "Wrap lines" on; the median `j` time is printed too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # the working tree's package, installed or not
from pypto_ir_trace import cli  # noqa: E402

DEFAULT_DUMPS = [Path(f"/tmp/dumps/models_qwen3_decode_{level}/passes_dump") for level in ("explicit", "concise")]
ON_SCREEN = (ROOT / "tests" / "browser" / "onscreen.js").read_text(encoding="utf-8")
CHROMIUM = "/usr/bin/chromium"
LAYOUT_BUTTONS = {"split": "Side by side", "stacked": "Stacked", "unified": "Unified"}
FIELDS = ("passes", "first_row", "panes", "column_0", "words", "words_on_screen", "rows_cut", "taller")


def measure(page, layout: str, wrap: bool, elide: bool) -> dict:
    """Step through the changed passes of the open report; counts of what each opened with."""
    page.get_by_role("button", name=LAYOUT_BUTTONS[layout]).click()
    if page.get_by_role("checkbox", name="Elide types").count():
        page.get_by_role("checkbox", name="Elide types").set_checked(elide)
    page.get_by_role("checkbox", name="Wrap lines").set_checked(wrap)
    page.get_by_role("checkbox", name="No-op").uncheck()
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    buttons.first.click()
    figures: dict = dict.fromkeys(FIELDS, 0) | {"missed": [], "j_ms": []}
    for step in range(buttons.count()):
        if step:
            start = time.perf_counter()
            page.keyboard.press("j")
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))")
            figures["j_ms"].append(1000 * (time.perf_counter() - start))
        name = page.locator("nav [aria-current='true']").inner_text().split("\n")[0]
        panes = page.evaluate(ON_SCREEN)
        figures["passes"] += 1
        figures["first_row"] += all(p["rowOnScreen"] for p in panes)
        figures["panes"] += len(panes)
        figures["column_0"] += sum(p["scrollLeft"] == 0 for p in panes)
        figures["words"] += sum(p["words"] for p in panes)
        figures["words_on_screen"] += sum(p["wordsOnScreen"] for p in panes)
        figures["rows_cut"] += sum(p["changedRowsCut"] for p in panes)
        figures["taller"] += sum(p["taller"] for p in panes)
        ok = all(
            p["rowOnScreen"] and p["scrollLeft"] == 0 and p["wordsOnScreen"] == p["words"] and not p["changedRowsCut"]
            for p in panes
        )
        if not ok:
            figures["missed"].append(name)
    return figures


def row(dump: str, layout: str, size: str, wrap: bool, f: dict) -> str:
    """One line of the table."""
    return (
        f"| {dump} | {layout} | {size} | {'on' if wrap else 'off'} | {f['passes']} | {f['first_row']}/{f['passes']} | "
        f"{f['column_0']}/{f['panes']} | {f['words_on_screen']}/{f['words']} | {f['rows_cut']} | {f['taller']} | "
        f"{statistics.median(f['j_ms'] or [0]):.0f} | {', '.join(f['missed']) or '-'} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dump", type=Path, action="append", help="a passes_dump directory (repeatable)")
    parser.add_argument("--sizes", default="1400x900,1024x768")
    parser.add_argument("--layouts", default="split,stacked,unified")
    parser.add_argument("--wrap", action="store_true", help="also measure with Wrap lines on")
    parser.add_argument("--no-elide", action="store_true", help="measure with Elide types off")
    args = parser.parse_args(argv)
    dumps = [dump for dump in args.dump or DEFAULT_DUMPS if dump.is_dir()]
    if not dumps:
        print(f"reading benchmark skipped: none of {[str(d) for d in args.dump or DEFAULT_DUMPS]} found")
        return 0
    from playwright.sync_api import sync_playwright

    print("What a changed pass opens with, every changed pass in turn (first change: its rows on screen)")
    print(
        "| dump | layout | window | wrap | passes | first row on screen | panes at column 0 "
        "| changed words on screen | changed rows cut | unchanged rows taller than one | median j ms | missed |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for dump in dumps:
            report = Path(work) / f"{dump.parent.name}.html"
            if cli.main([str(dump), "-o", str(report)]) != 0:
                return 1
            for size in args.sizes.split(","):
                width, height = (int(x) for x in size.split("x"))
                for layout in args.layouts.split(","):
                    for wrap in (False, True) if args.wrap else (False,):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        page = context.new_page()
                        page.goto(report.as_uri())
                        page.wait_for_selector("body[data-ready='true']", state="attached")
                        figures = measure(page, layout, wrap, not args.no_elide)
                        context.close()
                        print(row(dump.parent.name, layout, size, wrap, figures), flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
