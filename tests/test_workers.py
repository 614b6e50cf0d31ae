"""Worker processes: every task's result, a task's exception raised here, a worker's death named, and no
process left once the work is over, however it ends."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from pypto_ir_trace import workers
from pypto_ir_trace.errors import IRTraceError


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
        pytest.raises(workers.WorkerDied, match=r"ended \(killed by signal 9\) while comparing task 99"),
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
    assert deaths == [(99, "killed by signal 9")] * 2
    assert multiprocessing.active_children() == []


def test_leaving_early_stops_busy_workers():
    with workers.Workers(square, 2) as pool:
        for _ in pool.run(list(range(50))):
            break  # the caller stops (Ctrl-C in its loop): the others are still working
    assert multiprocessing.active_children() == []


def test_default_jobs_is_the_cores_this_process_may_use():
    assert workers.default_jobs() == len(os.sched_getaffinity(0)) >= 1
