"""Benchmark real MLIR dumps (issue 30): fixtures/mlir/real's streams and trees, rendered by the CLI.

Each input (unpacked from its case's dumps.tar.xz into a temporary folder) is rendered by `python -m pypto_ir_trace`
in a subprocess, --repeat times: the least CPU seconds and wall time of the runs, the child's peak RSS, the dump's
size, MB per CPU second and its passes. This machine is shared: the minimum of a few runs is the figure to read,
and the host reference after the runs (benchmarks/distinct_lines.py) says how fast the host was at the time.
The README's figures to meet: local scope costs no more than module scope for the same compile, and real MLIR
renders at least as fast per MB as the synthetic MLIR tree, under 80 MB of memory. That tree (`gen_mlir.py`'s
18 functions and 10 rounds, 9.7 MB: the README's `--cases mlir`) is made and rendered in the same run, first, so
that the bar is measured on the same host at the same hour as the inputs held to it.
With --instructions, each input is run once under valgrind's callgrind instead, and its instruction count is
printed: the figure to compare versions by on a host too noisy for seconds. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bounds
import distinct_lines
import gen_mlir

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "mlir" / "real"
# (case, form): the compiles measured, module and local scope side by side
INPUTS = [
    ("sparsifier", "stream_module_scope.txt"),
    ("sparsifier", "stream_before_only.txt"),
    ("sparsifier", "stream_local_scope.txt"),
    ("sparsifier", "tree_module_scope"),
    ("sparsifier", "tree_local_scope"),
    ("iree_abs", "stream_module_scope.txt"),
    ("iree_abs", "stream_local_scope.txt"),
    ("iree_abs", "tree_module_scope"),
    ("iree_mlp", "stream_module_scope.txt"),
    ("iree_mlp", "stream_local_scope.txt"),
    ("split_tile_and_fuse", "stream_module_scope.txt"),
    ("split_tile_and_fuse", "stream_local_scope.txt"),
    ("transform_narrow_types", "tree_module_scope"),
    ("triton_add", "stream_before_only.txt"),
    ("triton_add", "stream_two_kernels.txt"),  # MLIR, then LLVM IR, twice: four pipelines
]
_HEADER = re.compile(rb"^(?:// -----// |(?:; |# )?\*\*\* )IR Dump ", re.MULTILINE)  # MLIR's, and LLVM's after them


SYNTHETIC = ("synthetic", "gen_mlir.py tree")  # the bar: 18 functions, 10 rounds


def _synthetic(work: Path) -> Path:
    """The synthetic MLIR tree of the README's figure (benchmarks/run.py's `mlir` case), made once."""
    out = work / "synthetic"
    if not out.is_dir():  # by a child process, as unpack: this one stays small
        subprocess.run([sys.executable, gen_mlir.__file__, str(out)], check=True, stdout=subprocess.DEVNULL)
    return out


def _unpacked(case: str, work: Path) -> Path:
    return work / case if (work / case).is_dir() else unpack(case, work)


def unpack(case: str, into: Path) -> Path:
    """The case's dumps unpacked by a child process: this one stays small (see passes)."""
    script = "import sys, tarfile; tarfile.open(sys.argv[1], 'r:xz').extractall(sys.argv[2], filter='data')"
    subprocess.run([sys.executable, "-c", script, str(REAL / case / "dumps.tar.xz"), str(into / case)], check=True)
    return into / case


def passes(path: Path) -> int:
    """The dumps of a tree or a stream, read a line at a time: a stream read whole would grow this process by its
    size, and a child forked from it would count that as its own peak RSS (Linux keeps it across exec)."""
    if path.is_dir():
        return sum(1 for _ in path.rglob("*.mlir"))
    with path.open("rb") as stream:
        return sum(1 for line in stream if _HEADER.search(line))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per input: the least time is shown")
    parser.add_argument("--only", default="", help="comma-separated cases (default: all; `synthetic`: the bar)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run is stopped")
    parser.add_argument("--src", type=Path, default=bounds.SRC, help="the package's source tree to measure")
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions with callgrind (one run each) instead of timing"
    )
    args = parser.parse_args()
    chosen = [(case, form) for case, form in [SYNTHETIC, *INPUTS] if not args.only or case in args.only.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        measured = _counted if args.instructions else _timed
        print(f"{'input':<46} {'passes':>6} {'MB':>6} " + measured(args, work, None, 0.0))
        for case, form in chosen:
            path = _synthetic(work) if (case, form) == SYNTHETIC else _unpacked(case, work) / form
            size = bounds.size_mb(path) if path.is_dir() else path.stat().st_size / 1e6
            print(
                f"{case + '/' + form:<46} {passes(path):>6} {size:6.1f} " + measured(args, work, path, size), flush=True
            )
        if not args.instructions:
            dump = distinct_lines.write_dump(work / "reference", 100, 1)
            print(
                f"host reference: tree-sitter parses 100,000 lines in {distinct_lines.host_reference(dump / '00_frontend.py'):.2f}"
                " CPU s here (1.8 on a fast hour, 2026-11-30: see benchmarks/README.md)"
            )
    return 0


def _timed(args: argparse.Namespace, work: Path, path: Path | None, size: float) -> str:
    """The input's columns of --repeat runs (the least times, the highest peak); None: their heading."""
    if path is None:
        return f"{'wall s':>7} {'CPU s':>6} {'MB/s':>6} {'peak MB':>8}"
    runs = [bounds.measure(path, work / "report.html", args.src, args.timeout) for _ in range(args.repeat)]
    wall = min((w for w, _, _ in runs if w is not None), default=None)
    cpu, peak = min(c for _, c, _ in runs), max(p for _, _, p in runs)
    shown = f"{wall:.2f}" if wall is not None else f">{args.timeout:.0f}"
    return f"{shown:>7} {cpu:6.2f} {size / cpu:6.1f} {peak:8.0f}"


def _counted(args: argparse.Namespace, work: Path, path: Path | None, size: float) -> str:
    """The input's instructions, one run under callgrind (bounds.instructions); None: the heading."""
    if path is None:
        return f"{'G instructions':>15}"
    found = bounds.instructions([str(path), "-o", str(work / "report.html"), "-q"], args.src, args.timeout * 60)
    return f"{found / 1e9:15.2f}"


if __name__ == "__main__":
    raise SystemExit(main())
