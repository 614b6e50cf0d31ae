"""Results a machine can read: --summary-json (checked against the schema the package ships, on real outputs of
every kind), --summary-md (bounded whatever the input), --check's exit status, and merging sharded roots."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from hypothesis import given
from hypothesis import strategies as st

import pypto_ir_trace as irt
from dumptools import FIXTURES, PROGRAM, REAL, subprocess_env, write_dump
from pypto_ir_trace import cli, render, summary
from pypto_ir_trace.formats import FORMATS
from pypto_ir_trace.schemacheck import Invalid, unknown_keywords, validate
from pypto_ir_trace.terminal import visible

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
        lambda s: s["pipelines"][0].update(format="gcc-rtl"),  # a value outside its enum
        lambda s: s["pipelines"][0]["functions"].append({"name": "f"}),  # an item's key missing
    ]
    for breaking in breakages:
        broken = copy.deepcopy(good)
        breaking(broken)
        with pytest.raises(Invalid):
            validate(broken, SCHEMA)


def test_the_schema_spells_each_program_status_as_the_package_does():
    """One spelling per status: the schema's enum and counts are the package's statuses, in its order."""
    assert SCHEMA["$defs"]["program"]["properties"]["status"]["enum"] == list(summary.STATUSES)
    counts = SCHEMA["$defs"]["programs"]["properties"]["counts"]
    assert counts["required"] == list(counts["properties"]) == list(summary.STATUSES)


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
    whole root would give, each report's path joined to its shard's directory. Each job compares its shard
    under the same names (shard/new, shard/old), as the README's recipe does."""
    new, old = make_roots(tmp_path / "whole")
    whole, _ = summarised(tmp_path, new, "--baseline", old, "-o", tmp_path / "all", code=1)
    names = sorted({p.name for p in [*new.iterdir(), *old.iterdir()]})
    shards = []
    (tmp_path / "reports").mkdir()
    for k, part in enumerate((names[::2], names[1::2])):
        shutil.rmtree(tmp_path / "shard", ignore_errors=True)
        for name in part:
            for root, side in ((new, "new"), (old, "old")):
                (tmp_path / "shard" / side).mkdir(parents=True, exist_ok=True)
                if (root / name).exists():
                    shutil.copytree(root / name, tmp_path / "shard" / side / name)
        summary_path = tmp_path / f"shard-{k}.json"
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(tmp_path)
            arguments = ["shard/new", "--baseline", "shard/old", "-o", f"reports/shard-{k}"]
            code = cli.main([*arguments, "--summary-json", str(summary_path), "-q"])
        assert code in (0, 1)
        shards.append(str(summary_path))
    merged_path = tmp_path / "merged.json"
    md = tmp_path / "merged.md"
    code = cli.main(["merge", *shards, "--summary-json", str(merged_path), "--summary-md", str(md), "--check"])
    assert code == 1  # a program is unreadable: that outranks --check's status
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    validate(merged, SCHEMA)
    assert merged["counts"] == whole["counts"]
    assert (merged["this"], merged["baseline"]) == ("shard/new", "shard/old") and "roots" not in merged
    strip = lambda entry: {key: value for key, value in entry.items() if key not in ("report", "error")}
    assert [strip(entry) for entry in merged["programs"]] == [strip(entry) for entry in whole["programs"]]
    for entry in merged["programs"]:
        if entry["report"]:
            assert (tmp_path / entry["report"]).is_file() and entry["report"].startswith("reports/shard-")
    text = md.read_text(encoding="utf-8")
    assert text.startswith("### IR Trace: `shard/new` against the baseline `shard/old`\n") and "1 unreadable" in text
    assert cli.main(["merge", shards[0], shards[0]]) == 1  # a program in two shards is an error, named


# ---- untrusted shards -------------------------------------------------------------------------------------


