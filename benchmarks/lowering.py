"""The lowering page in Chromium (issue 34): from the `l` key to the page painted, and a frame while it scrolls a screen
at a time to its end, with the sections built at most; for the whole file (every pass that changes the IR: the longest
page) and for one function (of the first ten the first changed pass changes, the one the most passes change).

Cases: `large` (200 functions x 80 passes), `xlarge` (400 x 100), `mlir-tree` (benchmarks/gen_mlir.py --functions 60
--rounds 10: 2,411 dumps), or any report given with --report. Prints figures; never a pass/fail test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import map as map_bench
import run

# `l` (with the function picked, or none), the frame that shows the page painted; then `steps` scrolls of the page
# by a screen (down to its end), each to its painted frame, counting the sections built after each.
OPEN_AND_SCROLL = """async ([pick, steps]) => {
  const key = name => document.body.dispatchEvent(new KeyboardEvent('keydown', {key: name, bubbles: true}));
  const select = document.querySelector('#function-select');
  if (pick) {  // of the first ten functions the pass shown changes, the one the most passes change
    let best = null, most = -1;
    for (const option of [...select.options].filter(option => option.classList.contains('changed')).slice(0, 10)) {
      select.value = option.value;
      select.dispatchEvent(new Event('change'));
      const touched = document.querySelectorAll('nav button.touches').length;
      if (touched > most) [best, most] = [option.value, touched];
    }
    select.value = best;
    select.dispatchEvent(new Event('change'));
    await window.__afterPaint();
  }
  const t0 = performance.now();
  key('l');
  const open = (await window.__afterPaint()) - t0;
  const page = document.querySelector('#lowering');
  const built = () => page.querySelectorAll('.lowering-body .diff').length;
  let most = built();
  const scrolls = [];
  for (let i = 0; i < steps && page.scrollTop + page.clientHeight < page.scrollHeight - 1; i++) {
    const t = performance.now();
    page.scrollTop += page.clientHeight;
    scrolls.push((await window.__afterPaint()) - t);
    most = Math.max(most, built());
  }
  const end = page.scrollTop + page.clientHeight >= page.scrollHeight - 1;
  return {open, scrolls, most, end, sections: page.querySelectorAll('.lowering-pass').length,
          title: document.querySelector('#lowering-title').textContent};
}"""


def measure(report: Path, pick: bool, steps: int, viewport: tuple[int, int]) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            page = run.open_report(browser, report, viewport)
            return page.evaluate(OPEN_AND_SCROLL, [pick, steps])
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="large,xlarge,mlir-tree", help="comma-separated: large, xlarge, mlir-tree")
    parser.add_argument("--report", type=Path, help="measure this report instead")
    parser.add_argument("--steps", type=int, default=400, help="scrolls of the page by a screen, at most")
    parser.add_argument("--rebuild", action="store_true", help="build the reports again (the code changed)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    jobs = [("report", args.report)] if args.report else []
    for case in [] if args.report else args.cases.split(","):
        report = args.workdir / f"{case}-lowering.html"
        if args.rebuild or not report.exists():
            run.run_cli(map_bench.dump_of(args.workdir, case, args.seed), report)
        jobs.append((case, report))
    for name, report in jobs:
        for pick in (False, True):
            figures = measure(report, pick, args.steps, (1400, 900))
            scrolls = sorted(figures["scrolls"]) or [0.0]
            print(
                f"{name}, {figures['title']}: {figures['sections']} sections, painted {figures['open']:.0f} ms after `l`; "
                f"{len(figures['scrolls'])} scrolls by a screen{' to its end' if figures['end'] else ''}, "
                f"a frame median {statistics.median(scrolls):.1f} ms, "
                f"p90 {scrolls[int(0.9 * (len(scrolls) - 1))]:.1f} ms, max {scrolls[-1]:.0f} ms; "
                f"at most {figures['most']} sections built at once"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
