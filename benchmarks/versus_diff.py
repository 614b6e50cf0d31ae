"""The report's time against GNU diff's over the same consecutive snapshots, in one run (issue 33).

What a user does by hand is `diff` of every consecutive pair of snapshots; a ratio to it holds from host to
host where absolute times on a shared machine do not. Per case this prints, best of `--repeat` rounds (the
rounds alternate the tools, so both meet the same moments of the host):

- report: `pypto-ir-trace INPUT -o REPORT -q`, wall and CPU (the child's user + sys) seconds;
- start-up: `pypto-ir-trace --version`, the fixed cost before any input is read;
- diff: `diff OLD NEW > /dev/null` of every consecutive pair, one process per pair, summed;
- the ratio (report - start-up) / diff, of wall and of CPU times;
- with --floor, tree-sitter's own share (benchmarks/treesitter_share.py, in a child process): the CPU seconds of
  the parses and query walks the report makes, over diff's CPU. What the report does in tree-sitter no work of
  its own removes (the design parses every snapshot with it), so this ratio is a floor for the report's.

Cases: `large` (benchmarks/run.py's synthetic 200 functions x 100 lines x 80 passes, generated into
--workdir), `qwen3` (models_qwen3_decode_explicit of the real dumps archive, unpacked into --workdir) and
`mlir` (a real module-scope after-all stream: --mlir-stream FILE, or made from --mlir-input with
MLIR_COMMAND below). The MLIR stream's snapshots are written out one file each for diff (the dumps as the
report reads them, without their header lines). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tarfile
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import child
import run

ROOT = Path(__file__).resolve().parents[1]
ARCHIVE = ROOT.parent / "shared" / "dumps" / "real-pypto-dumps.tar.xz"
QWEN3 = "models_qwen3_decode_explicit"
# The stream of the figures: the input is llvm-project's
# mlir/test/Integration/Dialect/SparseTensor/CPU/sparse_matmul.mlir (commit 06a15527b8676b1832600d8f7000827506ba7eaf)
# with its encodings in MLIR 19's map syntax; Debian's mlir-opt-19 19.1.7 writes 148 dumps, 14.4 MB, to stderr.
MLIR_COMMAND = [
    "mlir-opt-19",
    "--sparsifier",
    "--mlir-print-ir-after-all",
    "--mlir-print-ir-module-scope",
    "--mlir-disable-threading",
]
CLI = [sys.executable, "-m", "pypto_ir_trace"]


def timed(command: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and the child's CPU seconds (user + sys) of one command, which must succeed (diff: 0 or 1)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    if process.returncode not in (0, 1) or (process.returncode == 1 and command[0] != "diff"):
        raise SystemExit(f"{' '.join(command)} failed ({process.returncode}): {errors.strip()}")
    return wall, usage.ru_utime + usage.ru_stime


def diff_pairs(snapshots: list[Path]) -> tuple[float, float]:
    """GNU diff of every consecutive pair, one process each (as by hand), summed."""
    wall = cpu = 0.0
    for old, new in pairwise(snapshots):
        w, c = timed(["diff", str(old), str(new)])
        wall, cpu = wall + w, cpu + c
    return wall, cpu


def large(workdir: Path) -> Path:
    return run.case_dump(workdir, "large", seed=0)


def qwen3(workdir: Path) -> Path:
    dump = workdir / QWEN3 / "passes_dump"
    if not any(dump.glob("*.py")):
        with tarfile.open(ARCHIVE) as archive:
            members = [m for m in archive.getmembers() if m.name.lstrip("./").startswith(QWEN3 + "/")]
            archive.extractall(workdir, members=members, filter="data")
    return dump


def mlir_stream(workdir: Path, given: Path | None, source: Path | None) -> Path | None:
    if given is not None:
        return given
    if source is None:
        return None
    stream = workdir / "mlir" / (source.stem + ".stream.mlir")
    if not stream.exists():
        stream.parent.mkdir(parents=True, exist_ok=True)
        with stream.open("wb") as out:
            subprocess.run([*MLIR_COMMAND, str(source), "-o", os.devnull], stderr=out, check=True)
    return stream


def snapshot_files(dump: Path, workdir: Path) -> list[Path]:
    """The snapshots as the report reads them, in its order: a passes_dump's own files, else each written out."""
    sys.path.insert(0, str(ROOT / "src"))
    from pypto_ir_trace.formats import load

    (read,) = load(dump)
    if all(s.path is not None and s.source is None for s in read.snapshots):
        return [s.path for s in read.snapshots if s.path is not None]
    folder = workdir / "snapshots" / dump.name
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for snapshot in read.snapshots:
        path = folder / f"{snapshot.index:05d}.mlir"
        if not path.exists():
            path.write_text(snapshot.text, encoding="utf-8")
        files.append(path)
    return files


