"""Results a machine can read: --summary-json (checked against the schema the package ships, on real outputs of
every kind), --summary-md (bounded whatever the input), --check's exit status, and merging sharded roots."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from dumptools import FIXTURES, PROGRAM, REAL, subprocess_env, write_dump
from pypto_ir_trace import cli, render, summary
from schemacheck import Invalid, unknown_keywords, validate

RUNS = FIXTURES / "runs"
DSA = RUNS / "variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit"  # runs AllocateMemoryAddr
PTOAS = RUNS / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit"  # does not
SPLIT_K = REAL / "advanced_01_split_k_explicit" / "passes_dump"
MLIR = FIXTURES / "mlir"
SCHEMA = summary.schema()


def summarised(tmp_path: Path, *args: str | Path, code: int = 0) -> tuple[dict, dict | None]:
    """(the summary JSON, the report's data, or None for a directory) of a run of the command."""
    out = tmp_path / "summary.json"
    assert cli.main([*map(str, args), "--summary-json", str(out), "-q"]) == code
    found = json.loads(out.read_text(encoding="utf-8"))
    validate(found, SCHEMA)
    report = Path(found["report"]) if found.get("report") else None
    return found, render.decode_data(report.read_text(encoding="utf-8")) if report else None


def test_the_schema_uses_only_checked_keywords_and_the_validator_rejects_each_violation(tmp_path):
    assert unknown_keywords(SCHEMA) == []
    assert unknown_keywords({"type": "object", "patternProperties": {}}) == ["#/patternProperties"]
    good, _ = summarised(tmp_path, SPLIT_K, "-o", tmp_path / "r.html")
    breakages = [
        lambda s: s.pop("pipelines"),  # a required key missing
        lambda s: s.update(extra=1),  # a key the schema does not name
        lambda s: s.update(version=2),  # another version
        lambda s: s.update(kind="programs"),  # the kind says another shape
        lambda s: s["pipelines"][0]["passes"][0].update(inserted=-1),  # a negative count
        lambda s: s["pipelines"][0]["passes"][0].update(noOp="no"),  # a wrong type
        lambda s: s["pipelines"][0].update(format="llvm"),  # a value outside its enum
        lambda s: s["pipelines"][0]["functions"].append({"name": "f"}),  # an item's key missing
    ]
    for breaking in breakages:
        broken = copy.deepcopy(good)
        breaking(broken)
        with pytest.raises(Invalid):
            validate(broken, SCHEMA)


def test_one_pypto_dump_summary_is_what_its_report_shows(tmp_path):
    found, data = summarised(tmp_path, SPLIT_K, "-o", tmp_path / "r.html")
    assert found["kind"] == "dump" and found["report"] == str(tmp_path / "r.html")
    (pipeline,) = found["pipelines"]
    passes = data["pipelines"][0]["passes"]
    assert [(p["label"], p["name"], p["inserted"], p["deleted"]) for p in pipeline["passes"]] == [
        (p["label"], p["name"], p["inserted"], p["deleted"]) for p in passes
    ]
    assert [p["noOp"] for p in pipeline["passes"]] == [p["before"] == p["after"] for p in passes]
    assert sum(not p["noOp"] for p in pipeline["passes"]) == 11  # as the `wrote` line says: 49 passes, 11 changed
    # Each function lists exactly the passes whose diff changes it, with the counts the page shows.
    expected: dict[str, list] = {}
    for p in passes:
        for key, (inserted, deleted) in p.get("byRegion", {}).items():
            expected.setdefault(key, []).append({"label": p["label"], "inserted": inserted, "deleted": deleted})
    assert {f["name"]: f["passes"] for f in pipeline["functions"]} == expected and expected


def test_mlir_dumps_summaries_carry_failed_passes_and_diagnostics(tmp_path):
    found, _ = summarised(tmp_path, MLIR / "failing_bufferize" / "tree_dir", "-o", tmp_path / "t.html")
    failed = [p["name"] for pipeline in found["pipelines"] for p in pipeline["passes"] if p["failed"]]
    assert failed == ["one-shot-bufferize"]
    found, _ = summarised(tmp_path, MLIR / "failing_bufferize" / "stream.txt", "-o", tmp_path / "s.html")
    passes = [p for pipeline in found["pipelines"] for p in pipeline["passes"]]
    assert [p["name"] for p in passes if p["failed"]] == ["one-shot-bufferize"]
    assert any(p["errors"] for p in passes) and all(p["warnings"] for p in passes if p["errors"])
    assert found["pipelines"][0]["format"] == "mlir-stream"


def test_two_runs_summary_names_the_first_divergent_pass_and_every_row(tmp_path):
    found, data = summarised(tmp_path, DSA, "--baseline", PTOAS, "-o", tmp_path / "r.html")
    assert found["kind"] == "runs" and not found["identical"]
    assert found["firstDivergent"] == {"row": 33, "pass": "34 AllocateMemoryAddr", "inserted": 56, "deleted": 56}
    rows = data["runs"]["rows"]
    assert [(r["this"], r["baseline"], r["identical"], r["inserted"], r["deleted"]) for r in found["rows"]] == [
        (r["this"], r["baseline"], r["identical"], r["inserted"], r["deleted"]) for r in rows
    ]
    assert found["differing"] == sum(not r["identical"] for r in rows) == 15
    assert [r["sameEffect"] for r in found["rows"]] == [r.get("sameEffect") for r in rows]
    assert [p["name"] for p in found["pipelines"]] == ["this run", "baseline"]
    same, _ = summarised(tmp_path, DSA, "--baseline", DSA, "-o", tmp_path / "same.html")
    assert same["identical"] and same["firstDivergent"] is None and same["differing"] == 0


def test_summary_to_stdout_is_the_only_thing_there_and_check_gates_on_a_difference(tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "pypto_ir_trace", *map(str, args)],
            capture_output=True,
            text=True,
            env=subprocess_env(),
            timeout=120,
        )

    differing = run(DSA, "--baseline", PTOAS, "-o", tmp_path / "r.html", "--summary-json", "-", "--check")
    assert differing.returncode == cli.EXIT_DIFFERS == 3
    assert json.loads(differing.stdout)["firstDivergent"]["pass"] == "34 AllocateMemoryAddr"
    assert (tmp_path / "r.html").is_file()  # everything is written before the status
    assert "wrote" in differing.stderr
    unchecked = run(DSA, "--baseline", PTOAS, "-o", tmp_path / "r.html", "-q")
    assert (unchecked.returncode, unchecked.stdout, unchecked.stderr) == (0, "", "")  # the default is unchanged
    assert run(DSA, "--baseline", DSA, "-o", tmp_path / "r.html", "--check", "-q").returncode == 0
    both = run(DSA, "-o", "-", "--summary-json", "-")
    assert both.returncode == 2 and "both write to stdout" in both.stderr
    alone = run(DSA, "-o", tmp_path / "one.html", "--check")
    assert alone.returncode == 2 and "--check gates on two runs" in alone.stderr
    same = run(DSA, "-o", tmp_path / "x.html", "--summary-json", tmp_path / "x.html")
    assert same.returncode == 2 and not (tmp_path / "x.html").exists()
    over = run(DSA, "-o", tmp_path / "y.html", "--summary-md", DSA / "passes_dump" / "00_frontend.py")
    assert (
        over.returncode == 1 and "a file of the dump being read" in over.stderr and not (tmp_path / "y.html").exists()
    )


