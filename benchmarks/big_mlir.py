"""Benchmark big MLIR dumps (issue 19): a module-scope tree, the same dumps as one stream, and a 1 GB stream.

`gen_mlir.py --functions 60 --rounds 10` gives 2,411 dumps of a 60-function module (106 MB), written once as
a tree and once as a --mlir-print-ir-after-all stream; `--gigabyte` adds the same pipeline run for 100 rounds
as one stream (24,101 dumps, about 1.06 GB; generated in a temporary folder and deleted after). Each input
is rendered by `python -m pypto_ir_trace` in a subprocess: wall time, CPU seconds and the child's peak RSS.
The host reference (benchmarks/distinct_lines.py) is printed after the runs: this host's speed at this moment,
which moves the times by half from hour to hour. Targets are printed in parentheses; nothing is asserted.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bounds
import distinct_lines
import gen_mlir

TARGETS = {"tree": (6, None), "stream": (6, 300), "1 GB stream": (None, None)}  # (seconds, peak MB)


def inputs(work: Path, functions: int, rounds: int, gigabyte: bool) -> list[tuple[str, Path]]:
    """The dumps to render, generated under work: (name, path)."""
    made = [("tree", work / "tree"), ("stream", work / "stream.txt")]
    gen_mlir.generate(made[0][1], functions, rounds)
    gen_mlir.generate(made[1][1], functions, rounds, stream=True)
    if gigabyte:
        free = shutil.disk_usage(work).free
        if free < 3e9:  # the stream and its report, with room to spare for others on this machine
            raise SystemExit(f"{work}: {free / 1e9:.1f} GB free, the 1 GB stream needs 3")
        made.append(("1 GB stream", work / "big.txt"))
        gen_mlir.generate(made[2][1], functions, rounds * 10, stream=True)
    return made


def host_reference(work: Path) -> float:
    """tree-sitter's CPU seconds per 100,000 lines of distinct_lines.py's dump, measured now."""
    dump = distinct_lines.write_dump(work / "reference", 100, 1)
    return distinct_lines.host_reference(dump / "00_frontend.py")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--functions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--gigabyte", action="store_true", help="also a 1 GB stream (needs 3 GB free in --workdir)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per input: each is printed")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a run is stopped")
    parser.add_argument("--src", type=Path, default=bounds.SRC, help="the package's source tree to measure")
    parser.add_argument("--workdir", type=Path, default=None, help="where to generate (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        work = Path(tmp)
        made = inputs(work, args.functions, args.rounds, args.gigabyte)
        print(f"{'input':<12} {'dumps':>7} {'MB':>8} {'time s':>14} {'CPU s':>7} {'peak RSS MB':>16} {'report KB':>10}")
        for name, path in made:
            size = bounds.size_mb(path) if path.is_dir() else path.stat().st_size / 1e6
            dumps = sum(1 for _ in path.rglob("*.mlir")) if path.is_dir() else _headers(path)
            seconds, peak_target = TARGETS[name]
            for _ in range(args.repeat):
                report = work / "report.html"
                wall, cpu, peak = bounds.measure(path, report, args.src, args.timeout)
                shown = f"{wall:.2f}" if wall is not None else f">{args.timeout:.0f}"
                print(
                    f"{name:<12} {dumps:>7,} {size:8.1f} {shown + _target(seconds):>14} {cpu:7.2f} "
                    f"{f'{peak:.0f}' + _target(peak_target):>16} {report.stat().st_size / 1e3 if wall else 0:10.0f}",
                    flush=True,
                )
        print(
            f"host reference: tree-sitter parses 100,000 lines in {host_reference(work):.2f} CPU s here "
            "(1.8 on a fast hour, 2026-11-30: see benchmarks/README.md)"
        )
    return 0


def _headers(path: Path) -> int:
    with path.open("rb") as handle:
        return sum(line.startswith(b"// -----// IR Dump ") for line in handle)


def _target(bound: float | None) -> str:
    return f" (<= {bound})" if bound is not None else ""


if __name__ == "__main__":
    raise SystemExit(main())