def measure(name: str, dump: Path, workdir: Path, repeat: int, sources: list[Path], floor: bool) -> list[dict]:
    """One row per source tree; each round runs diff, then each tree's start-up and report, so that all of them
    meet the same moments of the host. Each figure is the best of its rounds."""
    snapshots = snapshot_files(dump, workdir)
    report = workdir / f"{name}.versus.html"
    diff = NONE
    start, made = [NONE] * len(sources), [NONE] * len(sources)
    inside = [float("inf")] * len(sources)  # tree-sitter's CPU seconds in the report (--floor)
    for _ in range(repeat):
        diff = best(diff, diff_pairs(snapshots))
        for i, src in enumerate(sources):
            env = child.environment(src)
            start[i] = best(start[i], timed([*CLI, "--version"], env))
            made[i] = best(made[i], timed([*CLI, str(dump), "-o", str(report), "-q"], env))
            if floor:
                inside[i] = min(inside[i], treesitter_seconds(dump, src, env))
    return [
        {
            "case": name,
            "src": src,
            "snapshots": len(snapshots),
            "mb": sum(p.stat().st_size for p in snapshots) / 1e6,
            "report": made[i],
            "start": start[i],
            "diff": diff,
            "ratio": ((made[i][0] - start[i][0]) / diff[0], (made[i][1] - start[i][1]) / diff[1]),
            "floor": (inside[i], inside[i] / diff[1]) if floor else None,
        }
        for i, src in enumerate(sources)
    ]


def treesitter_seconds(dump: Path, src: Path, env: dict[str, str]) -> float:
    """CPU seconds the report of dump spends in tree-sitter's parses and query walks (treesitter_share.py)."""
    share = Path(__file__).resolve().parent / "treesitter_share.py"
    found = subprocess.run(
        [sys.executable, str(share), str(dump), "--src", str(src), "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    spent = json.loads(found.stdout)
    return spent["parse"] + spent["query"]


NONE = (float("inf"), float("inf"))


def best(old: tuple[float, float], new: tuple[float, float]) -> tuple[float, float]:
    return min(old[0], new[0]), min(old[1], new[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", default="large,qwen3,mlir")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/pypto-ir-trace-bench"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mlir-stream", type=Path, help="a module-scope --mlir-print-ir-after-all stream")
    parser.add_argument("--mlir-input", type=Path, help="an MLIR file to make the stream from (MLIR_COMMAND)")
    parser.add_argument("--floor", action="store_true", help="also tree-sitter's own CPU seconds in the report")
    parser.add_argument(
        "--src",
        type=Path,
        action="append",
        help="a source tree to measure (repeatable: alternated); default: this one's",
    )
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    inputs = {
        "large": lambda: large(args.workdir),
        "qwen3": lambda: qwen3(args.workdir),
        "mlir": lambda: mlir_stream(args.workdir, args.mlir_stream, args.mlir_input),
    }
    load = os.getloadavg()[0]
    print(f"{platform.node()}, {time.strftime('%Y-%m-%d %H:%M %Z')}, {os.cpu_count()} cores, load {load:.1f}")
    sources = args.src or [ROOT / "src"]
    floor = " tree-sitter CPU s, over diff's |" if args.floor else ""
    print(
        "| case | source | snapshots | MB | report s (wall / CPU) | start-up s | diff s | ratio past start-up (wall / CPU) |"
        + floor
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |" + (" --- |" if args.floor else ""))
    for name in args.cases.split(","):
        dump = inputs[name]()
        if dump is None or not dump.exists():
            print(f"| {name} | skipped: no input (see --help) | | | | | | |")
            continue
        for row in measure(name, dump, args.workdir, args.repeat, sources, args.floor):
            (wall, cpu), (sw, sc), (dw, dc), (rw, rc) = row["report"], row["start"], row["diff"], row["ratio"]
            inside = f" {row['floor'][0]:.2f}: {row['floor'][1]:.1f}x |" if row["floor"] else ""
            print(
                f"| {name} | {row['src']} | {row['snapshots']} | {row['mb']:.1f} | {wall:.2f} / {cpu:.2f} "
                f"| {sw:.2f} / {sc:.2f} | {dw:.2f} / {dc:.2f} | {rw:.1f}x / {rc:.1f}x |{inside}",
                flush=True,
            )
    print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