# ---- many programs ---------------------------------------------------------------------------------------

SOURCES = sorted(path for path in [*REAL.iterdir(), *(FIXTURES / "viewer").iterdir()] if path.is_dir())


def make_roots(where: Path, names=None) -> tuple[Path, Path]:
    """Two roots of the fixtures' programs; this run's edited: one program differs, one is in this run only, one
    unreadable."""
    new, old = where / "new", where / "old"
    for source in SOURCES:
        if names is None or source.name in names:
            for root in (new, old):
                shutil.copytree(source, root / source.name)
    snapshot = new / "functions" / "passes_dump" / "02_after_ConvertToSSA.py"
    if snapshot.exists():
        snapshot.write_text(snapshot.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    if (old / "crlf").exists():
        shutil.rmtree(old / "crlf")
    if (new / "untrusted").exists():
        (new / "untrusted" / "passes_dump" / "00_frontend.py").unlink()
    return new, old


def test_many_programs_summary_agrees_with_the_index_and_names_each_report(tmp_path, capsys):
    new, old = make_roots(tmp_path)
    out = tmp_path / "reports"
    found, _ = summarised(tmp_path, new, "--baseline", old, "-o", out, "--check", code=1)  # unreadable: exit 1
    assert found["kind"] == "programs" and found["index"] == str(out / "index.html")
    statuses = {entry["name"]: entry["status"] for entry in found["programs"]}
    assert statuses == {
        **{source.name: "identical" for source in SOURCES},
        "functions": "differs",
        "crlf": "this-run-only",
        "untrusted": "unreadable",
    }
    assert [entry["name"] for entry in found["programs"]] == sorted(statuses)
    assert found["counts"] == {"identical": 7, "differs": 1, "this-run-only": 1, "baseline-only": 0, "unreadable": 1}
    entries = {entry["name"]: entry for entry in found["programs"]}
    assert entries["functions"]["firstDivergent"] == "02 ConvertToSSA"
    assert entries["untrusted"]["report"] is None and "no 00_frontend.py" in entries["untrusted"]["error"]
    for entry in found["programs"]:
        if entry["report"]:
            assert (out / entry["report"]).is_file()
    assert "untrusted: no 00_frontend.py" in capsys.readouterr().err
    (new / "untrusted" / "passes_dump" / "00_frontend.py").write_text(PROGRAM, encoding="utf-8")
    shutil.rmtree(new / "untrusted")  # every program readable: --check gives the status of a difference
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "--check", "-q"]) == cli.EXIT_DIFFERS
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 0


