"""Pass switching in the viewer, measured inside the page: `j` keydown to two animation frames later.

Prints figures (median, spread, open time); with --profile, where the main thread spent them (Chrome
DevTools Protocol sampling profiler, self time by function); with --cpu, the renderer main thread's CPU
time per switch from a trace, split by phase (script, style, layout, paint...): unlike the wall-clock
median it hardly moves when other work shares the machine. Never a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run

# One switch: the keydown, then two requestAnimationFrame callbacks; the second runs once the frame
# the first one opened has been styled, laid out and painted, so it includes the whole update. `pause`:
# milliseconds waited after each switch (a reader who stops: the work the viewer leaves for then is done).
SWITCHES = """async ([count, pause]) => {
  const nav = document.querySelector('nav[aria-label="Passes"]');
  const frame = () => new Promise(resolve => requestAnimationFrame(resolve));
  nav.querySelector('button').click();
  await frame(); await frame();
  document.activeElement.blur();
  const times = [];
  for (let i = 0; i < count; i++) {
    const was = nav.querySelector('[aria-current="true"]');
    const t0 = performance.now();
    document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'j', bubbles: true}));
    await frame(); await frame();
    if (nav.querySelector('[aria-current="true"]') === was) break;  // the last visible pass
    times.push(performance.now() - t0);
    if (pause) await new Promise(resolve => setTimeout(resolve, pause));
  }
  return times;
}"""


def build_report(workdir: Path, case: str, seed: int, fresh: bool) -> Path:
    """The report of a benchmark case's synthetic dump, built by the current code (the dump is kept unless `fresh`)."""
    dump = run.case_dump(workdir, case, seed, fresh)
    report = workdir / f"{case}-switch.html"
    run.run_cli(dump, report)
    return report


def profile_times(profile: dict) -> tuple[Counter, Counter]:
    """Milliseconds per function (name, script and line) in a CDP Profiler profile: its self time, and its total
    time (itself and what it called; a function on the stack twice counts once)."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {child: node["id"] for node in profile["nodes"] for child in node.get("children", [])}

    def where(node: dict) -> str:
        frame = node["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        return f"{name} {Path(frame['url']).name}:{frame['lineNumber'] + 1}" if frame.get("url") else name

    deltas = profile.get("timeDeltas", [])
    own: Counter = Counter()
    total: Counter = Counter()
    for sample, delta in zip(profile.get("samples", []), [*deltas[1:], 0]):
        own[where(nodes[sample])] += delta / 1000
        stack, at = set(), sample
        while at is not None:
            stack.add(where(nodes[at]))
            at = parent.get(at)
        for name in stack:
            total[name] += delta / 1000
    return own, total


# Trace events that split a frame's main-thread work; nested ones of the same name are counted once.
PHASES = ("EventDispatch", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "Layerize")


def thread_times(events: list, switches: int) -> dict:
    """Main-thread CPU ms per switch: all tasks ("total") and the phases above, outermost events only."""
    calls = Counter(e["tid"] for e in events if e.get("name") == "FunctionCall")
    main = calls.most_common(1)[0][0]
    spent: Counter = Counter()
    ends: dict = {}
    timed = (e for e in events if e.get("tid") == main and e.get("ph") == "X" and "tdur" in e)
    for e in sorted(timed, key=lambda e: (e["ts"], -e["dur"])):
        name = "total" if e["name"] == "ThreadControllerImpl::RunTask" else e["name"]
        if (name not in PHASES and name != "total") or ends.get(name, 0) > e["ts"]:
            continue
        ends[name] = e["ts"] + e["dur"]
        spent[name] += e["tdur"] / 1000
    return {name: ms / switches for name, ms in spent.items()}


def measure(report: Path, switches: int, rounds: int, profile: bool, cpu: bool = False, pause: int = 0) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            page = run.open_report(browser, report)
            figures = {"open_ms": page.evaluate("window.__firstDiff"), "times": []}
            cdp = page.context.new_cdp_session(page) if profile else None
            if cdp:
                cdp.send("Profiler.enable")
                cdp.send("Profiler.setSamplingInterval", {"interval": 200})
                cdp.send("Profiler.start")
            for _ in range(rounds):
                figures["times"] += page.evaluate(SWITCHES, [switches, pause])
            if cdp:
                figures["profile"], figures["inclusive"] = profile_times(cdp.send("Profiler.stop")["profile"])
            if cpu:
                browser.start_tracing(page=page, categories=["toplevel", "devtools.timeline"])
                traced = page.evaluate(SWITCHES, [switches, pause])
                events = json.loads(browser.stop_tracing())
                events = events["traceEvents"] if isinstance(events, dict) else events
                figures["cpu"] = thread_times(events, max(len(traced), 1))
            return figures
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", default="large", choices=sorted(run.CASES))
    parser.add_argument("--report", type=Path, help="measure this report instead of generating one")
    parser.add_argument("--switches", type=int, default=40, help="j presses per round, from the first pass")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="also print the top self times (CDP profiler)")
    parser.add_argument("--cpu", action="store_true", help="also print main-thread CPU time per switch (a trace)")
    parser.add_argument(
        "--pause",
        type=int,
        default=0,
        metavar="MS",
        help="wait this long after each switch (the CPU time then includes what the viewer builds once the reader pauses)",
    )
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench"))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--fresh", action="store_true", help="generate the dump again even if --workdir has it")
    args = parser.parse_args(argv)
    args.workdir.mkdir(parents=True, exist_ok=True)
    report = args.report or build_report(args.workdir, args.case, args.seed, args.fresh)
    figures = measure(report, args.switches, args.rounds, args.profile, args.cpu, args.pause)
    times = sorted(figures["times"])
    print(f"report: {report} ({report.stat().st_size / 1024:,.0f} KB)")
    print(f"open: {figures['open_ms']:.0f} ms")
    if times:
        print(
            f"j switch ({len(times)} presses): median {statistics.median(times):.1f} ms, "
            f"p90 {times[int(0.9 * (len(times) - 1))]:.1f} ms, min {times[0]:.1f} ms, max {times[-1]:.1f} ms"
        )
    if "cpu" in figures:
        phases = ", ".join(f"{name} {figures['cpu'].get(name, 0):.1f}" for name in PHASES)
        print(f"main-thread CPU per switch: {figures['cpu'].get('total', 0):.1f} ms ({phases})")
    print(
        f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall times grow with it, CPU times hardly)"
    )
    if "profile" in figures:
        total = sum(figures["profile"].values())
        print(f"\nself time while switching ({total:.0f} ms sampled), top functions:")
        for where, ms in figures["profile"].most_common(25):
            print(f"  {ms:8.1f} ms  {100 * ms / total:5.1f}%  {where}")
        print("\ntotal time (the function and what it called), top functions:")
        for where, ms in figures["inclusive"].most_common(40):
            print(f"  {ms:8.1f} ms  {100 * ms / total:5.1f}%  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
