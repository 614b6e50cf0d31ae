"""The command line: arguments, exit codes, one-line errors, atomic and deterministic output."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dumptools import FIXTURES, PROGRAM, REAL, subprocess_env
from pypto_ir_trace import cli, render
from pypto_ir_trace.formats import FORMATS

SPLIT_K = REAL / "advanced_01_split_k_concise" / "passes_dump"


def run(*args, cwd=None, env=None):
    """The module entry point in a subprocess, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "pypto_ir_trace", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=subprocess_env(**(env or {})),
        timeout=120,
    )


def one_error_line(stderr: str, kind="error") -> str:
    """The run's one error line; notes printed before the failure are allowed, nothing else."""
    lines = [line for line in stderr.strip().splitlines() if not line.startswith("pypto-ir-trace: note: ")]
    assert len(lines) == 1, stderr
    assert lines[0].startswith(f"pypto-ir-trace: {kind}: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


def test_success_writes_a_shareable_report(tmp_path):
    out = tmp_path / "report.html"
    old = os.umask(0o022)
    try:
        assert cli.main([str(SPLIT_K), "-o", str(out)]) == 0
    finally:
        os.umask(old)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert out.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary file left


def test_default_output_is_ir_trace_html_in_the_current_directory(tmp_path):
    result = run(SPLIT_K, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "ir_trace.html").is_file()
    assert result.stderr.splitlines() == [
        "pypto-ir-trace: note: reading a PyPTO passes_dump, 50 snapshots",
        "pypto-ir-trace: wrote ir_trace.html: 49 passes, 11 changed",
    ]


def test_quiet_prints_nothing_on_success_and_still_prints_errors(tmp_path):
    result = run(SPLIT_K.parent, "-q", "-o", tmp_path / "r.html")
    assert (result.returncode, result.stderr) == (0, "")
    assert (tmp_path / "r.html").is_file()
    failed = run(tmp_path / "nowhere", "--quiet", "-o", tmp_path / "s.html")
    assert failed.returncode == 1 and failed.stderr.startswith("pypto-ir-trace: error: input directory does not exist")


def test_a_forced_format_is_not_announced(tmp_path):
    result = run(SPLIT_K, "--format", "pypto", "-o", tmp_path / "r.html")
    assert result.returncode == 0
    assert [line.split(":")[1].strip() for line in result.stderr.splitlines()] == ["wrote " + str(tmp_path / "r.html")]


@pytest.mark.parametrize("given", [SPLIT_K, SPLIT_K.parent])
@pytest.mark.parametrize("forced", ["mlir-tree", "mlir-stream"])
def test_a_wrong_forced_format_names_the_one_the_input_looks_like(tmp_path, given, forced):
    """Not why the wrong reader failed (an MLIR tree's threading hint): which format it is, and how to pick it."""
    result = run(given, "--format", forced, "-o", tmp_path / "r.html")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        f"pypto-ir-trace: error: {given} is not {FORMATS[forced].description}: it looks like a PyPTO passes_dump "
        "(--format pypto, or leave --format out to detect it)"
    )
    assert not (tmp_path / "r.html").exists()


def test_a_forced_format_on_an_mlir_tree_names_it(tmp_path):
    tree = FIXTURES / "mlir" / "multi_func" / "tree_dir"
    result = run(tree, "--format", "pypto", "-o", tmp_path / "r.html")
    assert result.returncode == 1
    assert "it looks like an MLIR tree dump (--format mlir-tree," in one_error_line(result.stderr)


def test_a_forced_tree_of_other_files_is_not_given_the_threading_hint(tmp_path):
    (tmp_path / "dump").mkdir()
    (tmp_path / "dump" / "notes.txt").write_text("x\n", encoding="utf-8")
    result = run(tmp_path / "dump", "--format", "mlir-tree", "-o", tmp_path / "r.html")
    assert result.returncode == 1
    line = one_error_line(result.stderr)
    assert "no MLIR dump files under" in line and "no .mlir file" in line and "threading" not in line


def test_a_directory_of_programs_without_a_baseline_names_one_of_each_kind(tmp_path):
    root = tmp_path / "programs"
    shutil.copytree(SPLIT_K, root / "a_split_k" / "passes_dump")
    shutil.copytree(SPLIT_K, root / "b_split_k" / "passes_dump")
    for name in ("c_multi", "d_multi"):
        shutil.copytree(FIXTURES / "mlir" / "multi_func" / "tree_dir", root / name)
    shutil.copy(FIXTURES / "mlir" / "multi_func" / "stream.txt", root / "e_multi.txt")
    result = run(root, "-o", tmp_path / "r.html")
    assert result.returncode == 1
    assert one_error_line(result.stderr) == (
        f"pypto-ir-trace: error: {root} is a directory of 5 programs, not one dump: give one of them (e.g. "
        f"{root / 'a_split_k'}, a PyPTO passes_dump; {root / 'c_multi'}, an MLIR tree dump; "
        f"{root / 'e_multi.txt'}, an MLIR after-all stream), or compare two such directories with --baseline"
    )
    assert not (tmp_path / "r.html").exists()


