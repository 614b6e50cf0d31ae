"""The directory of reports of many programs never costs the user a file: it is refused around, over or inside
an input root by any spelling, and replacing a previous one removes only what this tool wrote there."""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest

import proctools
from dumptools import CONCISE, FIXTURES, REAL, missing, subprocess_env, write_dump
from pypto_ir_trace import cli, outdir

PROGRAM = FIXTURES / "viewer" / "functions"


def roots(where: Path) -> tuple[Path, Path]:
    new, old = where / "new", where / "old"
    for root in (new, old):
        shutil.copytree(PROGRAM, root / "functions")
    snapshot = new / "functions" / "passes_dump" / "02_after_ConvertToSSA.py"
    snapshot.write_text(snapshot.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    return new, old


def tree(path: Path) -> dict[str, bytes]:
    """Every file below path and its bytes: what must survive a refused run untouched."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def run(capsys, *args: str) -> tuple[int, str]:
    code = cli.main([*args])
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return code, err


def test_rerun_with_the_dumps_moved_beside_their_reports_keeps_them(tmp_path, capsys, monkeypatch):
    """The reported loss: `new --baseline old -o reports`, then `mv new old reports/`, then run again."""
    monkeypatch.chdir(tmp_path)
    roots(tmp_path)
    assert run(capsys, "new", "--baseline", "old", "-o", "reports")[0] == 0
    for name in ("new", "old"):
        os.rename(name, Path("reports") / name)
    before = tree(tmp_path / "reports")
    code, err = run(capsys, "reports/new", "--baseline", "reports/old", "-o", "reports")
    assert code == 1 and err.count("\n") == 0
    assert "refusing to write the reports to reports: it contains reports/new" in err
    assert tree(tmp_path / "reports") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no temporary left beside it


@pytest.mark.parametrize("spelling", ["relative", "absolute", "dotdot", "symlink to output", "symlink to parent"])
def test_an_output_holding_an_input_root_is_refused_by_every_spelling(tmp_path, capsys, monkeypatch, spelling):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    reports = work / "reports"
    _new, old = roots(reports)
    (work / "sub").mkdir()
    (work / "link").symlink_to(reports)
    (work / "up").symlink_to(work)
    output = {
        "relative": "reports",
        "absolute": str(reports),
        "dotdot": "sub/../reports",
        "symlink to output": "link",
        "symlink to parent": "up/reports",
    }[spelling]
    before = tree(reports)
    code, err = run(capsys, "reports/new", "--baseline", str(old), "-o", output)
    assert code == 1 and "refusing to write the reports" in err and "a directory being read" in err
    assert tree(reports) == before


@pytest.mark.parametrize("which", ["this run", "baseline"])
def test_an_output_that_is_an_input_root_is_refused(tmp_path, capsys, which):
    new, old = roots(tmp_path)
    (tmp_path / "alias").symlink_to(new if which == "this run" else old)
    before = tree(tmp_path)
    for output in (str(new if which == "this run" else old), str(tmp_path / "alias")):
        code, err = run(capsys, str(new), "--baseline", str(old), "-o", output)
        assert code == 1 and ": it is " in err, err
    assert tree(tmp_path) == before


def test_an_output_inside_an_input_root_is_refused(tmp_path, capsys):
    new, old = roots(tmp_path)
    before = tree(tmp_path)
    for output in (old / "reports", new / "functions" / "reports", tmp_path / "new" / ".." / "new" / "r"):
        code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(output))
        assert code == 1 and "is inside" in err, err
    assert tree(tmp_path) == before


def test_a_bind_like_second_name_for_a_root_is_caught_by_identity(tmp_path):
    """Two paths that name one directory without a symlink between them (a bind mount) overlap by identity;
    a hard link to a directory cannot be made, so the identity check is exercised through the helper."""
    new, _old = roots(tmp_path)
    assert outdir._relation(tmp_path, new) == "contains"
    assert outdir._relation(new / "functions", new) == "is inside"
    assert outdir._relation(tmp_path / "elsewhere", new) == ""


def test_replacing_removes_only_what_the_previous_run_wrote(tmp_path, capsys):
    new, old = roots(tmp_path / "in")
    out = tmp_path / "reports"
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0
    manifest = json.loads((out / outdir.MANIFEST).read_text(encoding="utf-8"))
    assert sorted(manifest["files"]) == ["functions.html", "index.html"]
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0  # ours: replaced
    (out / "notes.txt").write_text("mine")
    before = tree(out)
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 1 and "it holds 'notes.txt', which this tool did not write" in err
    assert tree(out) == before
    (out / "notes.txt").unlink()
    (out / "functions.html").unlink()
    (out / "functions.html").mkdir()  # a listed name that is now the user's directory
    (out / "functions.html" / "keep").write_text("mine")
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 1 and "'functions.html'" in err
    assert (out / "functions.html" / "keep").read_text() == "mine"


def test_a_directory_without_a_manifest_is_replaced_only_when_it_is_an_index_and_its_reports(tmp_path, capsys):
    """Directories written before the manifest existed: the index page and the reports it links to."""
    new, old = roots(tmp_path / "in")
    out = tmp_path / "reports"
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0
    (out / outdir.MANIFEST).unlink()
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0
    (out / outdir.MANIFEST).unlink()
    (out / "extra.html").write_text("<p>my own page</p>")
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 1 and "'extra.html'" in err and (out / "extra.html").exists()
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "index.html").write_text("<p>not ours</p>")
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(plain))
    assert code == 1 and "not an empty directory nor one this tool wrote" in err
    assert (plain / "index.html").read_text() == "<p>not ours</p>"


def test_a_file_added_while_the_run_works_is_kept(tmp_path, capsys, monkeypatch):
    """The check is made again just before the swap: a file dropped in meanwhile stops the swap."""
    new, old = roots(tmp_path / "in")
    out = tmp_path / "reports"
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0
    real_check = outdir._check_replaceable
    calls = []

    def late(target, index):
        calls.append(target)
        if len(calls) == 2:  # the first call is the check before the run; the second the one before the swap
            (out / "late.txt").write_text("mine")
        real_check(target, index)

    monkeypatch.setattr(outdir, "_check_replaceable", late)
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 1 and "late.txt" in err and (out / "late.txt").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in", "reports"]


@pytest.mark.parametrize("sent, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_run_leaves_no_temporary_directory_and_no_process(tmp_path, sent, code):
    """CI stops a job with SIGTERM; a user with Ctrl-C (SIGINT to the whole process group, the workers too):
    neither leaves the half-written directory behind, nor a worker process."""
    new, old = tmp_path / "new", tmp_path / "old"
    for number in range(40):
        for root in (new, old):
            shutil.copytree(REAL / "advanced_01_split_k_explicit", root / f"p{number:02d}")
    proc = proctools.cli(str(new), "--baseline", str(old), "-o", str(tmp_path / "reports"), "--jobs", "2")
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob(".reports.*/p*.html"))) < 2:  # the run is under way: both workers write reports
        assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it could be stopped"
        time.sleep(0.01)
    workers = proctools.group(proc.pid) - {proc.pid}
    assert len(workers) >= 2
    if sent == signal.SIGINT:
        os.killpg(proc.pid, sent)  # as a terminal sends Ctrl-C
    else:
        proc.send_signal(sent)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code and "Traceback" not in err
    assert err.strip().splitlines()[-1] in ("pypto-ir-trace: error: terminated", "pypto-ir-trace: error: interrupted")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "old"]
    assert not proctools.left_after(proc.pid)


def test_program_and_output_names_at_the_file_name_limit(tmp_path, capsys):
    """84 CJK characters make 252 bytes: legal names whose report (`.html`) or temporary name would not fit."""
    long_a, long_b = "核" * 84, "核" * 83 + "心"
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        for name in (long_a, long_b, "short"):
            shutil.copytree(PROGRAM, root / name)
    out = tmp_path / ("报" * 84)
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 0, err
    files = sorted(p.name for p in out.iterdir())
    assert "short.html" in files and len(files) == 5  # index, manifest, three reports, none lost to a clash
    assert all(len(os.fsencode(name)) <= 255 for name in files)
    page = (out / "index.html").read_text(encoding="utf-8")
    for name in files:
        if name.endswith(".html") and name != "index.html":
            assert f'href="{quote(name)}"' in page  # each shortened report is linked from the index
    again = tmp_path / "again"
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(again))[0] == 0
    assert sorted(p.name for p in again.iterdir()) == files  # the shortened names are stable


@pytest.mark.parametrize(
    "failure, where",
    [(errno.ENOSPC, "write_text"), (errno.EACCES, "mkdir")],
    ids=["no space left", "permission denied"],
)
def test_write_errors_name_the_directory_given_not_a_temporary_one(tmp_path, capsys, monkeypatch, failure, where):
    new, old = roots(tmp_path / "in")
    out = tmp_path / "reports"
    real = getattr(Path, where)

    def refuse(path, *args, **kwargs):
        if path.parent == tmp_path or path.parent.parent == tmp_path:  # the output's side, not the inputs'
            raise OSError(failure, os.strerror(failure), str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Path, where, refuse)
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 1 and f"cannot write the reports to {out}: {os.strerror(failure)}" in err
    assert ".reports." not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]


# ---- which entries of a root are programs: one rule for every format ----------------------------------------

MLIR_TREE = FIXTURES / "mlir" / "multi_func" / "tree_dir"
MLIR_STREAM = FIXTURES / "mlir" / "multi_func" / "stream.txt"


def index_names(out: Path) -> list[str]:
    page = (out / "index.html").read_text(encoding="utf-8")
    return sorted(set(re.findall(r'data-program="([^"]+)"', page)))


@pytest.mark.parametrize("kind", ["pypto", "mlir-tree"])
def test_a_root_of_one_program_gives_a_directory_whatever_the_format(tmp_path, capsys, kind):
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        shutil.copytree(PROGRAM if kind == "pypto" else MLIR_TREE, root / "prog")
    out = tmp_path / "reports"
    assert run(capsys, str(new), "--baseline", str(old), "-o", str(out))[0] == 0
    assert index_names(out) == ["prog"] and (out / "prog.html").is_file()


@pytest.mark.parametrize("kind", ["pypto", "mlir-tree"])
def test_links_back_into_the_root_and_folders_of_several_programs_are_skipped_with_a_note(tmp_path, capsys, kind):
    new, old = tmp_path / "new", tmp_path / "old"
    source = PROGRAM if kind == "pypto" else MLIR_TREE
    for root in (new, old):
        shutil.copytree(source, root / "a")
        shutil.copytree(source, root / "b")
        shutil.copytree(source, root / "group" / "x")
        shutil.copytree(source, root / "group" / "y")
        (root / "latest").symlink_to(".")
        (root / "newest").symlink_to("a")
    out = tmp_path / "reports"
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 0, err
    assert index_names(out) == ["a", "b"]
    assert "latest (a link back into new)" in err and "newest (a link back into new)" in err
    assert "group (it holds 2 programs: give it as a root of its own)" in err
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "Not read as programs (6)" in page and "old/latest (a link back into old)" in page


def test_stream_files_are_programs_in_a_root_and_in_a_programs_folder(tmp_path, capsys):
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        root.mkdir()
        shutil.copy(MLIR_STREAM, root / "softmax.txt")
        (root / "matmul").mkdir()
        shutil.copy(MLIR_STREAM, root / "matmul" / "stream.txt")
        (root / "README.md").write_text("not a dump")
    out = tmp_path / "reports"
    code, err = run(capsys, str(new), "--baseline", str(old), "-o", str(out))
    assert code == 0, err
    assert index_names(out) == ["matmul", "softmax.txt"]
    assert "README" not in err


# ---- a program that cannot be read, however it cannot --------------------------------------------------------

WITHOUT_ROOTS_RIGHTS = ["--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search"]  # mode bits apply


def as_a_user(*command: str) -> subprocess.CompletedProcess:
    """command run as root without the right to read or list anything (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
    `chmod 000` stops it as it stops any user (the tests run as root, whom no mode bit stops)."""
    setpriv = shutil.which("setpriv")
    if setpriv is None or subprocess.run([setpriv, *WITHOUT_ROOTS_RIGHTS, "true"]).returncode != 0:
        missing("setpriv (util-linux) cannot drop root's right to read any file here")
    return subprocess.run(
        [setpriv, *WITHOUT_ROOTS_RIGHTS, *command], env=subprocess_env(), capture_output=True, text=True, timeout=60
    )


def test_programs_whose_folders_cannot_be_listed_are_unreadable_and_the_others_compared(tmp_path):
    """`chmod 000 old/b/passes_dump` and `chmod 000 old/c`: as for a snapshot file that cannot be read, those
    programs are listed as unreadable with the reason, named on stderr, the others compared, exit 1."""
    for side in ("new", "old"):
        for name in "abcd":
            files = {**CONCISE, "01_after_NameCall.py": CONCISE["01_after_NameCall.py"] + f"# {side}\n"}
            write_dump(tmp_path / side / name, files if name == "a" else CONCISE)
    locked = [tmp_path / "old" / "b" / "passes_dump", tmp_path / "old" / "c"]
    for folder in locked:
        folder.chmod(0)
    try:
        out, found = tmp_path / "reports", tmp_path / "s.json"
        roots = [str(tmp_path / "new"), "--baseline", str(tmp_path / "old")]
        done = as_a_user(sys.executable, "-m", "pypto_ir_trace", *roots, "-o", str(out), "--summary-json", str(found))
    finally:
        for folder in locked:
            folder.chmod(0o755)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 2 and all(line.endswith(": Permission denied") for line in errors), errors
    assert errors[0].startswith("pypto-ir-trace: error: b: cannot read old/b/passes_dump/"), errors
    assert errors[1].startswith("pypto-ir-trace: error: c: cannot read old/c"), errors
    statuses = {p["name"]: p["status"] for p in json.loads(found.read_text(encoding="utf-8"))["programs"]}
    assert statuses == {"a": "differs", "b": "unreadable", "c": "unreadable", "d": "identical"}
    assert sorted(p.name for p in out.glob("*.html")) == ["a.html", "d.html", "index.html"]