def shard(names, this="shard/new", baseline="shard/old", directory="reports/shard-0", **fields) -> dict:
    """A valid --summary-json of two roots of programs, each program differing, with fields replaced."""
    programs = [
        {
            "name": name,
            "status": "differs",
            "report": f"{name}.html",
            "firstDivergent": "34 AllocateMemoryAddr",
            "inserted": 56,
            "deleted": 55,
            "differing": 15,
            "rows": 48,
            "passes": [48, 47],
            "oneSide": 1,
        }
        for name in names
    ]
    found = {**summary._head("programs"), "this": this, "baseline": baseline, "directory": directory}
    found.update(index=f"{directory}/index.html", counts=summary._counts(programs), programs=programs, skipped=[])
    return {**found, **fields}


def program_field(**fields) -> dict:
    return {"programs": [{**shard(["a"])["programs"][0], **fields}]}


BAD_SHARDS = {  # what a shard holds -> what the one line must say after the shard's name
    "nan": (
        json.dumps(shard(["a"], **program_field(inserted=float("nan")))),
        "programs[0].inserted: NaN is not an integer",
    ),
    "infinity": (
        json.dumps(shard(["a"], **program_field(deleted=float("inf")))),
        "programs[0].deleted: Infinity is not",
    ),
    "string skipped": (json.dumps(shard(["a"], skipped="abc")), 'skipped: "abc" is not an array'),
    "version true": (json.dumps(shard(["a"], version=True)), "is a summary of version true; this tool reads version 1"),
    "version string": (json.dumps(shard(["a"], version="1")), 'is a summary of version "1"; this tool reads version 1'),
    "empty directory": (json.dumps(shard(["a"], directory="")), 'directory: "" is empty'),
    "not a summary": (json.dumps({"kind": "programs", "version": 1}), "generator: missing"),
    "a list": ("[1, 2]", "is not a summary of two roots of programs"),
    "a program not an object": (json.dumps(shard(["a"], programs=[5])), "programs[0]: 5 is not an object"),
    "a count as a string": (
        json.dumps(shard(["a"], **program_field(inserted="<img src=x onerror=alert(1)>"))),
        'programs[0].inserted: "<img src=x onerror=alert(1)>" is not an integer',
    ),
    "a negative count": (json.dumps(shard(["a"], **program_field(rows=-1))), "programs[0].rows: -1 is below 0"),
    "an unknown status": (
        json.dumps(shard(["a"], **program_field(status="fine"))),
        'programs[0].status: "fine" is not one',
    ),
    "a lone surrogate": (json.dumps(shard(["\ud800"])), 'programs[0].name: "\\ud800" holds a lone surrogate'),
    "deep": ("[" * 100_000 + "]" * 100_000, "is not a summary: its JSON nests too deep to read"),
    "not JSON": ('{"kind": "programs",', "is not JSON: "),
}


@pytest.mark.parametrize("case", BAD_SHARDS)
def test_a_shard_that_is_not_a_valid_summary_is_refused_in_one_line_naming_it_and_the_field(tmp_path, capsys, case):
    """A shard is a CI artifact: every one is checked against the schema before any field is read."""
    text, said = BAD_SHARDS[case]
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(shard(["z"])), encoding="utf-8")
    bad.write_text(text, encoding="utf-8")
    out, md = tmp_path / "merged.json", tmp_path / "merged.md"
    assert cli.main(["merge", str(good), str(bad), "--summary-json", str(out), "--summary-md", str(md)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"pypto-ir-trace: error: {bad} ") and said in err
    assert err.count("\n") == 1 and "Traceback" not in err and "internal error" not in err
    assert not out.exists() and not md.exists()
    with pytest.raises(irt.SummaryError, match="^" + str(bad)):  # the API raises the package's own error
        irt.merge_summaries([good, bad])


def test_a_valid_shard_merges_into_strict_json_and_a_merged_summary_merges_again(tmp_path):
    first, second = tmp_path / "s0.json", tmp_path / "s1.json"
    first.write_text(json.dumps(shard(["b", "a"], directory="/")), encoding="utf-8")
    second.write_text(json.dumps(shard(["c"], directory="reports/shard-1/")), encoding="utf-8")
    merged = irt.merge_summaries([first, second])
    validate(merged, SCHEMA)
    assert [(entry["name"], entry["report"]) for entry in merged["programs"]] == [
        ("a", "/a.html"),
        ("b", "/b.html"),
        ("c", "reports/shard-1/c.html"),
    ]
    again = tmp_path / "merged.json"
    assert cli.main(["merge", str(first), str(second), "--summary-json", str(again)]) == 0
    text = again.read_text(encoding="utf-8")
    assert json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the output")) == merged
    assert text == json.dumps(merged, indent=1, ensure_ascii=False) + "\n"  # written in pieces, the same bytes
    assert irt.merge_summaries(str(again)) == merged  # one path as a str: read as one file, not as its characters
    assert irt.merge_summaries(again) == merged


def test_a_program_twice_in_one_shard_is_named_as_such(tmp_path, capsys):
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(shard(["a", "a"])), encoding="utf-8")
    assert cli.main(["merge", str(twice)]) == 1
    assert f"program a is twice in {twice}: shard by program" in capsys.readouterr().err


