"""Worker processes: every task's result, a task's exception raised here, a worker's death named, and no
process left once the work is over, however it ends."""

from __future__ import annotations

import errno
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import proctools
from dumptools import CONCISE, subprocess_env, write_dump
from pypto_ir_trace import cli, workers
from pypto_ir_trace.errors import IRTraceError, WorkerDied


class Refused(IRTraceError):
    pass


def square(task: int) -> tuple[int, int]:
    if task == 13:
        raise Refused(f"task {task} refused")
    if task == 99:
        os.kill(os.getpid(), signal.SIGKILL)  # a worker killed (out of memory, say)
    return task * task, os.getpid()


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_every_task_is_done_once_in_at_most_jobs_processes(jobs):
    tasks = list(range(12))
    with workers.Workers(square, jobs) as pool:
        results = dict(pool.run(tasks))
    assert sorted(results) == tasks and all(results[k][0] == k * k for k in tasks)
    processes = {pid for _, pid in results.values()}
    assert processes == {os.getpid()} if jobs == 1 else (len(processes) <= jobs and os.getpid() not in processes)
    assert multiprocessing.active_children() == []


def test_a_tasks_exception_is_raised_here_and_the_workers_end():
    with pytest.raises(Refused, match="task 13 refused"), workers.Workers(square, 2) as pool:
        for _ in pool.run(list(range(20))):
            pass
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_is_an_error_naming_its_task():
    with (
        pytest.raises(WorkerDied, match=r"the worker process comparing task 99 ended abruptly, also when it ran alone"),
        workers.Workers(square, 2, describe=lambda task: f"task {task}") as pool,
    ):
        for _ in pool.run([1, 99, 2, 3]):
            pass
    assert multiprocessing.active_children() == []


def test_a_task_whose_worker_dies_gets_the_callers_result_and_the_others_complete():
    deaths = []

    def died(task, how):
        deaths.append((task, how))
        return -1, 0

    with workers.Workers(square, 2, died=died) as pool:
        results = dict(pool.run([1, 99, 2, 3, 99, 4]))
    assert {k: v[0] for k, v in results.items()} == {0: 1, 1: -1, 2: 4, 3: 9, 4: -1, 5: 16}
    assert deaths == [(99, workers.DIED)] * 2
    assert multiprocessing.active_children() == []


def test_leaving_early_stops_busy_workers():
    with workers.Workers(square, 2) as pool:
        for _ in pool.run(list(range(50))):
            break  # the caller stops (Ctrl-C in its loop): the others are still working
    assert multiprocessing.active_children() == []


def half_a_result(task: int) -> int:
    """Writes the start of a result message to the pool's results pipe, then waits: a worker killed while it
    wrote its result, seen from the pool's thread, which reads the message and waits for the rest."""
    import gc
    import struct
    import time
    from multiprocessing.queues import SimpleQueue

    results = next(o for o in gc.get_objects() if isinstance(o, SimpleQueue))
    os.write(results._writer.fileno(), struct.pack("!i", 1_000) + b"\x80\x04")
    time.sleep(60)
    return task


STOPPED_WHILE_A_RESULT_IS_HALF_WRITTEN = """
import multiprocessing, signal, sys
sys.path.insert(0, sys.argv[1])
from pypto_ir_trace import workers
import test_workers

class Stop(Exception):
    pass

def stop(signum, frame):
    raise Stop

signal.signal(signal.SIGALRM, stop)
signal.alarm(2)  # the run stopped (SIGTERM, Ctrl-C) while the pool's thread waits for the rest of a result
try:
    with workers.Workers(test_workers.half_a_result, 2) as pool:
        list(pool.run([1, 2]))
except Stop:
    print("stopped", len(multiprocessing.active_children()))
"""


def test_a_worker_killed_while_it_writes_its_result_does_not_hang_the_stop():
    """Ending the pool kills its workers; one killed half-way through writing its result used to leave the
    pool's thread blocked forever on the rest of it, and the run with it (a SIGTERM that never ended the run)."""
    here = str(Path(__file__).parent)
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_WHILE_A_RESULT_IS_HALF_WRITTEN, here],
        capture_output=True,
        text=True,
        timeout=60,
        env=subprocess_env(),
    )
    assert (done.returncode, done.stdout) == (0, "stopped 0\n"), done.stderr


def test_default_jobs_is_the_cores_this_process_may_use():
    assert workers.default_jobs() == len(os.sched_getaffinity(0)) >= 1


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


# ---- the command line on many programs, stopped however it is stopped ------------------------------------------

PROGRAMS = 60
START_UP = 1.5  # seconds from the CLI's handlers being set: listing, the temporary directory, workers starting


@pytest.fixture(scope="module")
def many(tmp_path_factory) -> tuple[str, str]:
    """Two roots of 60 small programs, a third of them edited in the new one."""
    root = tmp_path_factory.mktemp("many")
    for k in range(PROGRAMS):
        edited = {**CONCISE, "02_after_InferTileMemorySpace.py": CONCISE["02_after_InferTileMemorySpace.py"] + "#\n"}
        write_dump(root / "new" / f"p{k:02d}", edited if k % 3 == 0 else CONCISE)
        write_dump(root / "old" / f"p{k:02d}", CONCISE)
    return str(root / "new"), str(root / "old")


