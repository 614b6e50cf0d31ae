"""Benchmark pypto-ir-trace on synthetic dumps: CLI time, peak memory, report size, browser timings."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import child
import gen_dump
import gen_mlir

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@dataclass(frozen=True)
class Case:
    functions: int
    lines: int
    passes: int
    targets: dict  # column -> upper bound; printed beside the figure, never asserted
    mlir: bool = False  # an MLIR tree (gen_mlir: `functions` functions, `passes` rounds), not a PyPTO dump


CASES = {
    "small": Case(10, 20, 10, {}),
    "medium": Case(50, 60, 60, {"cli_s": 3, "rss_mb": 300, "report_kb": 1024}),
    "large": Case(
        200, 100, 80, {"cli_s": 12, "rss_mb": 1024, "report_kb": 4096, "open_ms": 1500, "j_ms": 100, "select_ms": 100}
    ),
    "xlarge": Case(400, 150, 100, {"cli_s": 45, "rss_mb": 2560, "report_kb": 12288}),
    "mlir-small": Case(4, 0, 2, {}, mlir=True),
    # ~730 files, ~9.7 MB: the size of a real IREE tree dump
    "mlir": Case(18, 0, 10, {"cli_s": 10, "rss_mb": 500, "open_ms": 1500, "j_ms": 100}, mlir=True),
}

# (column key, header, format); the key names the figure in the results dict.
COLUMNS = [
    ("case", "case", "{}"),
    ("snapshot_lines", "snapshot lines", "{:,}"),
    ("dump_mb", "dump MB", "{:.1f}"),
    ("gzip_kb", "gzip KB", "{:,.0f}"),
    ("cli_s", "generation s", "{:.2f}"),
    ("rss_mb", "peak RSS MB", "{:.0f}"),
    ("report_kb", "report KB", "{:,.0f}"),
    ("ratio", "report/gzip", "{:.2f}"),
    ("open_ms", "open ms", "{:.0f}"),
    ("j_ms", "j-switch median ms", "{:.1f}"),
    ("select_ms", "function-select ms", "{:.1f}"),
    ("scroll_ms", "scroll step ms", "{:.1f}"),
]


def dump_sizes(dump: Path) -> tuple[int, int]:
    """Total bytes and gzip -6 bytes of the files concatenated in name order."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 31)
    total = packed = 0
    for path in sorted(p for p in dump.rglob("*") if p.is_file()):
        data = path.read_bytes()
        total += len(data)
        packed += len(packer.compress(data))
    return total, packed + len(packer.flush())


