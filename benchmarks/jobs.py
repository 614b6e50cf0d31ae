"""Benchmark --jobs on many programs: the same two roots compared at 1 job and at N jobs, in one run.

Builds two CI-shaped roots (<program>/passes_dump/) in a temporary directory from an archive of dumps
(default /tmp/real, one directory per dump): `--programs` programs, the archive's dumps taken in turn (past
the archive's size, again under new names: 2,000 programs from 256 dumps), the baseline linking to the
originals and this run copying the programs it edits. For each job count it runs `pypto-ir-trace NEW
--baseline OLD -o DIR --summary-json S` in a subprocess and prints the time, the peak memory of the whole
process tree (the parent and its workers, summed, sampled every 20 ms; and the largest single process),
and checks that every run wrote the same bytes and that the summary names each edited program's first
divergent pass. The load average before each run is printed: other work on the machine shares its cores
(`--repeat R` runs each job count R times, interleaved, and compares the best times).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import hashlib
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import child

SRC = child.SRC
PAGE = os.sysconf("SC_PAGE_SIZE")


def make_roots(archive: Path, work: Path, programs: int, edits: int, seed: int) -> tuple[Path, Path, dict[str, str]]:
    """(new root, old root, {edited program: its first divergent pass as the summary names it})."""
    dumps = sorted(d for d in archive.iterdir() if (d / "passes_dump").is_dir())
    new, old = work / "new", work / "old"
    new.mkdir()
    old.mkdir()
    names = [
        dumps[k % len(dumps)].name if programs <= len(dumps) else f"p{k:04d}_{dumps[k % len(dumps)].name}"
        for k in range(programs)
    ]
    chosen = set(random.Random(seed).sample(range(programs), min(edits, programs)))
    expected = {}
    for k, name in enumerate(names):
        dump = dumps[k % len(dumps)].resolve()
        (old / name).symlink_to(dump)
        if k not in chosen:
            (new / name).symlink_to(dump)
            continue
        shutil.copytree(dump, new / name)
        snapshots = sorted((new / name / "passes_dump").glob("*.py"))
        target = snapshots[random.Random(seed + k).randrange(1, len(snapshots))] if len(snapshots) > 1 else snapshots[0]
        target.write_text(target.read_text(encoding="utf-8") + "# edited by the benchmark\n", encoding="utf-8")
        match = re.match(r"(\d+)_after_(.+)\.py", target.name)
        expected[name] = f"{match[1]} {match[2]}" if match else "input"
    return new, old, expected


def tree_rss(root: int) -> tuple[int, int]:
    """(bytes resident in root and all its descendants, processes counted), from /proc."""
    parents: dict[int, int] = {}
    resident: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/statm") as statm:
                resident[int(entry)] = int(statm.read().split()[1]) * PAGE
        except OSError:  # a process that just ended
            continue
        parents[int(entry)] = int(fields[1])
    members, grew = {root}, True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in members} - members
        members |= more
        grew = bool(more)
    return sum(resident.get(pid, 0) for pid in members), len(members)


def cpu_seconds() -> float:
    """CPU time of this process's children that have ended (and of their own children: the workers)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def adopt_orphans() -> None:
    """The run's fork server (the workers' parent) outlives the run by a moment: made this process's child
    then, and reaped here (reap), its workers' CPU time and memory count in RUSAGE_CHILDREN."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)


def reap() -> None:
    """Waits for every process the run left (the fork server, the resource tracker), until none is left."""
    with contextlib.suppress(ChildProcessError):
        while True:
            os.wait()


def measure(command: list[str], env: dict[str, str]) -> tuple[float, float, int, int, int, str]:
    """(seconds, CPU seconds, peak bytes of the process tree, most processes at once, exit code, stderr)."""
    cpu = cpu_seconds()
    start = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    peak, most = [0], [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            rss, count = tree_rss(proc.pid)
            peak[0], most[0] = max(peak[0], rss), max(most[0], count)
            stop.wait(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, err = proc.communicate()
    seconds = time.perf_counter() - start
    stop.set()
    sampler.join()
    reap()
    return seconds, cpu_seconds() - cpu, peak[0], most[0], proc.returncode, err


def digest(directory: Path) -> str:
    total = hashlib.sha256()
    for path in sorted(directory.iterdir()):
        total.update(path.name.encode() + b"\0" + path.read_bytes())
    return total.hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--archive", type=Path, default=Path("/tmp/real"))
    parser.add_argument("--programs", type=int, default=256)
    parser.add_argument("--edits", type=int, default=16)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--repeat", type=int, default=1, help="runs of each job count, interleaved; the best is compared"
    )
    args = parser.parse_args()
    adopt_orphans()
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        new, old, expected = make_roots(args.archive, work, args.programs, args.edits, args.seed)
        env = child.environment(SRC)
        print(f"programs: {args.programs} from {args.archive}, edited: {len(expected)}; cores: {os.cpu_count()}")
        times: dict[int, list[float]] = {jobs: [] for jobs in args.jobs}
        digests, wrong = set(), []
        for _ in range(args.repeat):  # interleaved, so that a change in the machine's load falls on both
            for jobs in args.jobs:
                out, summary = work / f"reports{jobs}", work / f"summary{jobs}.json"
                command = [sys.executable, "-m", "pypto_ir_trace", str(new), "--baseline", str(old), "-o", str(out)]
                command += ["--jobs", str(jobs), "--summary-json", str(summary), "-q"]
                load = os.getloadavg()[0]
                seconds, cpu, peak, processes, code, err = measure(command, env)
                if code:
                    print(err, file=sys.stderr)
                    return code
                times[jobs].append(seconds)
                digests.add(digest(out))
                found = json.loads(summary.read_text(encoding="utf-8"))
                firsts = {entry["name"]: entry["firstDivergent"] for entry in found["programs"]}
                wrong += [name for name, first in firsts.items() if first != expected.get(name)]
                size = sum(path.stat().st_size for path in out.iterdir())
                largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
                print(
                    f"--jobs {jobs}: {seconds:.1f} s ({seconds / args.programs * 1000:.0f} ms a program; CPU {cpu:.1f} s), "
                    f"peak memory {peak / 2**20:.0f} MB in {processes} processes (largest single process so far "
                    f"{largest:.0f} MB), output {size / 1e6:.0f} MB, index {(out / 'index.html').stat().st_size / 1e3:.0f} KB; "
                    f"load average before: {load:.2f}",
                    flush=True,
                )
                shutil.rmtree(out)
        first, *others = args.jobs
        for jobs in others:
            best = min(times[first]) / min(times[jobs])
            print(f"speed-up at {jobs} jobs, best of {args.repeat} against best of {args.repeat}: {best:.2f}x")
        print(f"every job count wrote the same bytes: {'yes' if len(digests) == 1 else 'NO'}")
        print(
            f"the summary names each edited program's first divergent pass, the others none: {'yes' if not wrong else 'NO: ' + ', '.join(sorted(set(wrong))[:5])}"
        )
        return 1 if wrong or len(digests) != 1 else 0


if __name__ == "__main__":
    sys.exit(main())