@pytest.mark.parametrize("sent, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"])
def test_a_signal_at_any_moment_of_start_up_stops_the_run_with_its_code_and_leaves_nothing(many, tmp_path, sent, code):
    """A CI job's timeout or cancel (SIGTERM) and Ctrl-C, at moments spread over the start-up (drawn at random
    in each of 5 equal slices), to the run alone or to its whole process group: each time the signal's exit
    code and one line, no process left, no report and no temporary directory."""
    args = (many[0], "--baseline", many[1], "-o", str(tmp_path / "out"), "--jobs", "40")
    start_up = min(START_UP, 0.8 * proctools.running_time(*args))  # a fast host may finish sooner
    shutil.rmtree(tmp_path / "out")
    trials, seen = 5, []
    for k in range(trials):
        delay = (k + random.random()) * start_up / trials
        proc = proctools.cli(*args)
        got, err = proctools.stopped(proc, sent, delay, to_group=k % 2 == 1)
        seen.append((round(delay, 2), got))
        if got is None:  # the run was over before the signal: its directory is whole, the next run starts afresh
            assert (tmp_path / "out" / "index.html").is_file() and [p.name for p in tmp_path.iterdir()] == ["out"], (
                delay
            )
            shutil.rmtree(tmp_path / "out")
            continue
        assert got == code and "Traceback" not in err, (delay, err)
        assert (
            err.strip().splitlines()[-1] == f"pypto-ir-trace: error: {'terminated' if code == 143 else 'interrupted'}"
        )
        assert list(tmp_path.iterdir()) == [], (delay, list(tmp_path.iterdir()))
    assert sum(got is not None for _, got in seen) >= trials - 1, seen  # stopped, not finished, nearly every time


def test_more_jobs_than_the_descriptor_limit_allows_are_capped_with_a_note(many, tmp_path):
    """Under `ulimit -n 48`, 40 workers would need about 100 descriptors: the run takes as many as fit, says so,
    and writes the directory of a run with one job (it used to hang forever once a worker could not start)."""
    limit = lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (48, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))
    proc = proctools.cli(
        many[0], "--baseline", many[1], "-o", str(tmp_path / "capped"), "--jobs", "40", preexec_fn=limit
    )
    try:
        _, err = proc.communicate(timeout=60)
        assert not proctools.left_after(proc.pid)
    finally:
        proctools.kill_group(proc.pid)
    assert proc.returncode == 0, err
    note = re.search(r"note: running (\d+) worker processes, not 40: the limit of open files \(ulimit -n 48\)", err)
    assert note and 2 <= int(note[1]) < 20, err
    assert cli.main([*many[0:1], "--baseline", many[1], "-o", str(tmp_path / "one"), "--jobs", "1", "-q"]) == 0
    assert tree(tmp_path / "capped") == tree(tmp_path / "one")


SITE = """\
import os, signal
from pypto_ir_trace import programs
real = programs._program
def crashing(task):
    if task.name == "p07":
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would, each time
    return real(task)
programs._program = crashing
"""


def test_a_program_whose_worker_dies_each_time_is_unreadable_and_the_others_are_written(many, tmp_path):
    """A program that kills its worker (a crash, or more memory than the machine has) even when compared alone is
    listed as unreadable, named on stderr, and the others are compared: the directory is written, exit 1."""
    env = proctools.site(tmp_path / "site", SITE)  # read by every process: the workers too
    out = tmp_path / "out"
    proc = proctools.cli(many[0], "--baseline", many[1], "-o", str(out), "--jobs", "3", env=env)
    try:
        _, err = proc.communicate(timeout=60)
        assert not proctools.left_after(proc.pid)
    finally:
        proctools.kill_group(proc.pid)
    assert proc.returncode == 1 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"pypto-ir-trace: error: p07: the worker process comparing it {workers.DIED}"
    reports = sorted(p.name for p in out.glob("p*.html"))
    assert len(reports) == PROGRAMS - 1 and "p07.html" not in reports
    assert "p07" in (out / "index.html").read_text(encoding="utf-8")


def test_a_worker_that_cannot_start_ends_the_run_with_one_line_and_leaves_nothing(many, tmp_path, monkeypatch, capsys):
    """The third worker fails to start (no descriptor, no process left: EMFILE, EAGAIN): the run ends at once
    with one line and exit 1, the two started workers ended, no temporary directory."""
    real = multiprocessing.context.ForkServerProcess._Popen
    started: list[object] = []

    def start(process):
        started.append(process)
        if len(started) == 3:
            raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))
        return real(process)

    monkeypatch.setattr(multiprocessing.context.ForkServerProcess, "_Popen", staticmethod(start))
    code = cli.main([many[0], "--baseline", many[1], "-o", str(tmp_path / "out"), "--jobs", "4", "-q"])
    assert (code, capsys.readouterr().err) == (
        1,
        "pypto-ir-trace: error: cannot start a worker process: Too many open files\n",
    )
    assert list(tmp_path.iterdir()) == [] and multiprocessing.active_children() == [] and len(started) == 3