def test_console_script_and_module_agree(tmp_path):
    script = Path(sys.executable).with_name("pypto-ir-trace")
    if not script.exists():
        pytest.fail(f"console script not installed beside {sys.executable}")
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("pypto-ir-trace ")
    assert run("--version").stdout == result.stdout


def test_help_lists_the_arguments():
    result = run("--help")
    assert result.returncode == 0
    for word in ("passes_dump", "--output", "--context"):
        assert word in result.stdout
    described = " ".join(result.stdout.split())
    for record in FORMATS.values():  # every format, in its record's words
        assert f"{record.name}: {record.help}" in described


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "the following arguments are required: passes_dump"),
        ([SPLIT_K, "--context", "-1"], "argument --context: must be a non-negative integer, got '-1'"),
        ([SPLIT_K, "--context", "three"], "argument --context: must be a non-negative integer, got 'three'"),
        ([SPLIT_K, "--bogus"], "unrecognized arguments: --bogus"),
    ],
)
def test_argument_errors_exit_2(args, message):
    result = run(*args)
    assert result.returncode == 2
    assert message in one_error_line(result.stderr)


def test_context_zero_is_accepted(tmp_path):
    assert run(SPLIT_K, "--context", "0", "-o", tmp_path / "r.html").returncode == 0


def test_missing_input_directory(tmp_path):
    result = run(tmp_path / "build_output", "-o", tmp_path / "r.html")
    assert result.returncode == 1
    assert one_error_line(result.stderr).endswith(f"input directory does not exist: {tmp_path / 'build_output'}")
    assert not (tmp_path / "r.html").exists()


def test_output_directory_must_exist(tmp_path):
    result = run(SPLIT_K, "-o", tmp_path / "nope" / "r.html")
    assert result.returncode == 1
    assert f"output directory does not exist: {tmp_path / 'nope'}" in one_error_line(result.stderr)
    assert not (tmp_path / "nope").exists()


def test_bad_dump_exits_1_and_keeps_the_existing_report(make_dump, tmp_path):
    dump = make_dump({"00_frontend.py": PROGRAM, "02_after_B.py": PROGRAM})
    out = tmp_path / "r.html"
    out.write_text("previous report")
    result = run(dump, "-o", out)
    assert result.returncode == 1
    assert "missing 01 between 00_frontend.py and 02_after_B.py" in one_error_line(result.stderr)
    assert out.read_text() == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case", "r.html"]


def test_internal_error_is_one_line_with_a_hint(tmp_path, monkeypatch, capsys):
    def explode(_model):  # the page is written as it is encoded: the failure comes half-way
        yield "<!DOCTYPE html>"
        raise RuntimeError("boom")

    monkeypatch.setattr(render, "pieces", explode)
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 1
    line = one_error_line(capsys.readouterr().err, kind="internal error")
    assert "RuntimeError: boom" in line and "report" in line
    assert list(tmp_path.iterdir()) == []


def test_compile_output_dir_is_redirected_with_a_note(tmp_path):
    result = run(SPLIT_K.parent, "-o", tmp_path / "r.html")
    assert result.returncode == 0
    assert result.stderr.splitlines()[0] == f"pypto-ir-trace: note: using {SPLIT_K.parent / 'passes_dump'}"


def test_the_note_on_a_compile_output_names_every_folder_read(tmp_path):
    """Its ptoas units are read too (one pipeline each), so the note names them; two runs compare only passes_dump."""
    out = tmp_path / "prog"
    shutil.copytree(SPLIT_K, out / "passes_dump")
    for unit, tree in (("kernel_aiv", "multi_func"), ("kernel_aic", "failing_bufferize")):
        shutil.copytree(FIXTURES / "mlir" / tree / "tree_dir", out / "ptoas_passes" / unit)
    result = run(out, "-o", tmp_path / "r.html")
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        f"pypto-ir-trace: note: using {out / 'passes_dump'} and {out / 'ptoas_passes'} "
        "(2 codegen units: kernel_aic, kernel_aiv)"
    )
    both = run(out, "--baseline", out, "-o", tmp_path / "runs.html")
    assert both.returncode == 0, both.stderr
    assert both.stderr.splitlines()[:2] == [f"pypto-ir-trace: note: using {out / 'passes_dump'}"] * 2