def test_shards_of_other_comparisons_are_refused_unless_allowed_and_then_each_is_named(tmp_path, capsys):
    paths = []
    for k in range(5):
        paths.append(tmp_path / f"s{k}.json")
        found = shard([f"p{k}"], this=f"run{k}/new", baseline=f"run{k}/old", directory=f"r{k}")
        paths[-1].write_text(json.dumps(found), encoding="utf-8")
    out, md = tmp_path / "merged.json", tmp_path / "merged.md"
    assert cli.main(["merge", *map(str, paths[:2]), "--summary-json", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"pypto-ir-trace: error: {paths[1]} compares run1/new against run1/old, but {paths[0]} compared run0/new "
        "against run0/old: the shards of one comparison have the same roots (--allow-mixed merges several "
        "comparisons)\n"
    )
    assert not out.exists()
    with pytest.raises(irt.SummaryError, match="--allow-mixed"):
        irt.merge_summaries(paths[:2])
    assert (
        cli.main(["merge", *map(str, paths[:2]), "--allow-mixed", "--summary-json", str(out), "--summary-md", str(md)])
        == 0
    )
    merged = json.loads(out.read_text(encoding="utf-8"))
    validate(merged, SCHEMA)
    assert merged["roots"] == [
        {"this": "run0/new", "baseline": "run0/old"},
        {"this": "run1/new", "baseline": "run1/old"},
    ]
    assert md.read_text(encoding="utf-8").startswith(
        "### IR Trace: 2 comparisons merged: `run0/new` against the baseline `run0/old`; "
        "`run1/new` against the baseline `run1/old`\n"
    )
    five = irt.merge_summaries([out, *paths[2:]], allow_mixed=True)  # a merged summary brings its own roots
    assert [pair["this"] for pair in five["roots"]] == [f"run{k}/new" for k in range(5)]
    title = summary.markdown(five).splitlines()[0]
    assert title.startswith("### IR Trace: 5 comparisons merged: `run0/new` against the baseline `run0/old`; ")
    assert title.endswith("`run2/new` against the baseline `run2/old`; and 2 more")


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
    edit = {"pass": hostile, "description": hostile, "changes": [[hostile, hostile]], "more": 0}
    groups = [{"edit": {**edit, "key": str(k)}, "programs": [f"{hostile}{k}"]} for k in range(20_000)]
    big.update(counts=summary._counts(programs), programs=programs, skipped=[], edits=groups)
    validate(big, SCHEMA)
    text = summary.markdown(big)
    assert len(text) < 24_000 and "20000 programs: 20000 differ" in text
    assert text.count(f"… and {20_000 - summary.MARKDOWN_ROWS} more not listed here.") == 2  # the groups, the table
    assert sum(line.startswith("- 1 program: ") for line in text.splitlines()) == summary.MARKDOWN_ROWS
    table = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(table) == summary.MARKDOWN_ROWS
    for line in table:
        assert line.count(" | ") == 4  # every | of a name escaped: five cells
        assert "<script>" in line and "\x1b" not in line and "\\x1b" in line  # inside code spans: shown, not run
        assert line.split(" | ")[0].count("`") == 2  # a backtick of a name cannot end its code span
    runs, _ = summarised(tmp_path, DSA, "--baseline", PTOAS, "-o", tmp_path / "r.html")
    assert len(summary.markdown(runs, rows=3).splitlines()) == len(summary.markdown(runs, rows=4).splitlines()) - 1


HOSTILE = st.text(st.sampled_from("ab <>[]()|`\\\n\r*_~!#&;:'\"=-/\x1b\u202e\x00é"), max_size=40)
INLINE = {"h3", "p", "table", "thead", "tbody", "tr", "th", "td", "code"}  # all the Markdown may turn into


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list]] = []
        self.rows: list[list[str]] = []  # each table row's cells' text
        self.in_cell = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.rows[-1].append("")
            self.in_cell = True

    def handle_endtag(self, tag):
        self.in_cell = self.in_cell and tag not in ("td", "th")

    def handle_data(self, data):
        if self.in_cell:
            self.rows[-1][-1] += data


