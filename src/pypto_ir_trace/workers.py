"""Tasks run in worker processes, one task per worker at a time: what is in flight, and so the memory held,
is bounded by the number of workers, not by the number of tasks. Leaving the `with` block (the last result
taken, an error, Ctrl-C, SIGTERM) ends every worker before it returns: no process outlives the run.

A worker returns its task's result or the exception it raised, re-raised here; a worker that dies (killed,
out of memory, a crash) is an error naming its task, or, when the caller says what such a task gives, that result,
and a new worker takes its place. Results come as workers finish; a caller wanting a fixed order
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

    def __init__(
        self,
        work: Callable[[T], R],
        jobs: int,
        describe: Callable[[T], str] = str,
        died: Callable[[T, str], R] | None = None,
    ) -> None:
        """describe(task): how an error names a task; died(task, how): the result of a task whose worker died
        (a replacement worker takes the next tasks); without it, a death is a WorkerDied error."""
        self._work, self._jobs, self._describe, self._died = work, jobs, describe, died
        self._processes: dict[Connection, Any] = {}  # each worker by the parent's end of its pipe

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
        queue = iter(range(len(tasks)))
        busy: dict[Connection, int] = {}

        def feed(conn: Connection) -> None:
            index = next(queue, None)
            if index is not None:
                conn.send(tasks[index])
                busy[conn] = index

        for _ in range(min(self._jobs, len(tasks))):
            feed(self._start())
        while busy:
            for ready in wait(list(busy)):
                conn = cast(Connection, ready)
                index = busy.pop(conn)
                try:
                    done, value = conn.recv()
                except EOFError:
                    value = self._death(conn, tasks[index])
                    conn, done = self._start(), True
                if not done:
                    raise value
                feed(conn)  # the next task first: the worker works while the result is used
                yield index, value

    def _death(self, conn: Connection, task: T) -> R:
        """The result of a task whose worker died, or the error saying so; the dead worker is reaped."""
        process = self._processes.pop(conn)
        conn.close()
        process.join()
        code = process.exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        if self._died is None:
            raise WorkerDied(f"a worker process ended ({how}) while comparing {self._describe(task)}")
        return self._died(task, how)

    def _start(self) -> Connection:
        """One more worker; the parent's end of its pipe."""
        # fork: a worker starts at once, with the modules already imported (chunked.py's workers do the same)
        context: Any = multiprocessing.get_context(
            "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        )
        ours, theirs = context.Pipe()
        process = context.Process(target=_serve, args=(theirs, self._work), daemon=False)
        process.start()
        theirs.close()  # the worker holds the only other end: its death reads as the end of the pipe
        self._processes[ours] = process
        return ours

    def _stop(self) -> None:
        for conn in self._processes:
            conn.close()  # an idle worker reads the end of its pipe and returns
        for process in self._processes.values():
            if process.is_alive():
                process.terminate()  # a busy one is stopped (SIGTERM: its default action, set in _serve)
        for process in self._processes.values():
            process.join()
        self._processes = {}


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
