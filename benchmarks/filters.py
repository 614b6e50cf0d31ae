"""Benchmark the LLVM filters in the page (issue 35): each switch turned on in headless Chromium, timed from the
click to the viewer built again on the filtered report, with the longest task the page ran meanwhile (how long it
did not answer: the work runs in slices between frames) and the JS heap after. Run on the -g fixtures, on the -g
build against the build without (two runs: every row decided again too), and on a report given with --report (e.g.
the one benchmarks/llvm.py writes: lz4.c's whole -O2 dump, 10,296 passes). The cost is the whole dump's: every line
filtered once, then every pass re-diffed on its filtered texts.
Nothing is asserted.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

FIXTURES = HERE.parent / "fixtures" / "llvm"
CASES = [("lz4-renorm-O2-g.txt",), ("lz4-llc-setstreamdecode-O2-g.txt",), ("lz4-renorm-O2-g.txt", "lz4-renorm-O2.txt")]
WATCH = """() => { window.__longest = 0; new PerformanceObserver(list => { for (const e of list.getEntries())
  window.__longest = Math.max(window.__longest, e.duration); }).observe({ type: "longtask", buffered: false }); }"""


def figures(report: Path) -> list[str]:
    rows = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, "--enable-precise-memory-info"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(report.as_uri())
        page.wait_for_selector("body[data-ready='true']", state="attached", timeout=120000)
        names = page.locator("#filter-toggles input").evaluate_all(
            "boxes => boxes.map(b => b.parentElement.textContent.trim())"
        )
        for name in names:
            page.evaluate(WATCH)
            started = time.perf_counter()
            page.get_by_role("checkbox", name=name).check()
            page.get_by_role("status").filter(has_text="Hidden:").wait_for(timeout=600000)
            seconds = time.perf_counter() - started
            longest = page.evaluate("window.__longest")
            heap = page.evaluate("performance.memory ? performance.memory.usedJSHeapSize / 1e6 : 0")
            summary = page.locator("#summary").inner_text()
            rows.append(
                f"  {name}: {seconds:.2f} s to filter, longest task {longest:.0f} ms, JS heap {heap:,.0f} MB; {summary}"
            )
            started = time.perf_counter()
            page.get_by_role("checkbox", name=name).uncheck()  # the unfiltered report is kept: back at once
            page.get_by_role("status").filter(has_text="Nothing hidden").wait_for(timeout=60000)
            rows.append(f"  {name} off again: {time.perf_counter() - started:.2f} s")
        browser.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", type=Path, action="append", default=[], help="also an HTML report made before")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        reports = []
        for case in CASES:
            out = Path(tmp) / f"{' against '.join(case)}.html"
            baseline = ["--baseline", str(FIXTURES / case[1])] if len(case) > 1 else []
            subprocess.run(
                [sys.executable, "-m", "pypto_ir_trace", str(FIXTURES / case[0]), *baseline, "-q", "-o", str(out)],
                check=True,
            )
            reports.append(out)
        for report in [*reports, *args.report]:
            print(f"{report.name} ({report.stat().st_size / 1e6:,.1f} MB)")
            for row in figures(report):
                print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