def test_a_summary_inside_the_directory_of_reports_or_a_root_is_refused(tmp_path, capsys):
    new, old = make_roots(tmp_path, names={"functions"})
    out = tmp_path / "reports"
    for place in (out / "summary.json", new / "summary.json"):
        assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "--summary-json", str(place)]) == 1
        assert "refusing to write the summary" in capsys.readouterr().err
    assert not out.exists() and not (new / "summary.json").exists()


@pytest.mark.parametrize("option", ["--summary-json", "--summary-md"])
def test_a_summary_is_refused_where_the_dump_would_read_it_as_the_report_is(tmp_path, capsys, option):
    """Under a snapshot's name in the dump (the next run would read it as a pass), over a snapshot or its .log:
    refused as -o is, before anything is written, the message naming the summary and its option."""
    dump = write_dump(tmp_path / "d", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "x = 1\n"})
    (dump / "01_after_A.log").write_text("a log\n", encoding="utf-8")
    before = {path.name: path.read_bytes() for path in dump.iterdir()}
    read_as_a_pass = dump / "02_after_Next.py"
    for path in (read_as_a_pass, dump / "01_after_A.py", dump / "01_after_A.log"):
        code = cli.main([str(dump), "-o", str(tmp_path / "r.html"), option, str(path), "-q"])
        if path == read_as_a_pass:
            why = f"to {path}: reading {dump} would read it as one of its dump files (give {option} a path outside"
        else:
            why = f"over {path}, a file of the dump being read ({option} {path})"
        assert code == 1 and capsys.readouterr().err.startswith(
            f"pypto-ir-trace: error: refusing to write the summary {why}"
        )
    assert {path.name: path.read_bytes() for path in dump.iterdir()} == before and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("option", ["--summary-json", "--summary-md"])
