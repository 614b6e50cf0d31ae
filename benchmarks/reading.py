"""How many changed passes open with their first change on screen: the real CLI, the report in headless Chromium.

    python benchmarks/reading.py                      # /tmp/dumps/models_qwen3_decode_explicit, if present
    python benchmarks/reading.py --dump DIR --sizes 1400x900,1024x768 --layouts split,stacked,unified --wrap

For each layout and window size, every changed pass is opened in turn (`j` with the No-op filter off)
and tests/browser/onscreen.js checks the change the pass opens on: in each pane, its first row and
its first changed word (`<del>` / `<ins>`) inside the pane's visible rectangle right of the gutter, that
word's line start on screen with it, whether the pane opened scrolled sideways, and whether its changed
rows on screen show any text.
With --wrap each case also runs with "Wrap lines" on, and the median `j` time is printed.
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

DEFAULT_DUMP = Path("/tmp/dumps/models_qwen3_decode_explicit/passes_dump")
ON_SCREEN = (ROOT / "tests" / "browser" / "onscreen.js").read_text(encoding="utf-8")
CHROMIUM = "/usr/bin/chromium"
LAYOUT_BUTTONS = {"split": "Side by side", "stacked": "Stacked", "unified": "Unified"}


def measure(page, layout: str, wrap: bool) -> dict:
    """Step through the changed passes of the open report; counts of what opened on screen."""
    page.get_by_role("button", name=LAYOUT_BUTTONS[layout]).click()
    page.get_by_role("checkbox", name="Wrap lines").set_checked(wrap)
    page.get_by_role("checkbox", name="No-op").uncheck()
    buttons = page.get_by_role("navigation", name="Passes").get_by_role("button")
    buttons.first.click()
    figures = {"passes": 0, "passes_ok": 0, "sides": 0, "sides_ok": 0, "together": 0, "sideways": 0, "blank": 0}
    figures |= {"missed": [], "j_ms": []}
    for step in range(buttons.count()):
        if step:
            start = time.perf_counter()
            page.keyboard.press("j")
            page.evaluate("() => new Promise(done => requestAnimationFrame(() => setTimeout(done, 0)))")
            figures["j_ms"].append(1000 * (time.perf_counter() - start))
        name = page.locator("nav [aria-current='true']").inner_text().split("\n")[0]
        panes = page.evaluate(ON_SCREEN)
        marked = [p for p in panes if p["marked"]]
        ok = all(p["markOnScreen"] if p["marked"] else p["rowOnScreen"] for p in panes)
        figures["passes"] += 1
        figures["passes_ok"] += ok
        figures["sides"] += len(marked)
        figures["sides_ok"] += sum(p["markOnScreen"] for p in marked)
        figures["together"] += sum(p["markOnScreen"] and p["startOnScreen"] for p in marked)
        figures["sideways"] += any(p["scrollLeft"] > 0 for p in panes)
        figures["blank"] += sum(not p["changedTextShown"] for p in panes)
        if not ok:
            figures["missed"].append(name)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dump", type=Path, default=DEFAULT_DUMP, help="a passes_dump directory")
    parser.add_argument("--sizes", default="1400x900,1024x768")
    parser.add_argument("--layouts", default="split,stacked,unified")
    parser.add_argument("--wrap", action="store_true", help="also measure with Wrap lines on")
    args = parser.parse_args(argv)
    if not args.dump.is_dir():
        print(f"reading benchmark skipped: {args.dump} not found (the real dumps are unpacked under /tmp/dumps)")
        return 0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as work:
        report = Path(work) / "report.html"
        if cli.main([str(args.dump), "-o", str(report)]) != 0:
            return 1
        print(f"{args.dump}: first change on screen when a changed pass opens")
        print(
            "| layout | window | wrap | passes on screen | first changed words on screen (marked sides) "
            "| with their line start | opened sideways | sides showing no text | median j ms | missed |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for size in args.sizes.split(","):
                width, height = (int(x) for x in size.split("x"))
                for layout in args.layouts.split(","):
                    for wrap in (False, True) if args.wrap else (False,):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        page = context.new_page()
                        page.goto(report.as_uri())
                        page.wait_for_selector("body[data-ready='true']", state="attached")
                        f = measure(page, layout, wrap)
                        context.close()
                        share = 100 * f["sides_ok"] / max(f["sides"], 1)
                        print(
                            f"| {layout} | {size} | {'on' if wrap else 'off'} | {f['passes_ok']}/{f['passes']} | "
                            f"{f['sides_ok']}/{f['sides']} ({share:.0f}%) | {f['together']}/{f['sides']} | "
                            f"{f['sideways']}/{f['passes']} | {f['blank']} | {statistics.median(f['j_ms'] or [0]):.0f} | "
                            f"{', '.join(f['missed']) or '-'} |"
                        )
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
