"""Tasks run in worker processes, one task per worker at a time: what is in flight, and so the memory held,
is bounded by the number of workers, not by the number of tasks. Leaving the `with` block (the last result
taken, an error, Ctrl-C, SIGTERM) ends every worker before it returns: no process outlives the run.

A worker returns its task's result or the exception it raised, re-raised here; a worker that dies (killed,
out of memory) is an error naming its task. Results come as workers finish; a caller wanting a fixed order
sorts them by task index.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar, cast

from .errors import IRTraceError

T = TypeVar("T")
R = TypeVar("R")


class WorkerDied(IRTraceError):
    """A worker process ended without returning its task's result."""


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Workers(Generic[T, R]):
    """`jobs` processes running work(task); with one job, the tasks run here, in order, and nothing is started."""

    def __init__(self, work: Callable[[T], R], jobs: int, describe: Callable[[T], str] = str) -> None:
        self._work, self._jobs, self._describe = work, jobs, describe
        self._processes: list[Any] = []
        self._conns: list[Connection] = []

    def __enter__(self) -> Workers[T, R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop()

    def run(self, tasks: Sequence[T]) -> Iterator[tuple[int, R]]:
        """(task index, result) for each task, as tasks complete."""
        if self._jobs <= 1 or len(tasks) <= 1:
            for index, task in enumerate(tasks):
                yield index, self._work(task)
            return
        self._start(min(self._jobs, len(tasks)))
        queue = iter(range(len(tasks)))
        busy: dict[Connection, int] = {}

        def feed(conn: Connection) -> None:
            index = next(queue, None)
            if index is not None:
                conn.send(tasks[index])
                busy[conn] = index

        for conn in self._conns:
            feed(conn)
        while busy:
            for ready in wait(list(busy)):
                conn = cast(Connection, ready)
                index = busy.pop(conn)
                try:
                    done, value = conn.recv()
                except EOFError:
                    raise WorkerDied(f"a worker process ended while comparing {self._describe(tasks[index])}") from None
                if not done:
                    raise value
                feed(conn)  # the next task first: the worker works while the result is used
                yield index, value

    def _start(self, count: int) -> None:
        # fork: a worker starts at once, with the modules already imported (chunked.py's workers do the same)
        context: Any = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        for _ in range(count):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, self._work), daemon=False)
            process.start()
            theirs.close()  # the worker holds the only other end: its death reads as the end of the pipe
            self._processes.append(process)
            self._conns.append(ours)

    def _stop(self) -> None:
        for conn in self._conns:
            conn.close()  # an idle worker reads the end of its pipe and returns
        for process in self._processes:
            if process.is_alive():
                process.terminate()  # a busy one is stopped (SIGTERM: its default action, set in _serve)
        for process in self._processes:
            process.join()
        self._processes, self._conns = [], []


def _serve(conn: Connection, work: Callable[[Any], Any]) -> None:
    """A worker: tasks in, (True, result) or (False, exception) out, until its pipe ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole process group: the parent decides
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler unwinds the parent's run, not this one
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[bool, Any] = (True, work(task))
        except Exception as err:
            reply = (False, err)
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return
        except Exception as err:  # an exception that does not pickle: its words still reach the parent
            conn.send((False, IRTraceError(f"{type(err).__name__} in a worker: {reply[1]}")))
