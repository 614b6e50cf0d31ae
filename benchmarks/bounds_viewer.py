"""The viewer's side of bounds.py: dumps that make one of the page's own computations large, and the time that
computation takes in headless Chromium, from the reader's act to the frame painted (median of fresh pages).

- `blame`: snapshots of N lines, 8 passes each changing an eighth of the lines; the Blame checkbox turned on at
  the last pass (every line on screen walked back to the pass that last changed it), then a page down with it on.
- `history`: one line changed by each of N passes; its line number pressed in the last pass (its history of N
  steps walked and shown).
- `name`: a name occurring N times (4 a line), two passes changing a tenth of its lines each; a click on it in
  the last pass (every occurrence marked in the panes as they are painted, the passes changing it listed).
- `map`: N functions x 60 passes, each pass changing a quarter of the functions; `m` to the map painted.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import run

HEAD = ["# pypto.program: bounds", "import pypto.language as pl", "", "@pl.program", "class P:"]


def _write(out: Path, snapshots: list[list[str]]) -> None:
    """A passes_dump/ of the snapshots (each its functions' lines), pass k named Pass<k>."""
    folder = out / "passes_dump"
    folder.mkdir(parents=True)
    for k, lines in enumerate(snapshots):
        name = "00_frontend.py" if k == 0 else f"{k:02d}_after_Pass{k}.py"
        (folder / name).write_text("\n".join([*HEAD, *lines, ""]), encoding="utf-8")


def _function(name: str, body: list[str]) -> list[str]:
    return [
        "    @pl.function",
        f"    def {name}(self, x):",
        *(f"        {line}" for line in body),
        "        return x",
        "",
    ]


def blame(out: Path, lines: int) -> None:
    def snapshot(s: int) -> list[str]:  # line j is changed by pass j % 8 + 1
        body = lambda f: [f"v{j} = pl.add(x, {j % 8 + 1 if j % 8 < s else 0})" for j in range(45)]
        return [line for f in range(lines // 50) for line in _function(f"f{f}", body(f))]

    _write(out, [snapshot(s) for s in range(9)])


def history(out: Path, passes: int) -> None:
    def snapshot(s: int) -> list[str]:  # v3 of f0 is changed by every pass
        body = lambda f: [f"v{j} = pl.add(x, {s if (f, j) == (0, 3) else j})" for j in range(16)]
        return [line for f in range(3) for line in _function(f"f{f}", body(f))]

    _write(out, [snapshot(s) for s in range(passes + 1)])


def name(out: Path, occurrences: int) -> None:
    def snapshot(s: int) -> list[str]:  # pass 1 changes the lines j % 10 == 0, pass 2 those j % 10 == 1
        tail = lambda j: f", {j}" if j % 10 < s else ""
        lines = [f"v{j} = pl.add(t__tile, t__tile, t__tile, t__tile{tail(j)})" for j in range(occurrences // 4)]
        return [line for f in range(0, len(lines), 50) for line in _function(f"f{f // 50}", lines[f : f + 50])]

    _write(out, [snapshot(s) for s in range(3)])


def pipeline_map(out: Path, functions: int) -> None:
    def snapshot(s: int) -> list[str]:  # pass s changes the first line of every fourth function
        body = lambda f: [f"v{j} = pl.add(x, {s if j == 0 and f % 4 == s % 4 else j})" for j in range(4)]
        return [line for f in range(functions) for line in _function(f"f{f}", body(f))]

    _write(out, [snapshot(s) for s in range(61)])


BLAME = """async () => {
  const scroller = document.querySelector('#scroll-after');
  const t0 = performance.now();
  document.querySelector('#blame-gutter').click();
  const toggle = (await window.__afterPaint()) - t0;
  const labels = scroller.querySelectorAll('.bl').length;
  const t1 = performance.now();
  scroller.scrollTop += scroller.clientHeight;
  scroller.dispatchEvent(new Event('scroll'));
  const page = (await window.__afterPaint()) - t1;
  return {ms: toggle, detail: `a screen of ${labels} labels; a page down with it on ${page.toFixed(0)} ms`};
}"""

HISTORY = """async () => {
  const row = [...document.querySelectorAll('#scroll-after .row')].find(r => r.textContent.includes('v3 = pl.add(x,'));
  const number = row.querySelector('.ln[role=button]');
  const t0 = performance.now();
  number.click();
  const ms = (await window.__afterPaint()) - t0;
  return {ms, detail: `${document.querySelectorAll('#line-history li').length} steps shown`};
}"""

NAME = """async () => {
  const code = [...document.querySelectorAll('#scroll-after .row .code')].find(c => c.textContent.includes('t__tile,'));
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  let node = walker.nextNode();
  while (node && !node.data.includes('t__tile')) node = walker.nextNode();
  const range = document.createRange();
  const at = node.data.indexOf('t__tile');
  range.setStart(node, at + 2);
  range.setEnd(node, at + 3);
  const box = range.getBoundingClientRect();
  const click = new MouseEvent('click', {bubbles: true, clientX: box.left + box.width / 2, clientY: box.top + box.height / 2});
  const t0 = performance.now();
  range.startContainer.parentElement.dispatchEvent(click);
  const ms = (await window.__afterPaint()) - t0;
  const panel = document.querySelector('#name-passes');
  return {ms, detail: `${document.querySelectorAll('#scroll-after mark').length} marks on screen; ` +
    `${panel.querySelectorAll('li').length} passes listed (${panel.getAttribute('aria-label')})`};
}"""

MAP = """async () => {
  const t0 = performance.now();
  document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'm', bubbles: true}));
  const ms = (await window.__afterPaint()) - t0;
  const grid = document.querySelector('[role=grid]');
  return {ms, detail: `${grid.getAttribute('aria-rowcount')} rows x ${grid.getAttribute('aria-colcount')} columns, ` +
    `${document.querySelectorAll('.hg-cell').length} cells in the DOM`};
}"""

# case -> the page's act, timed; the pass it is done at ("last", or the first changed pass the page opens on)
ACTS = {"blame": (BLAME, "last"), "history": (HISTORY, "last"), "name": (NAME, "last"), "map": (MAP, None)}


def measure(report: Path, case: str, rounds: int, last: str) -> tuple[float, str]:
    """(median ms, what was on screen) of the case's act in `rounds` fresh pages at 1400x900; `last`: the
    last pass's label."""
    from playwright.sync_api import sync_playwright

    act, at = ACTS[case]
    times, detail = [], ""
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=run.CHROMIUM, args=run.CHROMIUM_ARGS)
        try:
            for _ in range(rounds):
                fragment = f"#pass={last}" if at == "last" else ""
                page = run.open_report(browser, report, fragment=fragment, timeout=600_000)
                found = page.evaluate(act)
                times.append(found["ms"])
                detail = found["detail"]
                page.close()
        finally:
            browser.close()
    return statistics.median(times), detail


CASES = {
    "blame": (blame, [6_250, 12_500, 25_000, 50_000], "lines"),
    "history": (history, [25, 50, 100, 200], "passes"),
    "name": (name, [12_500, 25_000, 50_000, 100_000], "occurrences"),
    "map": (pipeline_map, [375, 750, 1_500, 3_000], "functions"),
}
