"""Benchmark a real LLVM pass dump (issue 35): lz4.c (2,722 lines, from the lz4 4.4.5 sdist on PyPI) compiled by
`clang-19 -O2 -S -emit-llvm -mllvm -print-after-all` prints about 158 MB in 10,296 dumps (function, SCC, module
and loop dumps). The sdist is fetched with pip and the dump generated here, in a temporary folder (or --workdir,
where a dump already made is reused). Printed: the dump's size and shapes, the render's wall time, CPU seconds
and peak RSS (`python -m pypto_ir_trace` in a subprocess, as run.py measures), the report's size, the splice's
notes, the oracle's agreement (tests/llvmoracle.py: which pass changed which function, from the dump alone) and,
with --browser, the time the report takes to open to its first diff in headless Chromium. --megabytes N renders
only the first N MB of the dump (cut at a header). Targets are printed in parentheses; nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
import run  # noqa: E402
from llvmoracle import changes  # noqa: E402

TARGETS = "(30 s, 1,000 MB, first diff within 3 s)"
CLANG = shutil.which("clang-19") or "/usr/bin/clang-19"


def generate(work: Path) -> Path:
    """The -print-after-all dump of lz4.c at -O2 under work (made once)."""
    dump = work / "lz4-O2.txt"
    if dump.is_file():
        return dump
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--no-deps",
            "--no-binary",
            ":all:",
            "lz4==4.4.5",
            "-d",
            str(work),
        ],
        check=True,
    )
    with tarfile.open(work / "lz4-4.4.5.tar.gz") as archive:
        archive.extractall(work, filter="data")
    source = work / "lz4-4.4.5" / "lz4libs" / "lz4.c"
    with open(dump, "wb") as err:
        subprocess.run(
            [CLANG, "-O2", "-S", "-emit-llvm", str(source), "-o", str(work / "lz4.ll"), "-mllvm", "-print-after-all"],
            stderr=err,
            check=True,
        )
    return dump


def first_megabytes(dump: Path, megabytes: float) -> Path:
    """The dump cut before the first header past `megabytes` MB."""
    data = dump.read_bytes()
    cut = data.find(b"\n; *** IR Dump", int(megabytes * 1e6))
    part = dump.with_name(f"{dump.stem}-{megabytes:g}MB.txt")
    part.write_bytes(data if cut < 0 else data[: cut + 1])
    return part


def shapes(dump: Path) -> Counter:
    found: Counter = Counter()
    with open(dump, "rb") as handle:
        for line in handle:
            if line.startswith((b"; *** IR Dump", b"*** IR Dump", b"# *** IR Dump")):
                unit = line.rsplit(b" on ", 1)[-1]
                found[
                    "module"
                    if unit.startswith(b"[module]")
                    else "loop"
                    if unit.startswith(b"loop ")
                    else "SCC"
                    if unit.startswith(b"(")
                    else "function"
                    if b" on " in line
                    else "other"
                ] += 1
    return found


def agreement(dump: Path, summary: dict) -> tuple[int, int]:
    """(pairs the oracle compares, pairs the report agrees on)."""
    passes = summary["pipelines"][0]
    changed = {(p["label"], f["name"]) for f in passes["functions"] for p in f["passes"]}
    no_op = {p["label"]: p["noOp"] for p in passes["passes"]}
    names = {f["name"] for f in passes["functions"]}
    oracle = changes(dump)
    agree = sum(
        (((str(label), name) in changed) if name in names else not no_op[str(label)]) == differs
        for (label, name), differs in oracle.items()
    )
    return len(oracle), agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None, help="where to generate (a dump there is reused)")
    parser.add_argument("--megabytes", type=float, default=None, help="render only the first N MB")
    parser.add_argument("--browser", action="store_true", help="also open the report in headless Chromium")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = args.workdir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        dump = generate(work)
        print(f"dump: {dump} ({time.perf_counter() - started:.0f} s to make or find)")
        if args.megabytes:
            dump = first_megabytes(dump, args.megabytes)
        print(f"{dump.stat().st_size / 1e6:,.1f} MB, dumps by shape: {dict(shapes(dump))}")
        report = work / "lz4-O2.html"
        seconds, cpu, peak = run.run_cli(dump, report)
        print(f"render: {seconds:.1f} s wall, {cpu:.1f} s CPU, peak RSS {peak:,.0f} MB {TARGETS}")
        print(f"report: {report.stat().st_size / 1e3:,.0f} KB")
        for line in report.with_suffix(".stderr").read_text(encoding="utf-8").splitlines():
            print(f"  {line}")
        summary_path = work / "summary.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pypto_ir_trace",
                str(dump),
                "-q",
                "-o",
                str(work / "again.html"),
                "--summary-json",
                str(summary_path),
            ],
            check=True,
        )
        compared, agree = agreement(dump, json.loads(summary_path.read_text(encoding="utf-8")))
        print(f"oracle: the report agrees on {agree:,} of {compared:,} (pass, function) pairs")
        if args.browser:
            print(f"open to first diff: {run.browser_figures(report, switches=5, steps=10)['open_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
