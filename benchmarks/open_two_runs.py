"""Benchmark opening a two-run report in Chromium against one run's report, on generated MLIR trees.

Two trees of `gen_mlir.py` (the same shape, seeds 1 and 2) are rendered alone and compared (`--baseline`);
each page is opened a few times in a fresh tab, from navigation to the first painted diff, and the minimum
and median are printed. The two-run page makes its rows' diffs when they are read, so it should open in about
the time of one run's page plus the reading of its rows.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_mlir
from run import CHROMIUM, CHROMIUM_ARGS


def render(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pypto_ir_trace", *args, "-q"], check=True)
    return time.perf_counter() - start


def open_times(pages: list[Path], repeat: int) -> dict[str, list[float]]:
    from playwright.sync_api import sync_playwright

    times: dict[str, list[float]] = {page.name: [] for page in pages}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(repeat):
            for page_file in pages:
                tab = browser.new_page(viewport={"width": 1400, "height": 900})
                start = time.perf_counter()
                tab.goto(page_file.as_uri())
                tab.wait_for_selector("body[data-ready='true']", state="attached", timeout=300_000)
                tab.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                times[page_file.name].append(time.perf_counter() - start)
                tab.close()
        browser.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for seed, name in ((1, "this"), (2, "baseline")):
            gen_mlir.generate(work / name, functions=args.functions, rounds=args.rounds, seed=seed)
        one, pair = work / "one.html", work / "pair.html"
        print(f"render one run: {render([str(work / 'this'), '-o', str(one)]):.1f} s")
        print(
            f"render the pair: {render([str(work / 'this'), '--baseline', str(work / 'baseline'), '-o', str(pair)]):.1f} s"
        )
        for name, runs in open_times([one, pair], args.repeat).items():
            print(f"open {name}: min {min(runs):.2f} s, median {statistics.median(runs):.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
