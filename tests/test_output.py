"""Where the report goes: dump files refused, devices and FIFOs written in place, symlinks kept, stdout, long names."""

from __future__ import annotations

import contextlib
import io
import os
import random
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from dumptools import PROGRAM, REAL, subprocess_env, write_dump
from pypto_ir_trace import cli, output

SPLIT_K = REAL / "advanced_01_split_k_concise" / "passes_dump"
CHANGED = PROGRAM.replace("[0], [64]", "[0], [32]")


def error_line(stderr: str) -> str:
    """The run's one error line; notes printed before the failure are allowed, nothing else."""
    lines = [line for line in stderr.strip().splitlines() if not line.startswith("pypto-ir-trace: note: ")]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("pypto-ir-trace: error: "), stderr
    return lines[0]


def assert_no_error(stderr: str) -> None:
    """A successful run prints notes and its one-line summary on stderr, nothing else."""
    for line in stderr.splitlines():
        assert line.startswith(("pypto-ir-trace: note: ", "pypto-ir-trace: wrote ")), stderr


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> bytes:
    """The report for SPLIT_K as an ordinary new file gets it."""
    out = tmp_path_factory.mktemp("expected") / "r.html"
    assert cli.main([str(SPLIT_K), "-o", str(out)]) == 0
    return out.read_bytes()


# 1. A file of the dump being read is never the report.


@pytest.fixture
def dump(tmp_path) -> Path:
    """A private dump: a test that fails must not overwrite the repository's fixtures."""
    return write_dump(
        tmp_path / "case",
        {
            "00_frontend.py": PROGRAM,
            "01_after_A.py": CHANGED,
            "01_after_A.log": "warning: a\n",
        },
    )


@pytest.mark.parametrize(
    "spelling, victim",
    [
        (lambda d: d / "00_frontend.py", "00_frontend.py"),
        (
            lambda d: d.parent / "x" / ".." / "passes_dump" / "01_after_A.py",
            "01_after_A.py",
        ),  # resolved, not compared as text
        (lambda d: d / "01_after_A.log", "01_after_A.log"),
    ],
)
def test_a_dump_file_is_refused_and_untouched(dump, spelling, victim, capsys):
    (dump.parent / "x").mkdir()
    before = {p.name: p.read_bytes() for p in dump.iterdir()}
    assert cli.main([str(dump), "-o", str(spelling(dump))]) == 1
    assert victim in error_line(capsys.readouterr().err)
    assert {p.name: p.read_bytes() for p in dump.iterdir()} == before  # no report, no temporary file


def test_a_log_the_dump_does_not_have_yet_is_refused(dump, capsys):
    """A report written there would be read as the frontend's warnings by the next run."""
    assert cli.main([str(dump), "-o", str(dump / "00_frontend.log")]) == 1
    assert "00_frontend.log" in error_line(capsys.readouterr().err)
    assert not (dump / "00_frontend.log").exists()


@pytest.mark.parametrize("make", [os.link, os.symlink], ids=["hard link", "symlink"])
def test_another_name_for_a_dump_file_is_refused(dump, tmp_path, make, capsys):
    other = tmp_path / "report.html"
    make(dump / "01_after_A.py", other)
    assert cli.main([str(dump), "-o", str(other)]) == 1
    assert "01_after_A.py" in error_line(capsys.readouterr().err)
    assert (dump / "01_after_A.py").read_text(encoding="utf-8") == CHANGED
    assert os.path.samefile(other, dump / "01_after_A.py")  # still the same file: not replaced either


@pytest.mark.parametrize("through", ["the dump", "the report"])
def test_a_log_to_be_is_refused_when_the_dump_or_the_report_goes_through_a_linked_folder(dump, tmp_path, through):
    link = tmp_path / "linked"
    link.symlink_to(dump, target_is_directory=True)
    given, written = (link, dump) if through == "the dump" else (dump, link)
    assert cli.main([str(given), "-o", str(written / "00_frontend.log")]) == 1
    assert not (dump / "00_frontend.log").exists()


