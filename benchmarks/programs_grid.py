"""The index page's programs x passes grid on the archive's 256 programs: from navigation to the grid painted.

Builds two CI-shaped roots (<program>/passes_dump/) from the unpacked archive (default /tmp/real, one directory
per dump): the baseline links every program, this run copies `--edits` of them and edits one snapshot onwards
(the runs then differ after that pass and every later one; every fourth edit touches that snapshot alone, so the
runs converge again). Runs `pypto-ir-trace NEW --baseline OLD -o DIR` once (kept in --workdir), then opens
DIR/index.html in Chromium: the time to the grid's first painted frame, and a frame while it scrolls. Prints
figures; never a pass/fail test.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import child
import run
import runs

SRC = child.SRC

# Time origin is the navigation: the grid is drawn by the page's one script while it loads.
PAINTED = """async () => {
  await new Promise(resolve => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); }));
  const painted = performance.now();
  const host = document.querySelector('.hg-host');
  const scrolls = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    host.scrollTop += host.clientHeight * (i % 3 === 2 ? -0.8 : 1.1);
    host.scrollLeft = (i * 97) % Math.max(1, host.scrollWidth - host.clientWidth);
    await new Promise(resolve => requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); }));
    scrolls.push(performance.now() - t0);
  }
  return {painted, scrolls, cells: document.querySelectorAll('.hg-cell').length,
          rows: document.querySelector('[role=grid]').getAttribute('aria-rowcount'),
          columns: document.querySelector('[role=grid]').getAttribute('aria-colcount')};
}"""


def make_roots(archive: Path, work: Path, edits: int, seed: int) -> tuple[Path, Path]:
    dumps = sorted(d for d in archive.iterdir() if (d / "passes_dump").is_dir())
    new, old = work / "new", work / "old"
    rng = random.Random(seed)
    chosen = set(rng.sample(range(len(dumps)), min(edits, len(dumps))))
    for i, copy in runs.link_roots(dumps, new, old, chosen).items():
        snapshots = sorted((copy / "passes_dump").glob("*.py"))
        start = rng.randrange(1, len(snapshots)) if len(snapshots) > 1 else 0
        for target in snapshots[start : start + 1 if i % 4 == 0 else None]:
            target.write_text(target.read_text(encoding="utf-8") + "# edited by the benchmark\n", encoding="utf-8")
    return new, old


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("/tmp/real"))
    parser.add_argument("--edits", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench/programs"))
    parser.add_argument("--rebuild", action="store_true", help="build the directory again even if --workdir has it")
    args = parser.parse_args(argv)
    out = args.workdir / "reports"
    if args.rebuild and args.workdir.exists():
        shutil.rmtree(args.workdir)
    if not (out / "index.html").exists():
        new, old = make_roots(args.archive, args.workdir, args.edits, args.seed)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pypto_ir_trace", str(new), "--baseline", str(old), "-o", str(out), "-q"],
            check=True,
            env=child.environment(SRC),
        )
        print(f"built {out} in {time.perf_counter() - start:.1f} s")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            times = []
            for _ in range(3):
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.goto((out / "index.html").resolve().as_uri())
                figures = page.evaluate(PAINTED)
                times.append(figures["painted"])
                page.close()
        finally:
            browser.close()
    scrolls = sorted(figures["scrolls"])
    size = (out / "index.html").stat().st_size
    print(
        f"index grid: {figures['rows']} rows x {figures['columns']} columns (headers included), {figures['cells']} cells "
        f"in the DOM; painted {statistics.median(times):.0f} ms after navigation (median of 3: "
        f"{', '.join(f'{t:.0f}' for t in times)}); a scroll frame median {statistics.median(scrolls):.1f} ms, "
        f"p90 {scrolls[int(0.9 * (len(scrolls) - 1))]:.1f} ms; index.html {size / 1024:,.0f} KB"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
