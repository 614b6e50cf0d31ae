"""Benchmark pass switching when passes carry long warnings logs: ms per `j` switch, by log length.

Every pass has a .log of the given length (one line in ten names a line of its snapshot). Times run from
the `j` keydown to the painted frame (run.py's measure); min is the figure least disturbed by other load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import CHROMIUM, CHROMIUM_ARGS, INIT_SCRIPT, J_SWITCHES, run_cli

PASSES = 24
FUNCTIONS = 20


def program(step: int) -> str:
    """A small program; each pass renames one function's temporaries, so every pass changes a few lines."""
    lines = ["# pypto.program: bench", "import pypto.language as pl", "", "@pl.program", "class bench:"]
    for f in range(FUNCTIONS):
        tag = f"_v{step}" if f == step % FUNCTIONS else ""
        lines += [
            "    @pl.function(type=pl.FunctionType.InCore)",
            f"    def kernel_{f}(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:",
            f"        t{tag}: pl.Tile[[64], pl.FP32] = pl.tile.load(x, [0], [64])",
            f"        y{tag}: pl.Tensor[[64], pl.FP32] = pl.tile.store(t{tag}, [0], x)",
            f"        return y{tag}",
        ]
    return "\n".join(lines) + "\n"


def write_dump(root: Path, log_lines: int) -> Path:
    """PASSES passes, each with a log of log_lines lines; one in ten names a line of its snapshot."""
    dump = root / "passes_dump"
    dump.mkdir(parents=True)
    (dump / "00_frontend.py").write_text(program(0))
    for p in range(1, PASSES + 1):
        name = f"{p:02d}_after_Pass{p}"
        text = program(p)
        (dump / f"{name}.py").write_text(text)
        count = text.count("\n")
        log = [
            f"{name}.py:{k % count + 1}:9: warning: note {k} about this pass"
            if k % 10 == 0
            else f"warning: unanchored remark number {k} from the pass"
            for k in range(log_lines)
        ]
        (dump / f"{name}.log").write_text("\n".join(log) + "\n")
    return dump


def switch_times(report: Path, switches: int) -> list[float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.set_default_timeout(300_000)
            page.add_init_script(INIT_SCRIPT)
            page.goto(report.resolve().as_uri())
            page.wait_for_function("document.body && document.body.dataset.ready === 'true'")
            return page.evaluate(J_SWITCHES, switches)
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", default="0,2000,5000,20000", help="log lengths to try, comma-separated")
    parser.add_argument("--switches", type=int, default=PASSES - 1)
    args = parser.parse_args(argv)
    print(f"{'log lines':>10} {'j-switch median ms':>19} {'min ms':>8} {'max ms':>8}")
    with tempfile.TemporaryDirectory(prefix="pypto-ir-trace-logs-") as directory:
        for log_lines in (int(x) for x in args.lines.split(",")):
            root = Path(directory) / str(log_lines)
            dump = write_dump(root, log_lines)
            report = root / "report.html"
            run_cli(dump, report)
            times = switch_times(report, args.switches)
            print(
                f"{log_lines:>10,} {statistics.median(times):>19.1f} {min(times):>8.1f} {max(times):>8.1f}", flush=True
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
