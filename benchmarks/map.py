"""The pipeline map in Chromium: from the `m` key to the map painted (its first opening builds its table, later ones
reuse it), and a frame while the grid scrolls; the model fields the map adds to the report, in bytes.

Cases: `large` (200 functions x 80 passes), `xlarge` (400 x 100), `mlir-tree` (benchmarks/gen_mlir.py --functions
60 --rounds 10: 2,411 dumps), or any report given with --report. The many-programs index grid is measured by
`benchmarks/programs_grid.py`. Prints figures; never a pass/fail test.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_mlir
import run

# The `m` key, then the frame that shows the map painted (run.INIT_SCRIPT's __afterPaint); then Escape and
# `m` again `times` times; then `steps` scrolls of the grid by a screen, each to its painted frame.
OPEN_AND_SCROLL = """async ([times, steps]) => {
  const key = (name, target) => (target || document.body).dispatchEvent(new KeyboardEvent('keydown', {key: name, bubbles: true}));
  const timed = async () => { const t0 = performance.now(); key('m'); return (await window.__afterPaint()) - t0; };
  const first = await timed();
  const again = [];
  for (let i = 0; i < times; i++) {
    key('Escape', document.activeElement);
    await window.__afterPaint();
    document.activeElement.blur();
    again.push(await timed());
  }
  const host = document.querySelector('.hg-host');
  const scrolls = [];
  for (let i = 0; i < steps; i++) {
    const t0 = performance.now();
    host.scrollTop += host.clientHeight * (i % 2 ? -0.9 : 1.1);
    host.scrollLeft += host.clientWidth * 0.37;
    if (host.scrollLeft + host.clientWidth >= host.scrollWidth - 1) host.scrollLeft = 0;
    scrolls.push((await window.__afterPaint()) - t0);
  }
  return {first, again, scrolls, cells: document.querySelectorAll('.hg-cell').length,
          rows: document.querySelector('[role=grid]').getAttribute('aria-rowcount'),
          columns: document.querySelector('[role=grid]').getAttribute('aria-colcount')};
}"""


def dump_of(workdir: Path, case: str, seed: int) -> Path:
    """The case's synthetic dump, generated unless --workdir has it."""
    if case == "mlir-tree":
        tree = workdir / "mlir-tree-60x10"
        if not tree.exists():
            gen_mlir.generate(tree, 60, 10, seed, False)
        return tree
    return run.case_dump(workdir, case, seed)


def added_bytes(report_json: dict) -> dict:
    """Bytes of the fields the map added (JSON, and gzip as the page carries it): pipelineMap, passes' ops, runs' byRegion."""
    added: dict = {"pipelineMap": [], "ops": [], "runs byRegion": []}
    for pipeline in report_json["pipelines"]:
        added["pipelineMap"].append(pipeline.get("pipelineMap", {}))
        added["ops"] += [p["ops"] for p in pipeline["passes"] if "ops" in p]
    added["runs byRegion"] = [
        row["byRegion"] for row in (report_json.get("runs") or {}).get("rows", []) if "byRegion" in row
    ]
    sizes = {}
    for name, value in added.items():
        raw = json.dumps(value, separators=(",", ":")).encode()
        sizes[name] = (len(raw), len(gzip.compress(raw, 6)))
    return sizes


def model_json(dump: Path) -> dict:
    from pypto_ir_trace import builder, model
    from pypto_ir_trace.formats import load

    return model.to_json(builder.build(load(dump, None), 3))


def measure(report: Path, times: int, steps: int, viewport: tuple[int, int]) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            page = run.open_report(browser, report, viewport)
            return page.evaluate(OPEN_AND_SCROLL, [times, steps])
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="large,xlarge,mlir-tree", help="comma-separated: large, xlarge, mlir-tree")
    parser.add_argument("--report", type=Path, help="measure this report instead")
    parser.add_argument("--times", type=int, default=5, help="openings after the first")
    parser.add_argument("--steps", type=int, default=30, help="scrolls of the grid")
    parser.add_argument(
        "--sizes", action="store_true", help="also build the model in-process and print the bytes the map adds"
    )
    parser.add_argument("--rebuild", action="store_true", help="build the reports again (the code changed)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench"))
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    jobs = [("report", args.report, None)] if args.report else []
    for case in [] if args.report else args.cases.split(","):
        dump = dump_of(args.workdir, case, args.seed)
        report = args.workdir / f"{case}-map.html"
        if args.rebuild or not report.exists():
            run.run_cli(dump, report)
        jobs.append((case, report, dump))
    for name, report, dump in jobs:
        figures = measure(report, args.times, args.steps, (1400, 900))
        scrolls = sorted(figures["scrolls"])
        print(
            f"{name}: {figures['rows']} rows x {figures['columns']} columns (headers included), "
            f"{figures['cells']} cells in the DOM; map shown in {figures['first']:.0f} ms the first time, "
            f"median {statistics.median(figures['again']):.0f} ms after; a scroll frame median "
            f"{statistics.median(scrolls):.1f} ms, p90 {scrolls[int(0.9 * (len(scrolls) - 1))]:.1f} ms "
            f"(report {report.stat().st_size / 1024:,.0f} KB)"
        )
        if args.sizes and dump is not None:
            for field, (raw, packed) in added_bytes(model_json(dump)).items():
                print(f"  model field {field}: {raw / 1024:,.1f} KB JSON, {packed / 1024:,.1f} KB gzip")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