def run_cli(dump: Path, report: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of `python -m pypto_ir_trace`; wait4 gives this child's own rusage."""
    log = report.with_suffix(".stderr")
    with open(log, "wb") as err:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "pypto_ir_trace", str(dump), "-o", str(report)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            env=child.environment(),
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise RuntimeError(f"pypto_ir_trace exited {proc.returncode}: {log.read_text()[-2000:]}")
    # CPU time stays meaningful when other work shares the machine; wall time does not.
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


# Runs before the viewer: notes when the After pane first shows rows, and offers a "painted" promise.
INIT_SCRIPT = """
window.__afterPaint = () => new Promise(resolve => requestAnimationFrame(() => {
  const channel = new MessageChannel();  // fires after the frame that rAF started has been painted
  channel.port1.onmessage = () => resolve(performance.now());
  channel.port2.postMessage(0);
}));
(function check() {
  if (document.querySelector('#scroll-after .row')) {
    window.__afterPaint().then(t => { window.__firstDiff = t; });
    return;
  }
  requestAnimationFrame(check);
})();
"""

J_SWITCHES = """async (count) => {
  const nav = document.querySelector('nav[aria-label="Passes"]');
  const visible = () => Array.from(nav.querySelectorAll('button')).filter(b => b.offsetParent !== null);
  const current = () => nav.querySelector('[aria-current="true"]');
  const rows = () => document.querySelectorAll('#scroll-after .row').length;
  visible()[0].click();
  await window.__afterPaint();
  document.activeElement.blur();
  const times = [];
  const left = visible().length - 1 - visible().indexOf(current());
  for (let i = 0; i < Math.min(count, left); i++) {
    const was = current();
    const t0 = performance.now();
    document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'j', bubbles: true}));
    let t = await window.__afterPaint();
    for (let f = 0; f < 300 && (current() === was || rows() === 0); f++) t = await window.__afterPaint();
    times.push(t - t0);
  }
  return times;
}"""

# Selects the pass with the most changed lines; returns its size as +ins and -del.
LARGEST_PASS = """async () => {
  const nav = document.querySelector('nav[aria-label="Passes"]');
  let best = null, bestSize = -1;
  for (const button of nav.querySelectorAll('button')) {
    const counts = (button.textContent.match(/[+\\u2212-]\\d+/g) || []).map(s => parseInt(s.replace('\\u2212', '-').slice(1)));
    const size = counts.reduce((a, b) => a + b, 0);
    if (size > bestSize) { best = button; bestSize = size; }
  }
  best.click();
  await window.__afterPaint();
  return [best.textContent, bestSize];
}"""

FUNCTION_SELECT = """async () => {
  const select = document.querySelector('select[aria-label="Function"]');
  const options = Array.from(select.options).filter(o => o.value);
  const changed = options.filter(o => o.className.includes('changed'));
  const pick = (changed.length ? changed : options)[Math.floor((changed.length || options.length) / 2)];
  const timed = async value => {
    const t0 = performance.now();
    select.value = value;
    select.dispatchEvent(new Event('change', {bubbles: true}));
    return (await window.__afterPaint()) - t0;
  };
  if (!pick || select.disabled) return null;
  const toFunction = await timed(pick.value);
  const toWhole = await timed('');
  return [toFunction, toWhole, pick.value];
}"""

SCROLL = """async (steps) => {
  const expand = Array.from(document.querySelectorAll('button')).find(b => b.textContent.trim() === 'Expand all');
  let expandMs = null;
  if (expand && !expand.disabled) {
    const t0 = performance.now();
    expand.click();
    expandMs = (await window.__afterPaint()) - t0;
  }
  const scroller = document.getElementById('scroll-after');
  const max = scroller.scrollHeight - scroller.clientHeight;
  const times = [];
  let maxRows = 0;
  for (let i = 1; i <= steps; i++) {
    const t0 = performance.now();
    scroller.scrollTop = Math.round(max * i / steps);
    times.push((await window.__afterPaint()) - t0);
    maxRows = Math.max(maxRows, document.querySelectorAll('.row').length);
  }
  return {times, maxRows, totalRows: Math.round(scroller.scrollHeight / 20), expandMs};
}"""


def open_report(browser, report: Path, viewport=(1400, 900), fragment: str = "", timeout: int = 300_000):
    """A new page of `browser` showing the report, timed (INIT_SCRIPT), once it has painted its first diff."""
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.set_default_timeout(timeout)
    page.add_init_script(INIT_SCRIPT)
    page.goto(report.resolve().as_uri() + fragment)
    page.wait_for_function("() => document.body && document.body.dataset.ready === 'true'")
    page.wait_for_function("() => window.__firstDiff !== undefined")
    return page


def browser_figures(report: Path, switches: int = 20, steps: int = 100) -> dict:
    """Open the report in headless Chromium and time opening, `j` switches, function select, scrolling."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = open_report(browser, report)
            figures = {"open_ms": page.evaluate("window.__firstDiff")}
            j_times = page.evaluate(J_SWITCHES, switches)
            figures["j_ms"] = statistics.median(j_times) if j_times else None
            figures["j_max_ms"] = max(j_times) if j_times else None
            figures["largest_pass"] = page.evaluate(LARGEST_PASS)
            chosen = page.evaluate(FUNCTION_SELECT)
            if chosen:
                figures["select_ms"], figures["whole_file_ms"], figures["selected_function"] = chosen
            scroll = page.evaluate(SCROLL, steps)
            figures["scroll_ms"] = statistics.median(scroll["times"])
            figures["scroll_max_ms"] = max(scroll["times"])
            figures["dom_rows_max"] = scroll["maxRows"]
            figures["scroll_total_rows"] = scroll["totalRows"]
            figures["expand_all_ms"] = scroll["expandMs"]
            return figures
        finally:
            browser.close()


def case_dump(workdir: Path, name: str, seed: int, fresh: bool = False) -> Path:
    """The passes_dump/ of a synthetic PyPTO case under workdir/name, generated unless it is there (or `fresh`)."""
    case = CASES[name]
    dump = workdir / name / "passes_dump"
    if fresh or not any(dump.glob("*.py")):
        dump = gen_dump.generate(
            workdir / name,
            functions=case.functions,
            lines=case.lines,
            passes=case.passes,
            broken=1,
            broken_class=True,
            seed=seed,
        ).path
    return dump


def run_case(name: str, workdir: Path, browser: bool, seed: int) -> dict:
    case = CASES[name]
    out = workdir / name
    start = time.perf_counter()
    if case.mlir:
        generated = gen_mlir.generate(out, functions=case.functions, rounds=case.passes, seed=seed)
    else:
        generated = gen_dump.generate(
            out, functions=case.functions, lines=case.lines, passes=case.passes, broken=1, broken_class=True, seed=seed
        )
    dump_gen_s = time.perf_counter() - start
    total, packed = dump_sizes(generated.path)
    report = workdir / f"{name}.html"
    cli_s, cpu_s, rss_mb = run_cli(generated.path, report)
    size = report.stat().st_size
    row = {
        "case": name,
        "snapshot_lines": generated.snapshot_lines,
        "dump_mb": total / 1e6,
        "gzip_kb": packed / 1024,
        "dump_gen_s": dump_gen_s,
        "cli_s": cli_s,
        "cli_cpu_s": cpu_s,
        "rss_mb": rss_mb,
        "report_kb": size / 1024,
        "ratio": size / packed,
        "files": generated.files,
        "noop_passes": generated.changed.count(False),
        "passes": len(generated.changed),
    }
    if browser:
        row.update(browser_figures(report))
    return row


def cell(row: dict, key: str, fmt: str) -> str:
    value = row.get(key)
    text = "—" if value is None else fmt.format(value)
    target = CASES[row["case"]].targets.get(key)
    if target is not None and value is not None:
        text += f" (≤ {target:,})"
    return text


def table(rows: list[dict]) -> str:
    lines = ["| " + " | ".join(h for _, h, _ in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        lines.append("| " + " | ".join(cell(row, k, f) for k, _, f in COLUMNS) + " |")
    return "\n".join(lines)


def details(row: dict) -> str:
    keys = (
        "cli_cpu_s",
        "dump_gen_s",
        "files",
        "noop_passes",
        "passes",
        "j_max_ms",
        "whole_file_ms",
        "selected_function",
        "largest_pass",
        "expand_all_ms",
        "scroll_max_ms",
        "dom_rows_max",
        "scroll_total_rows",
    )
    parts = [f"{k}={row[k]:.2f}" if isinstance(row.get(k), float) else f"{k}={row.get(k)}" for k in keys if k in row]
    return f"- {row['case']}: " + ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", default="small", help=f"comma-separated, from {', '.join(CASES)}")
    parser.add_argument("--no-browser", action="store_true", help="skip the Chromium timings")
    parser.add_argument("--workdir", default="/tmp/pypto-ir-trace-bench", help="where dumps and reports go")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.cases.split(",") if n.strip()]
    unknown = [n for n in names if n not in CASES]
    if unknown:
        parser.error(f"unknown case(s): {', '.join(unknown)}")
    workdir = Path(args.workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in names:
        rows.append(run_case(name, workdir, not args.no_browser, args.seed))
        print(f"{name}: done", file=sys.stderr, flush=True)
    print(table(rows))
    print("\nTargets in parentheses (medium/large/xlarge CLI; browser on large); timings are never asserted.")
    print("\n".join(details(row) for row in rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