def test_merge_refuses_a_summary_over_a_shard_naming_the_summary_and_its_option(tmp_path, capsys, option):
    new, old = make_roots(tmp_path, names={"functions"})
    shard = tmp_path / "a.json"
    assert (
        cli.main([str(new), "--baseline", str(old), "-o", str(tmp_path / "r"), "--summary-json", str(shard), "-q"]) == 0
    )
    before = shard.read_bytes()
    assert cli.main(["merge", str(shard), option, str(shard)]) == 1
    message = f"refusing to write the summary over {shard}, a shard being read ({option} {shard})"
    assert capsys.readouterr().err == f"pypto-ir-trace: error: {message}\n" and shard.read_bytes() == before


def test_sharded_roots_merge_into_the_summary_of_the_whole(tmp_path):
    """A CI system splits a root by program directory; the shards' summaries merge into the one run on the
    whole root would give, each report's path joined to its shard's directory."""
    new, old = make_roots(tmp_path / "whole")
    whole, _ = summarised(tmp_path, new, "--baseline", old, "-o", tmp_path / "all", code=1)
    names = sorted({p.name for p in [*new.iterdir(), *old.iterdir()]})
    shards = []
    for k, part in enumerate((names[::2], names[1::2])):
        shard_new, shard_old = tmp_path / f"new{k}", tmp_path / f"old{k}"
        for name in part:
            for root, shard in ((new, shard_new), (old, shard_old)):
                shard.mkdir(exist_ok=True)
                if (root / name).exists():
                    shutil.copytree(root / name, shard / name)
        out, summary_path = f"reports/shard-{k}", tmp_path / f"shard-{k}.json"
        (tmp_path / "reports").mkdir(exist_ok=True)
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(tmp_path)
            code = cli.main(
                [str(shard_new), "--baseline", str(shard_old), "-o", out, "--summary-json", str(summary_path), "-q"]
            )
        assert code in (0, 1)
        shards.append(str(summary_path))
    merged_path = tmp_path / "merged.json"
    md = tmp_path / "merged.md"
    code = cli.main(["merge", *shards, "--summary-json", str(merged_path), "--summary-md", str(md), "--check"])
    assert code == 1  # a program is unreadable: that outranks --check's status
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    validate(merged, SCHEMA)
    assert merged["counts"] == whole["counts"]
    strip = lambda entry: {key: value for key, value in entry.items() if key not in ("report", "error")}
    assert [strip(entry) for entry in merged["programs"]] == [strip(entry) for entry in whole["programs"]]
    for entry in merged["programs"]:
        if entry["report"]:
            assert (tmp_path / entry["report"]).is_file() and entry["report"].startswith("reports/shard-")
    assert "1 unreadable" in md.read_text(encoding="utf-8")
    assert cli.main(["merge", shards[0], shards[0]]) == 1  # a program in two shards is an error, named


# ---- Markdown ---------------------------------------------------------------------------------------------


def test_markdown_is_bounded_and_inert_whatever_the_input(tmp_path):
    hostile = "a|b`c<script>alert(1)</script>\x1b[31m" + "x" * 500
    programs = [
        {
            "name": f"{hostile}{k}",
            "status": "differs",
            "report": f"p{k}.html",
            "firstDivergent": f"{k} Pass|{hostile}",
            "inserted": k,
            "deleted": 1,
            "differing": 1,
            "rows": 2,
            "passes": [2, 2],
            "oneSide": 0,
        }
        for k in range(20_000)
    ]
    big = {**summary._head("programs"), "this": "new", "baseline": "old", "directory": "r", "index": "r/index.html"}
    big.update(counts=summary._counts(programs), programs=programs, skipped=[])
    validate(big, SCHEMA)
    text = summary.markdown(big)
    assert len(text) < 12_000 and "20000 programs: 20000 differ" in text
    assert f"… and {20_000 - summary.MARKDOWN_ROWS} more not listed here." in text
    table = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(table) == summary.MARKDOWN_ROWS
    for line in table:
        assert line.count(" | ") == 3  # every | of a name escaped: four cells
        assert "<script>" in line and "\x1b" not in line and "\\x1b" in line  # inside code spans: shown, not run
        assert line.split(" | ")[0].count("`") == 2  # a backtick of a name cannot end its code span
    runs, _ = summarised(tmp_path, DSA, "--baseline", PTOAS, "-o", tmp_path / "r.html")
    assert len(summary.markdown(runs, rows=3).splitlines()) == len(summary.markdown(runs, rows=4).splitlines()) - 1