def rendered(markdown: str) -> _Tags:
    """The Markdown as GitHub renders it (cmark-gfm), raw HTML let through: what reached it shows there."""
    parsed = _Tags()
    parsed.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=cmarkgfm.Options.CMARK_OPT_UNSAFE))
    return parsed


@given(names=st.lists(HOSTILE, min_size=1, max_size=4, unique=True), text=HOSTILE, count=HOSTILE)
def test_markdown_of_hostile_names_and_counts_renders_as_text_in_the_cells_it_belongs_to(names, text, count):
    """What a shard holds reaches GitHub's renderer as code spans in their cells: no tag, no link, no extra
    cell or row, whatever the names (HTML, links, newlines, pipes, backticks) and a string where a count goes."""
    found = shard(names, this=text, baseline=text + "x")
    found["programs"][0].update(inserted=count, status="unreadable", error=text)  # markdown() reads it unchecked
    found["programs"][-1].update(effectDiffers=[text, f"{count} {text}"])
    found["counts"] = {**found["counts"], "differs": count}
    edit = {"pass": text, "description": text, "changes": [[text, count], ["", text]], "more": count, "key": "k"}
    found["edits"] = [{"edit": edit, "programs": names}]
    parsed = rendered(summary.markdown(found))
    assert {tag for tag, _ in parsed.tags} <= INLINE | {"ul", "li"} and all(attrs == [] for _, attrs in parsed.tags)
    assert [tag for tag, _ in parsed.tags].count("li") == 1  # the group's line: one item, whatever its text
    assert [len(row) for row in parsed.rows] == [5] * (len(names) + 1)
    cells = {row[0]: row for row in parsed.rows[1:]}
    for name in names:
        shown = visible(name).replace("`", "'")
        assert cells.get(shown[:79] + "…" if len(shown) > 80 else shown) is not None, (name, cells)


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


def test_a_pass_only_one_run_runs_counts_as_neither_the_same_nor_a_different_effect(tmp_path):
    old = write_dump(tmp_path / "old", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "# a\n"})
    new = write_dump(
        tmp_path / "new",
        {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "# a\n", "02_after_B.py": PROGRAM + "# a\n# b\n"},
    )
    found, _ = summarised(tmp_path, new, "--baseline", old, "-o", tmp_path / "r.html")
    assert [(row["pass"], row["baseline"], row["sameEffect"]) for row in found["rows"]] == [
        ("01 A", 0, True),
        ("02 B", None, None),  # B runs in this run only: it has no effect to compare
    ]
    assert (found["sameEffect"], found["differentEffect"]) == (1, 0)
    assert "| `02 B` | +1 −0 | one run only |" in summary.markdown(found)


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


def test_the_schema_names_every_format_and_an_llvm_runs_summary_fits_it(tmp_path):
    """An LLVM report's summary named a format the schema did not know: `merge` would have refused it."""
    pipeline = SCHEMA["$defs"]["pipeline"]["properties"]
    assert sorted(pipeline["format"]["enum"]) == sorted(FORMATS)
    found, _ = summarised(tmp_path, FIXTURES / "llvm" / "version-before-after-O1.txt")
    passes = found["pipelines"][0]["passes"]
    assert found["pipelines"][0]["format"] == "llvm"
    assert [p.get("printedBefore", False) for p in passes[:4]] == [False, True, False, True]  # the first is the input