def test_a_file_of_the_dump_resolves_as_realpath_resolves_it(tmp_path, monkeypatch):
    real = tmp_path / "real"
    real.mkdir()
    (real / "a.py").write_text("", encoding="utf-8")
    (real / "b.py").symlink_to("a.py")  # a file that links, relatively
    (real / "c.py").symlink_to(real / "b.py")  # to a link
    (tmp_path / "folder").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    folders: dict[str, str] = {}
    for folder in ("real", "folder", str(tmp_path / "folder"), "folder/../real", ""):
        for name in ("a.py", "b.py", "c.py", "new.log"):
            file = Path(folder) / name if folder else Path(name)
            assert output._real(file, folders) == os.path.realpath(file), file


# 2. A device or FIFO is written in place, never replaced by a file.


def test_a_character_device_is_written_not_replaced(tmp_path, capsys):
    null = tmp_path / "null"  # a private null device: never the system's /dev/null
    os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    assert cli.main([str(SPLIT_K), "-o", str(null)]) == 0
    assert_no_error(capsys.readouterr().err)
    assert stat.S_ISCHR(null.lstat().st_mode) and null.lstat().st_rdev == os.makedev(1, 3)
    assert [p.name for p in tmp_path.iterdir()] == ["null"]


def test_a_fifo_with_a_reader_gets_the_whole_report(tmp_path, expected, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the reader exists before the run opens the FIFO
    holder = os.open(fifo, os.O_WRONLY)  # keeps the reader from seeing end-of-file before the run writes
    os.set_blocking(reader, True)
    received = []

    def read_all():
        with open(reader, "rb") as stream:
            received.append(stream.read())

    thread = threading.Thread(target=read_all, daemon=True)
    thread.start()
    try:
        assert cli.main([str(SPLIT_K), "-o", str(fifo)]) == 0
    finally:
        os.close(holder)
        thread.join(timeout=60)
    assert not thread.is_alive()
    assert received == [expected]
    assert_no_error(capsys.readouterr().err)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["fifo"]


def test_a_fifo_nobody_reads_is_an_error_not_a_hang(tmp_path, capsys):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    result = []
    thread = threading.Thread(target=lambda: result.append(cli.main([str(SPLIT_K), "-o", str(fifo)])), daemon=True)
    thread.start()
    thread.join(timeout=60)
    assert not thread.is_alive(), "the run hangs on a FIFO with no reader"
    assert result == [1]
    assert error_line(capsys.readouterr().err).endswith(
        f"cannot write the report {fifo}: no process is reading that FIFO"
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_a_socket_is_an_error_and_stays(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short relative name: socket paths are limited to ~100 bytes
    with socket.socket(socket.AF_UNIX) as server:
        server.bind("sock")
        assert cli.main([str(SPLIT_K), "-o", "sock"]) == 1
    assert error_line(capsys.readouterr().err).endswith("cannot write the report sock: it is a socket")
    assert stat.S_ISSOCK((tmp_path / "sock").lstat().st_mode)


# 3. A symlink stays a symlink; its target is replaced atomically.


@pytest.fixture
def spy_replace(monkeypatch):
    """Every (source, destination) os.replace is called with, still doing the rename."""
    calls = []
    real = os.replace

    def replace(src, dst, **kwargs):
        calls.append((Path(src), Path(dst)))
        return real(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return calls


def test_a_symlink_keeps_linking_and_its_target_is_replaced(tmp_path, expected, spy_replace):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "report.html").write_text("previous report")
    link = tmp_path / "link.html"
    link.symlink_to(Path("elsewhere") / "report.html")  # relative, as users make them
    assert cli.main([str(SPLIT_K), "-o", str(link)]) == 0
    assert os.readlink(link) == str(Path("elsewhere") / "report.html")
    assert (elsewhere / "report.html").read_bytes() == expected
    [(temp, renamed_over)] = spy_replace
    assert renamed_over == elsewhere / "report.html" and temp.parent == elsewhere  # rename within one directory
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "link.html"]
    assert [p.name for p in elsewhere.iterdir()] == ["report.html"]


def test_a_chain_of_symlinks_is_followed_to_the_end(tmp_path, expected):
    (tmp_path / "c.html").write_text("previous report")
    (tmp_path / "b.html").symlink_to("c.html")
    (tmp_path / "a.html").symlink_to(tmp_path / "b.html")
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "a.html")]) == 0
    assert (tmp_path / "a.html").is_symlink() and (tmp_path / "b.html").is_symlink()
    assert (tmp_path / "c.html").read_bytes() == expected


