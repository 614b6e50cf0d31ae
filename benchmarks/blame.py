"""Line history and the blame gutter, measured inside the page on a synthetic dump (never a pass/fail test).

- query: a line number pressed in the last pass's After pane, to its history shown (the chain walked back through
  every pass, the panel built, the line picked); the click handler does it all synchronously, so the time is
  the click's. Lines across the whole file (scrolled to), each asked once: nothing is remembered between them
  but the diffs' block tables.
- gutter: the Blame checkbox turned on at the last pass in a freshly opened page (no origin known yet: every
  line on screen walked back to the pass that last changed it), to two animation frames later (painted); then
  paging down with it on (new lines walked), against paging down with it off.
- --logic: the walks alone (blame.js under Node, blame_logic.js): one line's chain, and the origins of a screen of
  66 lines, each in a fresh engine. CPU work only, so it hardly moves when other work shares the machine, unlike
  the page's wall-clock figures (which include building and painting the rows, as a pass switch does).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from importlib import resources
from pathlib import Path

from pypto_ir_trace import render

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run

QUERIES = """async count => {
  const scroller = document.querySelector('#scroll-after');
  const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
  const times = [], steps = [];
  for (let i = 0; i < count; i++) {
    scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) * i / Math.max(count - 1, 1);
    scroller.dispatchEvent(new Event('scroll'));
    await frame(); await frame();
    const numbers = [...scroller.querySelectorAll('.ln[role=button]')];
    const button = numbers[Math.floor(numbers.length / 2)];
    const t0 = performance.now();
    button.click();
    times.push(performance.now() - t0);
    steps.push(document.querySelectorAll('#line-history li').length);
    await frame();
  }
  return {times, steps};
}"""

GUTTER = """async pages => {
  const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
  const scroller = document.querySelector('#scroll-after');
  const box = document.querySelector('#blame-gutter');
  const paging = async () => {
    const times = [];
    for (let i = 0; i < pages; i++) {
      const t0 = performance.now();
      scroller.scrollTop += scroller.clientHeight;
      scroller.dispatchEvent(new Event('scroll'));
      await frame(); await frame();
      times.push(performance.now() - t0);
    }
    return times;
  };
  const off = await paging();
  scroller.scrollTop = 0;
  await frame(); await frame();
  const t0 = performance.now();
  box.click();
  await frame(); await frame();
  const toggle = performance.now() - t0;
  const labels = document.querySelectorAll('#scroll-after .bl').length;
  const on = await paging();
  return {toggle, labels, off, on};
}"""


def build_report(workdir: Path, case: str, seed: int) -> Path:
    dump = run.case_dump(workdir, case, seed)
    report = workdir / f"{case}-blame.html"
    run.run_cli(dump, report)
    return report


def last_pass(page) -> str:
    return page.evaluate("""() => {
      const buttons = document.querySelectorAll('nav[aria-label="Passes"] button');
      return buttons[buttons.length - 1].textContent.trim().split(/\\s+/)[0];
    }""")


def measure(report: Path, queries: int, rounds: int, pages: int) -> dict:
    from playwright.sync_api import sync_playwright

    figures: dict = {"query": [], "steps": [], "toggle": [], "labels": [], "off": [], "on": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            for _ in range(rounds):  # a fresh page each round: nothing known of any line yet
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                page.set_default_timeout(300_000)
                page.goto(report.resolve().as_uri())
                page.wait_for_function("() => document.body && document.body.dataset.ready === 'true'")
                page.goto(report.resolve().as_uri() + f"#pass={last_pass(page)}")
                page.reload()
                page.wait_for_function("() => document.querySelector('#scroll-after .ln[role=button]')")
                gutter = page.evaluate(GUTTER, pages)
                for key in ("off", "on"):
                    figures[key] += gutter[key]
                figures["toggle"].append(gutter["toggle"])
                figures["labels"].append(gutter["labels"])
                asked = page.evaluate(QUERIES, queries)
                figures["query"] += asked["times"]
                figures["steps"] += asked["steps"]
                page.close()
        finally:
            browser.close()
    return figures


def spread(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"median {statistics.median(ordered):.1f} ms, p90 {ordered[round(0.9 * (len(ordered) - 1))]:.1f} ms, "
        f"max {ordered[-1]:.1f} ms ({len(ordered)} samples)"
    )


SCRIPTS = ("rows.js", "linediff.js", "compare.js", "model.js", "renumber.js", "blame.js")


def logic(report: Path) -> dict:
    """blame_logic.js's figures on the report's data (Node runs the page's own scripts)."""
    node = shutil.which("node") or "/usr/bin/node"
    static = resources.files("pypto_ir_trace").joinpath("static")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "data.json"
        data.write_text(json.dumps(render.decode_data(report.read_text("utf-8"))), "utf-8")
        harness = Path(__file__).with_name("blame_logic.js")
        scripts = [str(static.joinpath(name)) for name in SCRIPTS]
        done = subprocess.run([node, str(harness), str(data), *scripts], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", default="large", choices=sorted(run.CASES))
    parser.add_argument("--report", type=Path, help="measure this report instead of generating one")
    parser.add_argument("--queries", type=int, default=20, help="lines asked for their history per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", type=int, default=10, help="pages scrolled with the gutter off, then on")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--logic", action="store_true", help="also time the walks alone, under Node")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    report = args.report or build_report(args.workdir, args.case, args.seed)
    print(f"report: {report} ({report.stat().st_size / 1024:,.0f} KB)")
    if args.logic:
        walks = logic(report)
        print(f"walks alone (Node), last pass of {walks['passes']}, {walks['lines']:,} lines:")
        print(f"  first use rebuilds the snapshot's line ids: {walks['idsMs']:.1f} ms")
        print(f"  one line's chain, fresh engine: {spread(walks['chain'])}; steps up to {max(walks['steps'])}")
        print(f"  origins of a screen of 66 lines, fresh engine: {spread(walks['screen'])}")
    figures = measure(report, args.queries, args.rounds, args.pages)
    print(f"history of one line (click to panel shown): {spread(figures['query'])}")
    print(f"  steps per chain: median {statistics.median(figures['steps']):.0f}, max {max(figures['steps'])}")
    print(
        f"blame gutter on, fresh page, last pass (a screen of {max(figures['labels'])} labels): {spread(figures['toggle'])}"
    )
    print(f"a page down with the gutter off: {spread(figures['off'])}")
    print(f"a page down with the gutter on:  {spread(figures['on'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
