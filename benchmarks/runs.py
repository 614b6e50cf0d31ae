"""Benchmark --baseline on many programs: the archive's programs against themselves with a few edits.

Builds two CI-shaped roots (<program>/passes_dump/) in a temporary directory from an archive of dumps
(default /tmp/dumps, one directory per dump), the baseline linking to the originals and this run copying
the programs it edits, runs `pypto-ir-trace NEW --baseline OLD -o DIR` in a subprocess and prints time,
peak memory and output size, and checks the index names each edited program's first divergent pass and
lists every other program as identical.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import child

SRC = child.SRC


def link_roots(dumps: list[Path], new: Path, old: Path, chosen: set[int]) -> dict[int, Path]:
    """Both roots of links to the programs, except the chosen ones: copied into new, to be edited. {i: copy}."""
    new.mkdir(parents=True)
    old.mkdir(parents=True)
    copies = {}
    for i, dump in enumerate(dumps):
        (old / dump.name).symlink_to(dump.resolve())
        if i in chosen:
            copies[i] = Path(shutil.copytree(dump, new / dump.name))
        else:
            (new / dump.name).symlink_to(dump.resolve())
    return copies


def make_roots(archive: Path, work: Path, level: str, edits: int, seed: int) -> tuple[Path, Path, dict[str, str]]:
    """(new root, old root, {edited program: the pass the index must name})."""
    dumps = sorted(d for d in archive.iterdir() if d.name.endswith("_" + level) and (d / "passes_dump").is_dir())
    new, old = work / "new", work / "old"
    chosen = set(random.Random(seed).sample(range(len(dumps)), min(edits, len(dumps))))
    expected = {}
    for i, copy in link_roots(dumps, new, old, chosen).items():
        dump = dumps[i]
        snapshots = sorted((copy / "passes_dump").glob("*.py"))
        target = snapshots[random.Random(seed + i).randrange(1, len(snapshots))] if len(snapshots) > 1 else snapshots[0]
        target.write_text(target.read_text(encoding="utf-8") + "# edited by the benchmark\n", encoding="utf-8")
        match = re.match(r"(\d+)_after_(.+)\.py", target.name)
        expected[dump.name] = f"{match[1]} {match[2]}" if match else "input"
    return new, old, expected


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("/tmp/dumps"))
    parser.add_argument("--level", default="explicit", help="which dumps of the archive: explicit or concise")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        new, old, expected = make_roots(args.archive, work, args.level, args.edits, args.seed)
        out = work / "reports"
        env = child.environment(SRC)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pypto_ir_trace", str(new), "--baseline", str(old), "-o", str(out)],
            env=env,
            capture_output=True,
            text=True,
        )
        seconds = time.perf_counter() - start
        if done.returncode:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        files = list(out.iterdir())
        size = sum(f.stat().st_size for f in files)
        page = (out / "index.html").read_text(encoding="utf-8")
        wrong = [
            name
            for name, first in expected.items()
            if not re.search(
                rf'data-program="{re.escape(name)}" data-status="differs">.*?<td class="first">{re.escape(first)}</td>',
                page,
                re.S,
            )
        ]
        wrong += [
            path.name
            for path in new.iterdir()
            if path.name not in expected  # the others: identical
            and f'data-program="{path.name}" data-status="identical"' not in page
        ]
        programs = len(list(new.iterdir()))
        print(f"programs: {programs} ({args.level}), edited: {len(expected)}")
        print(f"time: {seconds:.1f} s ({seconds / programs * 1000:.0f} ms per program)")
        print(f"peak memory: {rss:.0f} MB")
        print(
            f"output: {len(files)} files, {size / 1e6:.1f} MB ({size / len(files) / 1e3:.0f} KB per report), "
            f"index {(out / 'index.html').stat().st_size / 1e3:.0f} KB"
        )
        print(
            f"index names every edited program's first divergent pass, the others identical: "
            f"{'yes' if not wrong else 'NO: ' + ', '.join(wrong)}"
        )
        return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