def test_a_dangling_symlink_gets_its_target_written(tmp_path, expected):
    (tmp_path / "out").mkdir()
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "out" / "new.html")
    assert cli.main([str(SPLIT_K), "-o", str(link)]) == 0
    assert link.is_symlink() and (tmp_path / "out" / "new.html").read_bytes() == expected


def test_a_symlink_into_a_missing_directory_is_an_error(tmp_path, capsys):
    link = tmp_path / "link.html"
    link.symlink_to(tmp_path / "gone" / "new.html")
    assert cli.main([str(SPLIT_K), "-o", str(link)]) == 1
    line = error_line(capsys.readouterr().err)
    assert str(link) in line and "directory does not exist" in line
    assert link.is_symlink() and not (tmp_path / "gone").exists()


def test_a_symlink_loop_is_an_error(tmp_path, capsys):
    (tmp_path / "a.html").symlink_to("b.html")
    (tmp_path / "b.html").symlink_to("a.html")
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "a.html")]) == 1
    assert str(tmp_path / "a.html") in error_line(capsys.readouterr().err)
    assert (tmp_path / "a.html").is_symlink() and (tmp_path / "b.html").is_symlink()


# 4. `-o -` is stdout.


def test_dash_writes_the_report_to_stdout_and_nothing_else(tmp_path, expected, monkeypatch, capsysbinary):
    monkeypatch.chdir(tmp_path)
    assert cli.main([str(SPLIT_K), "-o", "-"]) == 0
    captured = capsysbinary.readouterr()
    assert captured.out == expected
    assert_no_error(captured.err.decode())
    assert captured.err.decode().splitlines()[-1] == "pypto-ir-trace: wrote the report to stdout: 49 passes, 11 changed"
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_notes_stay_on_stderr_when_the_report_goes_to_stdout(tmp_path, monkeypatch, capsysbinary):
    monkeypatch.chdir(tmp_path)
    assert cli.main([str(SPLIT_K.parent), "-o", "-"]) == 0  # the compile output dir: a note is due
    captured = capsysbinary.readouterr()
    assert captured.out.startswith(b"<!DOCTYPE html>")
    assert captured.err.decode().startswith("pypto-ir-trace: note: using ")
    assert list(tmp_path.iterdir()) == []


def test_dash_is_utf_8_whatever_the_locale(tmp_path, expected):
    assert any(byte > 0x7F for byte in expected)  # the page has non-ASCII text to get wrong
    result = subprocess.run(
        [sys.executable, "-m", "pypto_ir_trace", str(SPLIT_K), "-o", "-"],
        capture_output=True,
        cwd=tmp_path,
        env=subprocess_env(PYTHONIOENCODING="ascii", LC_ALL="C"),
        timeout=120,
    )
    assert (result.returncode, result.stdout) == (0, expected)
    assert_no_error(result.stderr.decode())


def test_dash_into_a_text_stream_a_caller_put_in_place(expected):
    stream = io.StringIO()
    with contextlib.redirect_stdout(stream):
        assert cli.main([str(SPLIT_K), "-o", "-"]) == 0
    assert stream.getvalue().encode("utf-8") == expected


# 5. Long names: the temporary file's name stays within the file-name limit.


@pytest.mark.parametrize("name", ["r" * 245 + ".html", "é" * 122 + ".html"], ids=["250 ASCII", "249 bytes UTF-8"])
def test_a_report_name_near_the_limit_works(tmp_path, expected, name):
    assert len(os.fsencode(name)) <= os.pathconf(tmp_path, "PC_NAME_MAX")
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / name)]) == 0
    assert (tmp_path / name).read_bytes() == expected
    assert [p.name for p in tmp_path.iterdir()] == [name]


# 6. A reader that closes stdout early ends the run quietly.


def big_dump(root: Path) -> Path:
    """Structure output and a report far larger than a pipe holds (64 KiB), so the run must meet the closed end."""
    rng = random.Random(6)
    methods = "".join(
        f"    def f{i}_{rng.getrandbits(96):024x}(self, x):\n        return x + {rng.getrandbits(64)}\n"
        for i in range(2000)
    )
    program = f"import pypto.language as pl\n\n@pl.program\nclass big:\n{methods}"
    return write_dump(root, {"00_frontend.py": program, "01_after_A.py": program.replace("(self, x)", "(self, y)")})


