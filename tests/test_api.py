"""The Python API, used as a library user would (`import pypto_ir_trace`): typed, documented, the same behaviour
as the command line, errors as the package's exceptions; many programs on several cores give the same bytes."""

from __future__ import annotations

import inspect
import json
import multiprocessing
import os
import shutil
import signal
from pathlib import Path

import pytest

import proctools
import pypto_ir_trace as irt
from dumptools import FIXTURES, REAL
from pypto_ir_trace import cli

RUNS = FIXTURES / "runs"
DSA = RUNS / "variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit"
PTOAS = RUNS / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit"
SPLIT_K = REAL / "advanced_01_split_k_concise" / "passes_dump"


def test_the_public_api_is_typed_documented_and_all_it_exports():
    package = Path(irt.__file__).parent
    assert (package / "py.typed").is_file() and (package / "summary.schema.json").is_file()
    for name in irt.__all__:
        assert hasattr(irt, name), name
    for function in (irt.build_report, irt.compare_programs, irt.merge_summaries, irt.Report.write, irt.Report.summary):
        signature = inspect.signature(function)
        assert function.__doc__ and signature.return_annotation is not inspect.Signature.empty, function
        assert all(
            p.annotation is not inspect.Parameter.empty for p in signature.parameters.values() if p.name != "self"
        )
    for error in (irt.DumpError, irt.OutputError, irt.UsageError, irt.SummaryError, irt.WorkerDied):
        assert issubclass(error, irt.IRTraceError) and not issubclass(error, SystemExit)
    assert irt.summary_schema()["title"].endswith(f"version {irt.SUMMARY_VERSION}")


def test_build_report_writes_what_the_command_line_writes(tmp_path):
    report = irt.build_report(SPLIT_K)
    assert (report.read_from, report.notes) == ((), ("reading a PyPTO passes_dump, 50 snapshots",))
    assert irt.build_report(SPLIT_K.parent).read_from == (f"using {SPLIT_K}",)
    assert report.summary()["report"] is None  # not written yet
    assert report.write(tmp_path / "api.html") is True
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "cli.html"), "-q"]) == 0
    assert (tmp_path / "api.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
    found = report.summary()
    assert found["kind"] == "dump" and found["report"] == str(tmp_path / "api.html") and not report.differs
    two = irt.build_report(DSA, baseline=PTOAS, context=1)
    assert two.differs and two.summary()["firstDivergent"]["pass"] == "34 AllocateMemoryAddr"
    assert "<!DOCTYPE html>" in two.html()[:100]


def test_api_errors_are_the_packages_exceptions_never_system_exit(tmp_path):
    with pytest.raises(irt.DumpError, match="input directory does not exist"):
        irt.build_report(tmp_path / "nowhere")
    with pytest.raises(irt.UsageError, match="PyPTO"):
        irt.build_report(DSA, baseline=FIXTURES / "mlir" / "multi_func" / "stream.txt")
    with pytest.raises(irt.UsageError, match="unknown format"):
        irt.build_report(DSA, format="fortran")
    with pytest.raises(irt.OutputError, match="a file of the dump being read"):
        irt.build_report(DSA).write(DSA / "passes_dump" / "00_frontend.py")
    new, old = roots(tmp_path, ["functions"])
    with pytest.raises(irt.UsageError, match="compare them with compare_programs"):
        irt.build_report(new, baseline=old)
    with pytest.raises(irt.UsageError, match="jobs must be at least 1"):
        irt.compare_programs(new, old, tmp_path / "out", jobs=0)
    with pytest.raises(irt.OutputError, match="a directory being read"):
        irt.compare_programs(new, old, new / "out")
    with pytest.raises(irt.SummaryError, match="not JSON"):
        (tmp_path / "bad.json").write_text("{")
        irt.merge_summaries([tmp_path / "bad.json"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json", "new", "old"]


def roots(where: Path, names: list[str]) -> tuple[Path, Path]:
    """Two roots of fixture programs, each program's input edited in this run for every third one."""
    new, old = where / "new", where / "old"
    sources = {p.name: p for p in [*REAL.iterdir(), *(FIXTURES / "viewer").iterdir(), *RUNS.iterdir()] if p.is_dir()}
    for k, name in enumerate(names):
        for root in (new, old):
            shutil.copytree(sources[name], root / name)
        if k % 3 == 0:
            snapshot = sorted((new / name / "passes_dump").glob("*.py"))[-1]
            snapshot.write_text(snapshot.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    return new, old


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def test_compare_programs_gives_the_same_bytes_with_one_job_or_two(tmp_path):
    names = sorted(p.name for p in [*REAL.iterdir(), *RUNS.iterdir()] if (p / "passes_dump").is_dir())
    names += ["functions", "crlf"]
    new, old = roots(tmp_path, names)
    shutil.rmtree(old / "crlf")  # this run only
    (new / "functions" / "passes_dump" / "00_frontend.py").unlink()  # unreadable
    seen: list[tuple[int, int]] = []
    one = irt.compare_programs(new, old, tmp_path / "one", jobs=1)
    two = irt.compare_programs(
        new, old, tmp_path / "two", jobs=2, progress=lambda done, total: seen.append((done, total))
    )
    assert tree(tmp_path / "one") == tree(tmp_path / "two") and len(tree(tmp_path / "two")) == len(names) + 1
    assert seen == [(k, len(names)) for k in range(1, len(names) + 1)]
    without_paths = lambda s: json.dumps({**s, "directory": None, "index": None})
    assert without_paths(one.summary()) == without_paths(two.summary())
    statuses = {program.name: program.status for program in two.programs}
    assert statuses["functions"] == "unreadable" and statuses["crlf"] == "this-run-only"
    assert sum(status == "differs" for status in statuses.values()) == len(names[::3]) - 1  # functions: unreadable
    assert two.differs and [p.name for p in two.unreadable] == ["functions"]
    assert all(
        p.report is not None and p.report.parent == tmp_path / "two" for p in two.programs if p.name != "functions"
    )
    assert two.index == tmp_path / "two" / "index.html"
    for program, entry in zip(two.programs, two.summary()["programs"], strict=True):  # one run, told two ways
        assert (program.name, program.status, program.first_divergent, program.error) == (
            entry["name"],
            entry["status"],
            entry["firstDivergent"],
            entry.get("error"),
        )
        assert (program.inserted, program.deleted) == (entry["inserted"], entry["deleted"])
        assert program.report == (tmp_path / "two" / entry["report"] if entry["report"] else None)
    assert next(p for p in two.programs if p.name == "functions").error


def test_a_worker_killed_mid_run_costs_nothing_its_programs_are_compared_again(tmp_path):
    """The out-of-memory killer (or a user) ends a worker mid-program: the programs in flight are compared again,
    each alone, and the directory is the one a run without that death writes."""
    names = sorted(p.name for p in REAL.iterdir() if (p / "passes_dump").is_dir())
    new, old = roots(tmp_path, names)
    killed: list[int] = []

    def kill_a_worker(done: int, total: int) -> None:
        if done == 1:  # one program in; the workers are busy with the next ones
            busy = proctools.pool_workers(os.getpid())
            os.kill(busy[0], signal.SIGKILL)
            killed.append(busy[0])

    irt.compare_programs(new, old, tmp_path / "one", jobs=1)
    result = irt.compare_programs(new, old, tmp_path / "two", jobs=2, progress=kill_a_worker)
    assert killed and not result.unreadable and tree(tmp_path / "one") == tree(tmp_path / "two")
    assert multiprocessing.active_children() == [] and not proctools.alive(killed[0])
