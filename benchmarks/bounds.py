"""Benchmark inputs that grow without bound: per hostile case and size, the CLI's wall time and peak memory.

Each case is generated at several sizes (doubling, or a hundredfold for the counter) and rendered by
`python -m pypto_ir_trace` in a subprocess; the table gives each size's time and peak RSS and their ratio
to the size before it, so growth is visible: a ratio near the size's own ratio is linear, near its square
quadratic. Start-up (about 1 s) is included: small sizes show ratios near 1. Nothing is asserted.

Cases: MLIR attributes nesting brackets (`mlir-brackets`), a Python snapshot nesting brackets
(`py-brackets`), nested `scf.execute_region` regions (`mlir-regions`), an MLIR tree whose second file has a
huge counter (`counter`: `0_canonicalize.mlir` and `<N>_cse.mlir`), N local-scope sibling functions, one
`func.func` pass each beside a module dump (`siblings`), a `.log` whose warnings all name one line (`log`),
one very long line (`long-line`).

Viewer cases (`bounds_viewer.py`: the report built as above, then one act timed in headless Chromium, the "view
ms" column): Blame on snapshots of N lines (`blame`), the history of a line changed by each of N passes
(`history`), following a name that occurs N times (`name`), the map of N functions x 60 passes (`map`).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bounds_viewer
import child

SRC = child.SRC
MODULE_HEADER = "// -----// IR Dump After {} ({}) ('builtin.module' operation) //----- //\n"
LOCAL_HEADER = "// -----// IR Dump After {} ({}) //----- //\n"  # local scope names no op (mlir-opt 19)
TREE_ROOT = "builtin_module_no-symbol-name"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _module(body: list[str]) -> str:
    return "\n".join(["module {", "  func.func @f() -> i32 {", *body, "  }", "}"]) + "\n"


def _mlir_pair(out: Path, body: Callable[[int], list[str]]) -> None:
    """A tree of two module dumps, the second a small change of the first."""
    for k, (arg, name) in enumerate([("canonicalize", "Canonicalizer"), ("cse", "CSE")]):
        _write(out / TREE_ROOT / f"{k}_{arg}.mlir", MODULE_HEADER.format(name, arg) + _module(body(k + 1)))


def _pypto_pair(out: Path, line: Callable[[int], str]) -> None:
    """A passes_dump/ of two snapshots of one function, the second a small change of the first."""
    for k, name in enumerate(["00_frontend.py", "01_after_Simplify.py"]):
        program = ["@pl.program", "class P:", "    @pl.function", "    def f(self, x):", f"        y = {line(k + 1)}"]
        _write(out / "passes_dump" / name, "\n".join([*program, "        return y", ""]))


def mlir_brackets(out: Path, depth: int) -> None:
    _mlir_pair(
        out,
        lambda v: [f"    %0 = arith.constant {{deep = {'[' * depth}{v}{']' * depth}}} : i32", "    return %0 : i32"],
    )


def py_brackets(out: Path, depth: int) -> None:
    _pypto_pair(out, lambda v: "[" * depth + str(v) + "]" * depth)


def mlir_regions(out: Path, depth: int) -> None:
    def body(v: int) -> list[str]:
        inner = [f"%c{v} = arith.constant {v} : i32", "scf.yield"]
        return [
            *["scf.execute_region {"] * depth,
            *inner,
            *["}"] * depth,
            "    %r = arith.constant 0 : i32",
            "    return %r : i32",
        ]

    _mlir_pair(out, body)


def counter(out: Path, last: int) -> None:
    for k, (label, arg, name) in enumerate([(0, "canonicalize", "Canonicalizer"), (last, "cse", "CSE")]):
        text = _module([f"    %0 = arith.constant {k} : i32", "    return %0 : i32"])
        _write(out / TREE_ROOT / f"{label}_{arg}.mlir", MODULE_HEADER.format(name, arg) + text)


def siblings(out: Path, count: int) -> None:
    def function(i: int, value: int, indent: str) -> list[str]:
        return [
            f"{indent}func.func @f{i}() -> i32 {{",
            f"{indent}  %0 = arith.constant {value} : i32",
            f"{indent}  return %0 : i32",
            f"{indent}}}",
        ]

    module = ["module {", *(line for i in range(count) for line in function(i, i, "  ")), "}", ""]
    _write(
        out / TREE_ROOT / "0_canonicalize.mlir",
        LOCAL_HEADER.format("Canonicalizer", "canonicalize") + "\n".join(module),
    )
    for i in range(count):
        text = "\n".join([*function(i, i + 1, ""), ""])
        _write(out / TREE_ROOT / f"func_func_f{i}" / "0_0_cse.mlir", LOCAL_HEADER.format("CSE", "cse") + text)


def log(out: Path, warnings: int) -> None:
    _pypto_pair(out, lambda v: str(v))
    lines = [f"01_after_Simplify.py:5:9: warning: remark {k} about this line" for k in range(warnings)]
    _write(out / "passes_dump" / "01_after_Simplify.log", "\n".join(lines) + "\n")


def long_line(out: Path, megabytes: float) -> None:
    items = int(megabytes * 1e6 / 8)
    _pypto_pair(out, lambda v: "[" + ", ".join(str(i * v % 999_983) for i in range(items)) + "]")


# case -> (generator, sizes, what a size counts)
CASES: dict[str, tuple[Callable[[Path, int], None] | Callable[[Path, float], None], list, str]] = {
    "mlir-brackets": (mlir_brackets, [2_000, 4_000, 8_000, 16_000], "levels"),
    "py-brackets": (py_brackets, [4_000, 8_000, 16_000, 32_000], "levels"),
    "mlir-regions": (mlir_regions, [5_000, 10_000, 20_000, 40_000], "regions"),
    "counter": (counter, [3_000, 300_000, 30_000_000], "counter"),
    "siblings": (siblings, [250, 500, 1_000, 2_000], "functions"),
    "log": (log, [7_500, 15_000, 30_000, 60_000], "warnings"),
    "long-line": (long_line, [0.625, 1.25, 2.5, 5.0], "MB line"),
    **bounds_viewer.CASES,
}


def render(dump: Path, report: Path, src: Path, timeout: float) -> tuple[float | None, float]:
    """(wall seconds or None past the timeout, peak RSS MB) of the CLI on the dump."""
    wall, _, peak = measure(dump, report, src, timeout)
    return wall, peak


def measure(dump: Path, report: Path, src: Path, timeout: float) -> tuple[float | None, float, float]:
    """(wall seconds or None past the timeout, CPU seconds, peak RSS MB) of the CLI on the dump."""
    return run_measured([str(dump), "-o", str(report), "-q"], src, timeout)


def instructions(arguments: list[str], src: Path, timeout: float) -> int:
    """Instructions run by `python -m pypto_ir_trace ARGUMENTS` and the workers it forks, as valgrind's callgrind
    counts them: the same figure for the same build and input however busy the host is (on a shared VM whose CPU
    seconds vary by a third between runs, and where `perf` counts nothing). About 50 times slower than a run."""
    if not shutil.which("valgrind"):
        raise SystemExit("instructions: valgrind is not installed (apt-get install valgrind)")
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={tmp}/cg.%p",
            sys.executable, "-m", "pypto_ir_trace", *arguments,
        ]  # fmt: skip
        subprocess.run(
            command, env=child.environment(src), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout
        )
        return sum(_summary(path) for path in Path(tmp).glob("cg.*"))


def _summary(path: Path) -> int:
    """The instruction count of one callgrind output file (its `summary:` line)."""
    with path.open() as out:
        return next((int(line.split()[1]) for line in out if line.startswith("summary:")), 0)


def run_measured(
    arguments: list[str], src: Path, timeout: float, codes: tuple[int, ...] = (0,)
) -> tuple[float | None, float, float]:
    """(wall seconds or None past the timeout, CPU seconds, peak RSS MB) of `python -m pypto_ir_trace
    ARGUMENTS`; an exit code outside codes ends the benchmark."""
    command = [sys.executable, "-m", "pypto_ir_trace", *arguments]
    env = child.environment(src)
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    while True:  # os.wait4 reaps the child and gives its own peak RSS (Popen.wait would reap it first)
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > timeout:
            process.kill()
            _, status, usage = os.wait4(process.pid, 0)
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (*codes, -9):
        raise SystemExit(f"{' '.join(arguments)}: the CLI failed with exit code {process.returncode}")
    cpu = usage.ru_utime + usage.ru_stime
    return (wall if process.returncode != -9 else None), cpu, usage.ru_maxrss / 1024


def size_mb(root: Path) -> float:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file()) / 1e6


def _ratio(now: float | None, before: float | None) -> str:
    return f"{now / before:6.2f}" if now is not None and before else "      "


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    parser.add_argument("--repeat", type=int, default=1, help="runs per size: the minimum time is shown")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before a run is stopped")
    parser.add_argument("--src", type=Path, default=SRC, help="the package's source tree to measure")
    parser.add_argument("--rounds", type=int, default=3, help="fresh pages per size of a viewer case: the median")
    args = parser.parse_args()
    print(
        f"{'case':<14} {'size':>20} {'input MB':>9} {'time s':>8} {'x':>6} {'peak MB':>8} {'x':>6} {'view ms':>8} {'x':>6}"
    )
    for case in args.cases.split(","):
        generate, sizes, unit = CASES[case]
        previous: tuple[float | None, float, float | None] | None = None
        for size in sizes:
            view, detail = None, ""
            with tempfile.TemporaryDirectory() as tmp:
                dump, report = Path(tmp) / "dump", Path(tmp) / "report.html"
                generate(dump, size)
                runs = [render(dump, report, args.src, args.timeout) for _ in range(args.repeat)]
                megabytes = size_mb(dump)
                if case in bounds_viewer.CASES and runs[-1][0] is not None:
                    last = f"{len(list(dump.glob('passes_dump/*_after_*.py'))):02d}"
                    view, detail = bounds_viewer.measure(report, case, args.rounds, last)
            finished = [wall for wall, _ in runs if wall is not None]
            wall, peak = (min(finished) if len(finished) == len(runs) else None), max(p for _, p in runs)
            shown = f"{wall:8.2f}" if wall is not None else f">{args.timeout:7.0f}"
            growth = _ratio(wall, previous and previous[0])
            peak_growth = _ratio(peak, previous and previous[1])
            viewed = f"{view:8.0f} {_ratio(view, previous and previous[2])}  {detail}" if view is not None else ""
            line = f"{case:<14} {f'{size:,} {unit}':>20} {megabytes:9.2f} {shown} {growth} {peak:8.0f} {peak_growth} {viewed}"
            print(line.rstrip(), flush=True)
            previous = (wall, peak, view)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