@pytest.mark.parametrize("args", [["--dump-structure"], ["-o", "-"]], ids=["--dump-structure", "-o -"])
def test_a_reader_closing_stdout_early_ends_the_run_quietly(tmp_path, args):
    process = subprocess.Popen(
        [sys.executable, "-m", "pypto_ir_trace", str(big_dump(tmp_path)), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=subprocess_env(),
    )
    try:
        assert process.stdout.readline()  # like `| head -1`
        process.stdout.close()
        stderr = process.stderr.read().decode()
        assert process.wait(timeout=120) == 0
    finally:
        process.kill()
        process.wait()
    assert "error" not in stderr and "Exception" not in stderr and "Traceback" not in stderr, stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "passes_dump"]


# 7. What already worked: shareable permissions, atomic replacement, errors naming the report.


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)], ids=["022", "077"])
def test_a_new_report_follows_the_umask(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "r.html").stat().st_mode & 0o777 == mode


def test_a_replaced_report_keeps_its_permissions(tmp_path, expected):
    out = tmp_path / "r.html"
    out.write_text("previous report")
    out.chmod(0o640)
    assert cli.main([str(SPLIT_K), "-o", str(out)]) == 0
    assert out.read_bytes() == expected and out.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("failing", ["replace", "fsync"])
def test_a_failed_write_keeps_the_old_report_and_leaves_no_temporary_file(tmp_path, monkeypatch, capsys, failing):
    out = tmp_path / "r.html"
    out.write_text("previous report")

    def fail(*_args, **_kwargs):
        raise OSError(28, "No space left on device", "/somewhere/.r.html.tmp")

    monkeypatch.setattr(os, failing, fail)
    assert cli.main([str(SPLIT_K), "-o", str(out)]) == 1
    assert error_line(capsys.readouterr().err).endswith(f"cannot write the report {out}: No space left on device")
    assert out.read_text() == "previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_an_unwritable_directory_is_named_by_the_report(tmp_path, monkeypatch, capsys):
    real_open = os.open

    def read_only_directory(path, flags, *args, **kwargs):  # root ignores directory modes, so simulate one
        if flags & os.O_CREAT and Path(path).parent == tmp_path:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only_directory)
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 1
    assert error_line(capsys.readouterr().err).endswith(
        f"cannot write the report {tmp_path / 'r.html'}: Permission denied"
    )
    assert list(tmp_path.iterdir()) == []


def test_an_output_path_that_is_a_directory_is_an_error(tmp_path, capsys):
    (tmp_path / "r.html").mkdir()
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 1
    assert error_line(capsys.readouterr().err).endswith(f"output path is a directory: {tmp_path / 'r.html'}")
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"] and (tmp_path / "r.html").is_dir()


class _LeavingReader(io.TextIOWrapper):
    """Stdout whose reader has gone (`| head -c 10` once head exits): every write fails with EPIPE."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), encoding="utf-8")

    def write(self, text):
        raise BrokenPipeError(32, "Broken pipe")

    @property
    def buffer(self):
        return self

    def flush(self):
        pass


def test_a_report_the_reader_left_before_is_not_said_to_be_written(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdout", _LeavingReader())
    assert cli.main([str(SPLIT_K), "-o", "-"]) == 0  # ends quietly, as shell tools do
    err = capsys.readouterr().err
    assert "wrote" not in err and "error" not in err


@pytest.mark.parametrize("kind", ["file", "stdout"])
def test_a_text_written_a_slice_at_a_time_is_its_utf_8_whole(tmp_path, monkeypatch, kind, capsysbinary):
    """The page is encoded a slice at a time: characters of several bytes, and one past the BMP, at every slice
    edge come out as the text's own UTF-8."""
    monkeypatch.setattr(output, "_SLICE", 7)
    text = "".join(f"{i}:é∑\U0001f600\n" for i in range(50))
    target = tmp_path / "report.html"
    assert output.write("-" if kind == "stdout" else str(target), text)
    written = capsysbinary.readouterr().out if kind == "stdout" else target.read_bytes()
    assert written == text.encode("utf-8")