def test_frontend_only_dump_renders_with_a_note(make_dump, tmp_path):
    result = run(make_dump({"00_frontend.py": PROGRAM}), "-o", tmp_path / "r.html")
    assert result.returncode == 0
    assert "no pass snapshot follows it" in result.stderr
    data = render.decode_data((tmp_path / "r.html").read_text(encoding="utf-8"))
    pipeline = data["pipelines"][0]
    assert pipeline["passes"] == [] and pipeline["input"]["file"] == "00_frontend.py"


def test_report_is_byte_identical_whatever_the_path_cwd_or_hash_seed(tmp_path):
    first = tmp_path / "a.html"
    second = tmp_path / "sub" / "b.html"
    second.parent.mkdir()
    assert run(SPLIT_K.resolve(), "-o", first, env={"PYTHONHASHSEED": "1"}).returncode == 0
    relative = os.path.relpath(SPLIT_K, second.parent)
    assert run(relative, "-o", "b.html", cwd=second.parent, env={"PYTHONHASHSEED": "2"}).returncode == 0
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text(encoding="utf-8")
    assert str(REAL) not in text and str(tmp_path) not in text


def test_dump_structure_prints_what_the_parser_saw(tmp_path):
    result = run(SPLIT_K, "--dump-structure")
    assert result.returncode == 0
    assert "00_frontend.py:" in result.stdout and "_jit_matmul_split_k.matmul_split_k" in result.stdout
    assert "trusted" in result.stdout


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_disappears_at_the_end(tmp_path, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)  # as if the run were long
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 0
    written = terminal.getvalue()
    assert "\rpypto-ir-trace: 49/49 passes" in written
    _progress, summary = written.rsplit("\r\x1b[K", 1)  # the line is erased: nothing is left on screen
    assert summary == f"pypto-ir-trace: wrote {tmp_path / 'r.html'}: 49 passes, 11 changed\n"


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(cli, "PROGRESS_AFTER", 0.0)
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "r.html")]) == 0
    err = capsys.readouterr().err
    assert "\r" not in err and "\x1b" not in err
    assert err.splitlines()[-1] == f"pypto-ir-trace: wrote {tmp_path / 'r.html'}: 49 passes, 11 changed"


@pytest.mark.parametrize(
    "args, named",
    [
        ([""], "passes_dump"),
        ([str(SPLIT_K), "-o", ""], "-o/--output"),
        ([str(SPLIT_K), "--baseline", ""], "--baseline"),
    ],
    ids=["input", "output", "baseline"],
)
def test_an_empty_path_is_an_argument_error(tmp_path, args, named):
    """ "" would mean the current directory as input, or the default report as output: never what was meant."""
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    line = one_error_line(result.stderr)
    assert named in line and "must not be empty" in line
    assert list(tmp_path.iterdir()) == []


def _tree(root: Path) -> Path:
    top = root / "builtin_module"
    top.mkdir(parents=True)
    header = "// -----// IR Dump After CSE (cse) ('builtin.module' operation) //----- //\n"
    (top / "0_cse.mlir").write_text(header + "module {\n}\n", encoding="utf-8")
    (top / "1_cse.mlir").write_text(header + "module {\n  func.func @f() {\n    return\n  }\n}\n", encoding="utf-8")
    return root


@pytest.mark.parametrize(
    "make, output",
    [
        (lambda tmp: shutil.copytree(SPLIT_K, tmp / "passes_dump"), "passes_dump/50_after_Evil.py"),
        (lambda tmp: shutil.copytree(SPLIT_K, tmp / "passes_dump"), "passes_dump/50_after_Evil.log"),
        (lambda tmp: _tree(tmp / "tree"), "tree/builtin_module/2_evil.mlir"),
        (lambda tmp: _tree(tmp / "tree"), "tree/99_evil.mlir"),
    ],
    ids=["pypto snapshot", "pypto log", "tree file", "tree top"],
)
def test_a_report_the_next_run_would_read_as_a_dump_file_is_refused(tmp_path, make, output):
    make(tmp_path)
    given = output.split("/", 1)[0]
    before = sorted(p for p in tmp_path.rglob("*"))
    result = run(given, "-o", output, cwd=tmp_path)
    assert result.returncode == 1
    assert "would read it as one of its dump files" in one_error_line(result.stderr)
    assert sorted(p for p in tmp_path.rglob("*")) == before
    beside = run(given, "-o", f"{given}/ir_trace.html", cwd=tmp_path)  # a name discovery ignores is fine
    assert beside.returncode == 0, beside.stderr
