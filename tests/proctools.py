"""Test helpers: the processes a command started, read from Linux's /proc (no psutil)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from dumptools import subprocess_env


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name: state, parent, process group, ..."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # not a process, or one that just ended
        return None


def group(pgid: int) -> set[int]:
    """The live processes of a process group (a command started with start_new_session: its pid)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(entry)) is not None and fields[0] != "Z" and int(fields[2]) == pgid:
            found.add(int(entry))
    return found


def children(pid: int) -> set[int]:
    """The processes whose parent is pid."""
    return {int(e) for e in os.listdir("/proc") if e.isdigit() and (f := _stat(e)) is not None and int(f[1]) == pid}


def pool_workers(pid: int) -> list[int]:
    """The worker processes that pid's fork server forked, lowest first: only those (a test process may have
    other children, such as the browser tests' Playwright driver and its Chromium)."""
    servers = [c for c in children(pid) if b"forkserver" in _cmdline(c)]
    return sorted(w for server in servers for w in children(server))


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def left_after(pgid: int, grace: float = 5.0) -> set[int]:
    """The processes of the group still alive `grace` seconds after its leader ended (none, for a clean exit:
    the fork server and the resource tracker of multiprocessing end as soon as the leader's pipes close)."""
    deadline = time.monotonic() + grace
    while (left := group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


def handles(pid: int, signum: int) -> bool:
    """Whether the process has a handler for signum (its SigCgt mask): the CLI's, once it is running."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next(line for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(int(caught.split()[1], 16) >> (signum - 1) & 1)


def cli(*args: str, preexec_fn=None, env: dict[str, str] | None = None) -> subprocess.Popen:
    """`python -m pypto_ir_trace ARGS` in a session of its own (its process group is its pid), stderr piped, with
    SIGINT as a terminal leaves it (`preexec_fn` then runs too)."""

    def started() -> None:
        # A shell starts a background job (`nohup ./.ci/run &`) with SIGINT ignored, and a process keeps a signal it
        # was given ignored: the CLI too, rightly. A user's Ctrl-C reaches a run started from a terminal.
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if preexec_fn is not None:
            preexec_fn()

    return subprocess.Popen(
        [sys.executable, "-m", "pypto_ir_trace", *args],
        env=env or subprocess_env(),
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=started,
    )


def kill_group(pgid: int) -> None:
    """What a test must not leave behind whatever it found."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)


def running_time(*args: str, env: dict[str, str] | None = None, runs: int = 2) -> float:
    """Seconds a whole run of `cli ARGS` takes from setting its signal handlers to its exit (it must succeed),
    the least of `runs`: how far into a run a signal may fall on this host, where a fixed guess fails on a faster
    or busier one."""
    times = []
    for _ in range(runs):
        proc = cli(*args, env=env)
        try:
            while not handles(proc.pid, signal.SIGTERM) and proc.poll() is None:
                time.sleep(0.002)
            start = time.monotonic()
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
            times.append(time.monotonic() - start)
        finally:
            kill_group(proc.pid)
    return min(times)


def stopped(proc: subprocess.Popen, sent: int, delay: float, to_group: bool) -> tuple[int | None, str]:
    """Sends `sent` to a command of `cli` `delay` seconds after it set its signal handlers: to its whole process
    group (a terminal's Ctrl-C, `kill -- -PGID`) or to it alone (`timeout`); its exit code (None: it had
    finished before the signal could stop it) and stderr, once every process of it is gone (a hang or a process left fails)."""
    try:
        while not handles(proc.pid, signal.SIGTERM):
            assert proc.poll() is None, proc.communicate()[1]
            time.sleep(0.002)
        time.sleep(delay)
        finished = proc.poll() is not None
        if finished:
            pass
        elif to_group:
            os.killpg(proc.pid, sent)
        else:
            proc.send_signal(sent)
        _, err = proc.communicate(timeout=30)
        assert not left_after(proc.pid), f"processes left after a signal at {delay:.2f} s"
    finally:
        kill_group(proc.pid)
    # Killed by the signal itself: it came as the run exited, its handlers put back (its output is complete)
    return None if finished or proc.returncode == -sent else proc.returncode, err


def site(where: Path, code: str) -> dict[str, str]:
    """The environment of a subprocess whose every Python process (its workers too) first runs `code`, as a
    sitecustomize module in `where`: how a test reaches into workers that inherit nothing."""
    where.mkdir(parents=True, exist_ok=True)
    (where / "sitecustomize.py").write_text(code, encoding="utf-8")
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join([str(where), env["PYTHONPATH"]])
    return env
