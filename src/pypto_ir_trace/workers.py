"""Tasks run in worker processes: the standard library's ProcessPoolExecutor, its workers forked by a fork server
(a clean process that imported the work's module once: a worker starts in milliseconds and holds none of the
caller's files, pipes, locks or signal handlers). `jobs` tasks are in flight at a time: what is in flight, and
so the memory held, is bounded by the number of workers, not by the number of tasks. Leaving the `with` block
(the last result taken, an error, Ctrl-C, SIGTERM) ends every worker before it returns: no worker outlives it.

A task's exception is raised here. A worker that dies (killed, out of memory, a crash) breaks the pool and
every task in flight with it: those tasks run again one at a time, each alone in a pool of one, so that a
death is known to be its task's; such a task is an error naming it, or, when the caller says what such a task
gives, that result, and the other tasks go on in a new pool. Results come as tasks finish; a caller wanting
a fixed order sorts them by task index.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from concurrent.futures import BrokenExecutor as BrokenPool  # a process pool's is BrokenProcessPool
from typing import TYPE_CHECKING, Generic, TypeVar

from .errors import WorkerDied

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")
R = TypeVar("R")

DIED = "ended abruptly, also when it ran alone (killed by a signal, out of memory, or a crash)"
DESCRIPTORS_PER_WORKER = 2  # the caller's ends of a worker's pipes (measured: 14 + 2 per worker, 16 workers)
DESCRIPTORS_KEPT = 16  # for the pool's own pipes (12, measured) and a file the caller writes meanwhile
_HELD = {signal.SIGINT, signal.SIGTERM}


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def jobs_allowed(jobs: int, tasks: int) -> tuple[int, str]:
    """jobs, or fewer when the limit of open files (RLIMIT_NOFILE, `ulimit -n`) leaves no room for that many
    workers beside what is open already, and then a note saying so ("" when jobs are allowed)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        used = len(os.listdir("/proc/self/fd"))
    except OSError:  # not on Linux: the usual start of a process (its three streams and a few more)
        used = 8
    allowed = max((soft - used - DESCRIPTORS_KEPT) // DESCRIPTORS_PER_WORKER, 1)
    if soft == resource.RLIM_INFINITY or min(jobs, tasks) <= allowed:
        return jobs, ""
    workers = f"{allowed} worker process{'es' if allowed > 1 else ''}"
    return allowed, f"running {workers}, not {jobs}: the limit of open files (ulimit -n {soft}) leaves no room for more"


class Workers(Generic[T, R]):
    """`jobs` processes running work(task); with one job, the tasks run here, in order, and nothing is started.
    work must be importable by name (a module's function): a worker imports it, it inherits nothing."""

    def __init__(
        self,
        work: Callable[[T], R],
        jobs: int,
        describe: Callable[[T], str] = str,
        died: Callable[[T, str], R] | None = None,
    ) -> None:
        """describe(task): how an error names a task; died(task, how): the result of a task whose worker died
        (the other tasks go on); without it, a death is a WorkerDied error."""
        self._work, self._jobs, self._describe, self._died = work, jobs, describe, died
        self._pool: ProcessPoolExecutor | None = None

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
        queue = deque(range(len(tasks)))
        while queue:
            broken = deque((yield from self._until_broken(tasks, queue, self._jobs)))
            while broken:  # alone, a task whose worker dies again is the one that died
                for index in (yield from self._until_broken(tasks, broken, 1)):
                    yield index, self._death(tasks[index])

    def _until_broken(self, tasks: Sequence[T], queue: deque[int], jobs: int) -> Generator[tuple[int, R], None, list]:
        """Runs the queued tasks in a new pool of `jobs` workers until they are done or a worker dies; then
        the indexes of the tasks that were in flight and gave no result."""
        jobs = min(jobs, len(queue))
        self._pool = pool = self._start(jobs)
        self._launch(pool)
        flying: dict[Future, int] = {}
        broken: list[int] = []

        def feed() -> None:
            if queue and not broken:
                index = queue.popleft()
                try:
                    flying[self._submit(pool, tasks[index])] = index
                except BrokenPool:  # a worker died meanwhile: that task waits for the next pool
                    queue.appendleft(index)

        for _ in range(jobs):
            feed()
        while flying:
            done, _ = wait(flying, return_when=FIRST_COMPLETED)
            for future in done:
                index = flying.pop(future)
                if isinstance(future.exception(), BrokenPool):
                    broken.append(index)
                    continue
                value = future.result()  # a task's exception is raised here
                feed()  # the next task first: the worker works while the result is used
                yield index, value
        self._stop(graceful=not broken)
        return sorted(broken)

    def _start(self, jobs: int) -> ProcessPoolExecutor:
        # imported once, by the server, when it starts: a worker it forks has them already
        preload = [__name__, self._work.__module__]
        try:
            with signals_held():
                return process_pool(jobs, "forkserver", preload, initializer=worker_signals)
        except OSError as err:
            raise WorkerDied(f"cannot start the worker processes: {err.strerror or err}") from None

    @staticmethod
    def _launch(pool: ProcessPoolExecutor) -> None:
        """Starts every worker now, before the pool's thread starts (at the first task). Started one per task, a
        worker that died (a SIGTERM to the process group) while the next one started had that thread count the
        pool's processes as they changed, and print "dictionary changed size during iteration" beside the
        one-line error (Python 3.11). A private method, as end_now's mapping."""
        try:
            with signals_held():
                pool._launch_processes()  # type: ignore[attr-defined]
        except (OSError, EOFError) as err:  # EOFError: the fork server could not fork
            why = err.strerror if isinstance(err, OSError) else None
            raise WorkerDied(f"cannot start a worker process: {why or err or 'the fork server ended'}") from None

    def _submit(self, pool: ProcessPoolExecutor, task: T) -> Future:
        """Hands the task to the pool, whose workers are all started."""
        with signals_held():
            return pool.submit(self._work, task)

    def _death(self, task: T) -> R:
        """The result of a task whose worker died alone, or the error saying so."""
        if self._died is None:
            raise WorkerDied(f"the worker process comparing {self._describe(task)} {DIED}")
        return self._died(task, DIED)

    def _stop(self, graceful: bool = False) -> None:
        """Ends the pool's workers (a busy one is stopped unless graceful) and waits until they are gone."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        with signals_held():  # a second Ctrl-C must not leave workers behind half-way through
            if graceful:
                pool.shutdown(wait=True)
            else:
                end_now(pool)


def process_pool(workers: int, method: str, preload: Sequence[str] = (), **options) -> ProcessPoolExecutor:
    """A pool of processes started by `method` (fork, or a fork server preloading the modules `preload` names,
    else spawn where there is none). multiprocessing and the process pool are imported here, when a run first
    needs them: at start-up they cost 15 ms, a tenth of it, and most runs read no text big enough for workers
    (chunked.py) and compare no two roots of programs."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if method == "forkserver" and method not in multiprocessing.get_all_start_methods():
        method = "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(list(preload))
    return ProcessPoolExecutor(workers, mp_context=context, **options)


def end_now(pool: ProcessPoolExecutor) -> None:
    """Ends a pool's workers, busy or not, and waits until they and the pool's thread are gone."""
    # Before Python 3.14 (kill_workers, which no longer joins them) there is no public way to stop a busy
    # worker: the pool's processes, a private mapping since 3.2, are killed here.
    processes = list((pool._processes or {}).values())
    for process in processes:
        process.kill()
    for process in processes:
        process.join()
    # A worker killed while it wrote its result leaves part of a message in the results pipe, and the pool's
    # thread blocked reading the rest (a hang seen under SIGTERM). With every worker gone, this end is the
    # pipe's last writer: closed, the read ends (end of file), the thread sees a broken pool and unwinds.
    results = pool._result_queue  # private as _processes: the one handle on that pipe
    if results is not None:
        results._writer.close()  # type: ignore[attr-defined]  # not in typeshed: a private end, as above
    pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait while workers start or stop: the caller's handler (Ctrl-C, a CI job's timeout)
    then runs in the caller's code, never inside the pool's bookkeeping, where its exception could be lost or
    leave a worker the pool does not know. A fork server started meanwhile, and every worker it forks, inherits
    the mask: a worker lifts it once its handlers are set."""
    if not hasattr(signal, "pthread_sigmask"):  # not on POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def worker_signals() -> None:
    """A worker's handlers, set first thing in it: Ctrl-C reaches the whole process group, and the caller
    decides; SIGTERM ends it (how a pool ends its workers when one died; a forked worker would have the
    caller's handler); then the signals held while it started (signals_held) reach it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