def test_markdown_of_a_real_comparison(tmp_path):
    md = tmp_path / "summary.md"
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "-o", str(tmp_path / "r.html"), "--summary-md", str(md)]) == 0
    text = md.read_text(encoding="utf-8")
    assert "The runs diverge first after `34 AllocateMemoryAddr` (+56 −56); they differ after 15 of 48 passes." in text
    assert "| `34 AllocateMemoryAddr` | +56 −56 | one run only |" in text
    assert text.rstrip().endswith(f"Report: `{tmp_path / 'r.html'}`")
    assert cli.main([str(SPLIT_K), "-o", str(tmp_path / "one.html"), "--summary-md", str(md), "-q"]) == 0
    text = md.read_text(encoding="utf-8")  # one dump: its changed passes
    assert "49 passes, 11 changed.\n\n| pass | inserted | deleted |\n| --- | --- | --- |\n| `04 ConvertToSSA` |" in text
    assert len([line for line in text.splitlines() if line.startswith("| `")]) == 11


# ---- the archives ------------------------------------------------------------------------------------------


def test_summaries_of_the_archives_real_dumps_fit_the_schema(real_dumps, mlir_dumps, tmp_path):
    """Every kind of real input: PyPTO dumps at both levels, MLIR trees and streams of the MLIR archive, two runs."""
    pypto = sorted(p for p in real_dumps.rglob("passes_dump") if p.is_dir())[::32]
    mlir = sorted({*mlir_dumps.glob("*/tree_dir"), *mlir_dumps.glob("*/stream.txt")})
    assert len(pypto) == 8 and len(mlir) >= 4
    for k, dump in enumerate(pypto + mlir):
        found, data = summarised(tmp_path, dump, "-o", tmp_path / f"{k}.html")
        assert len(found["pipelines"]) == len(data["pipelines"])
    found, _ = summarised(tmp_path, pypto[0], "--baseline", pypto[1], "-o", tmp_path / "runs.html")
    assert found["kind"] == "runs"


def test_pass_effect_counts_in_the_runs_summary(tmp_path):
    changed = PROGRAM.replace("[0], [64])", "[0], [64], target_memory=pl.Mem.Vec)")
    old = write_dump(tmp_path / "old", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "# a\n"})
    new = write_dump(tmp_path / "new", {"00_frontend.py": changed, "01_after_A.py": changed + "# a\n"})
    found, _ = summarised(tmp_path, new, "--baseline", old, "-o", tmp_path / "r.html")
    assert found["firstDivergent"] == {"row": None, "pass": "input", "inserted": 1, "deleted": 1}
    assert (found["sameEffect"], found["differentEffect"]) == (1, 0)  # A appended "# a" in both runs


def test_merge_and_jobs_bad_input(tmp_path, capsys):
    def error(*args: str | Path) -> tuple[int, str]:
        code = cli.main([*map(str, args)])
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and "Traceback" not in err
        return code, err

    assert error("merge", tmp_path / "none.json") == (
        1,
        f"pypto-ir-trace: error: cannot read {tmp_path / 'none.json'}: No such file or directory",
    )
    runs = tmp_path / "runs.json"
    assert (
        cli.main(
            [str(DSA), "--baseline", str(PTOAS), "-o", str(tmp_path / "r.html"), "--summary-json", str(runs), "-q"]
        )
        == 0
    )
    code, err = error("merge", runs)
    assert code == 1 and "is not a summary of two roots of programs" in err
    code, err = error("merge")
    assert code == 2 and "merge" in err and "SUMMARY" in err
    code, err = error(DSA, "--baseline", PTOAS, "--jobs", "0")
    assert code == 2 and "argument --jobs: must be a positive integer, got '0'" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html", "runs.json"]
