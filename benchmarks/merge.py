"""Benchmark `pypto-ir-trace merge` on many programs: per size, the wall time and the child's peak RSS.

The shards are generated like a real run's `--summary-json` (kind "programs", every fourth program differs,
one in a hundred unreadable with an error), split into `--shards` files, and merged by the CLI in a
subprocess into `--summary-json` and `--summary-md` files; its CPU time is the steadier figure on a shared
machine. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from bounds import SRC, run_measured

STATUSES = ("identical", "identical", "identical", "differs")


def program(k: int) -> dict:
    name = f"models_program_{k:07d}_explicit"
    if k % 100 == 99:
        return {
            "name": name, "status": "unreadable", "report": None, "firstDivergent": None, "inserted": 0,
            "deleted": 0, "differing": 0, "rows": 0, "passes": [0, 0], "oneSide": 0,
            "error": "this run: passes_dump: index gap: 07 follows 05",
        }  # fmt: skip
    status = STATUSES[k % len(STATUSES)]
    differs = status == "differs"
    return {
        "name": name, "status": status, "report": f"{name}.html",
        "firstDivergent": "34 AllocateMemoryAddr" if differs else None, "inserted": 56 * differs,
        "deleted": 55 * differs, "differing": 15 * differs, "rows": 48, "passes": [48, 47], "oneSide": 1,
    }  # fmt: skip


def shards(folder: Path, programs: int, count: int) -> list[Path]:
    """count summary files of programs in all, each program in one of them (round robin), each in name order."""
    paths = []
    for k in range(count):
        entries = [program(i) for i in range(k, programs, count)]
        counts = dict.fromkeys(("identical", "differs", "this-run-only", "baseline-only", "unreadable"), 0)
        for entry in entries:
            counts[entry["status"]] += 1
        summary = {
            "version": 1, "kind": "programs", "generator": "benchmarks/merge.py", "this": "shard/new",
            "baseline": "shard/old", "directory": f"reports/shard-{k}", "index": f"reports/shard-{k}/index.html",
            "counts": counts, "programs": entries, "skipped": [],
        }  # fmt: skip
        path = folder / f"shard-{k}.json"
        path.write_text(json.dumps(summary, indent=1), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="25000,50000,100000,200000", help="programs in all, comma-separated")
    parser.add_argument("--shards", type=int, default=8, help="shard files the programs are split into")
    parser.add_argument("--src", type=Path, default=SRC, help="the package's source tree to measure")
    args = parser.parse_args()
    print(f"{'programs':>9} {'shards MB':>10} {'time s':>7} {'CPU s':>6} {'peak MB':>8} {'JSON MB':>8}")
    for size in map(int, args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            paths = shards(folder, size, args.shards)
            out, md = folder / "merged.json", folder / "merged.md"
            command = ["merge", *map(str, paths), "--summary-json", str(out), "--summary-md", str(md)]
            wall, cpu, peak = run_measured(command, args.src, timeout=1_000, codes=(0, 1))
            megabytes = sum(path.stat().st_size for path in paths) / 1e6
            shown = f"{wall:7.2f}" if wall is not None else "   >1000"
            print(
                f"{size:>9,} {megabytes:10.1f} {shown} {cpu:6.2f} {peak:8.0f} {out.stat().st_size / 1e6:8.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
