"""The two runs' names: two runs of one program are told apart by the part of their paths that differs, or as the
user names them, in the report's model, both summaries, the notes on stderr and the index page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dumptools import FIXTURES
from pypto_ir_trace import api, cli, errors, render
from pypto_ir_trace.labels import differing_parts, run_labels

SMALL = FIXTURES / "runs" / "small"


@pytest.mark.parametrize(
    ("this", "baseline", "names"),
    [
        ("x/runB/qwen3/passes_dump", "x/real/qwen3/passes_dump", ("runB", "real")),
        ("a/b/new/p", "c/new/p", ("a/b", "c")),  # every part that differs
        ("x/runB/p", "x/p", ("runB", "x")),  # nothing left of one: the folder holding the shared end
        ("x/p", "x/p", None),
    ],
)
def test_the_parts_of_two_paths_that_differ(tmp_path, this, baseline, names):
    assert differing_parts(tmp_path / this, tmp_path / baseline) == names


def test_titles_that_differ_are_kept_and_given_names_win(tmp_path):
    assert run_labels(("a", "b"), (tmp_path / "x/a", tmp_path / "y/b")) == ("a", "b")
    assert run_labels(("p", "p"), (tmp_path / "new/p", tmp_path / "old/p")) == ("new", "old")
    assert run_labels(("p", "p"), (tmp_path / "new/p", tmp_path / "old/p"), ("mine", None)) == ("mine", "old")


def two_runs_of_one_program(where: Path) -> tuple[Path, Path]:
    """runB/prog/passes_dump and real/prog/passes_dump: one program, two runs, the same title."""
    for run, side in (("runB", "this"), ("real", "baseline")):
        shutil.copytree(SMALL / side, where / run / "prog")
    return where / "runB" / "prog" / "passes_dump", where / "real" / "prog" / "passes_dump"


def run(tmp_path: Path, capsys, *extra: str) -> tuple[dict, dict, str, str]:
    """(the report's data, the summary JSON, the Markdown, stderr) of a two-run report of one program's runs."""
    this, baseline = two_runs_of_one_program(tmp_path)
    out, found, md = tmp_path / "r.html", tmp_path / "s.json", tmp_path / "s.md"
    arguments = [str(this), "--baseline", str(baseline), "-o", str(out), "--summary-json", str(found)]
    assert cli.main([*arguments, "--summary-md", str(md), *extra]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    return data, json.loads(found.read_text(encoding="utf-8")), md.read_text(encoding="utf-8"), capsys.readouterr().err


def test_two_runs_of_one_program_are_named_by_the_part_of_their_paths_that_differs(tmp_path, capsys):
    data, found, md, err = run(tmp_path, capsys)
    assert data["title"] == "prog/passes_dump"  # the program, in the page's title and header
    assert [pipeline["title"] for pipeline in data["pipelines"]] == ["runB", "real"]
    assert [pipeline["title"] for pipeline in found["pipelines"]] == ["runB", "real"]
    assert md.startswith("### IR Trace: `prog/passes_dump`, two runs: `runB` against the baseline `real`\n")
    assert "note: runB: reading a PyPTO passes_dump" in err and "note: real: reading a PyPTO passes_dump" in err


def test_the_user_names_the_two_runs_everywhere(tmp_path, capsys):
    data, found, md, err = run(tmp_path, capsys, "--label", "patched", "--baseline-label", "main")
    assert [pipeline["title"] for pipeline in data["pipelines"]] == ["patched", "main"]
    assert [pipeline["title"] for pipeline in found["pipelines"]] == ["patched", "main"]
    assert md.startswith("### IR Trace: `prog/passes_dump`, two runs: `patched` against the baseline `main`\n")
    assert "note: patched: reading" in err and "note: main: reading" in err and "runB" not in err


def test_labels_need_a_baseline_and_a_name(tmp_path, capsys):
    this, _ = two_runs_of_one_program(tmp_path)
    assert cli.main([str(this), "--label", "x", "-o", str(tmp_path / "r.html")]) == 2
    assert "--label and --baseline-label name the two runs: give --baseline" in capsys.readouterr().err
    assert cli.main([str(this), "--baseline", str(this), "--label", ""]) == 2
    assert "argument --label: must not be empty" in capsys.readouterr().err
    with pytest.raises(errors.UsageError, match="give a baseline too"):
        api.build_report(this, label="x")
    assert not (tmp_path / "r.html").exists()


def roots_of_one_name(where: Path) -> tuple[Path, Path]:
    """a/new and b/new: two roots of the same name, each holding one program."""
    for root, side in (("a", "this"), ("b", "baseline")):
        shutil.copytree(SMALL / side, where / root / "new" / "prog")
    return where / "a" / "new", where / "b" / "new"


@pytest.mark.parametrize(
    ("extra", "names"), [((), ("a", "b")), (("--label", "patched", "--baseline-label", "main"), ("patched", "main"))]
)
def test_the_index_and_each_report_of_two_roots_of_one_name_tell_the_runs_apart(tmp_path, capsys, extra, names):
    this, baseline = roots_of_one_name(tmp_path)
    out = tmp_path / "reports"
    assert cli.main([str(this), "--baseline", str(baseline), "-o", str(out), "--jobs", "1", "-q", *extra]) == 0
    index = out.joinpath("index.html").read_text(encoding="utf-8")
    assert f'{names[0]} <span class="against">against the baseline</span> {names[1]}' in index
    data = render.decode_data(out.joinpath("prog.html").read_text(encoding="utf-8"))
    assert [pipeline["title"] for pipeline in data["pipelines"]] == list(names)
