"""Two runs of one program (--baseline): the runs section of the model, the command line, and the
directory of reports for two roots of many programs with its index page."""

from __future__ import annotations

import difflib
import json
import re
import shutil
from pathlib import Path

from dumptools import FIXTURES, INSERTED_OP, PROGRAM, REAL, insert_op_at_top, write_dump
from modeltools import text_ids
from pypto_ir_trace import cli, model, programs, render

RUNS = FIXTURES / "runs"
DSA = RUNS / "variants_memory_planner_dsa_rp__03_LlamaMiniProgram_explicit"  # runs AllocateMemoryAddr
PTOAS = RUNS / "variants_memory_planner_ptoas__01_LlamaMiniProgram_explicit"  # does not


def two_runs(this: Path, baseline: Path, tmp_path: Path, *extra: str) -> dict:
    out = tmp_path / "runs.html"
    assert cli.main([str(this), "--baseline", str(baseline), "-o", str(out), *extra]) == 0
    return render.decode_data(out.read_text(encoding="utf-8"))


def snapshot_files(dump: Path) -> list[Path]:
    return sorted((dump / "passes_dump").glob("*.py"))


def test_llama_pair_diverges_first_after_allocate_memory_addr(tmp_path):
    data = two_runs(DSA, PTOAS, tmp_path)
    ours, theirs = data["pipelines"]
    assert (ours["name"], theirs["name"]) == ("this run", "baseline")
    runs = data["runs"]
    assert (runs["this"], runs["baseline"]) == (0, 1)
    rows = runs["rows"]
    # Each pass of each run appears once, in order; the baseline's later passes are not shifted.
    assert [r["this"] for r in rows if r["this"] is not None] == list(range(len(ours["passes"])))
    assert [r["baseline"] for r in rows if r["baseline"] is not None] == list(range(len(theirs["passes"])))
    only_this = [r["this"] for r in rows if r["baseline"] is None]
    assert [ours["passes"][p]["name"] for p in only_this] == ["AllocateMemoryAddr"]
    assert all(r["this"] is not None for r in rows)  # no pass runs in the baseline only
    first = rows[runs["firstDivergent"]]
    assert ours["passes"][first["this"]]["file"] == "34_after_AllocateMemoryAddr.py"
    assert runs["inputs"]["identical"] and runs["reconverged"] == []
    assert not any("renamed" in row for row in [runs["inputs"], *rows])  # PyPTO has no value names


def test_each_row_says_whether_the_snapshots_are_byte_identical_and_how_much_differs(tmp_path):
    data = two_runs(DSA, PTOAS, tmp_path)
    ours_files, theirs_files = snapshot_files(DSA), snapshot_files(PTOAS)
    at_ours = at_theirs = 0
    for row in data["runs"]["rows"]:
        at_ours = row["this"] + 1 if row["this"] is not None else at_ours
        at_theirs = row["baseline"] + 1 if row["baseline"] is not None else at_theirs
        new, old = ours_files[at_ours].read_bytes(), theirs_files[at_theirs].read_bytes()
        assert row["identical"] == (new == old), (ours_files[at_ours].name, theirs_files[at_theirs].name)
        old_lines, new_lines = old.decode().splitlines(), new.decode().splitlines()
        assert row["inserted"] - row["deleted"] == len(new_lines) - len(old_lines)
        # These runs differ in replaced lines only: an independent line diff counts the same lines.
        opcodes = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes()
        assert row["inserted"] == sum(j2 - j1 for tag, _, _, j1, j2 in opcodes if tag != "equal")
        assert row["deleted"] == sum(i2 - i1 for tag, i1, i2, _, _ in opcodes if tag != "equal")


def test_each_row_counts_the_ops_that_differ_between_the_runs(tmp_path):
    """A row's ops are the op count deltas of the baseline's snapshot against this run's: exp2 for exp from 01 on,
    whatever this run's own passes did to other ops; none where the runs print the same text."""
    exp2 = RUNS / "exp2"
    rows = two_runs(exp2 / "this", exp2 / "baseline", tmp_path)["runs"]["rows"]
    assert [row.get("ops") for row in rows[:3]] == [[["pl.tile.exp", -1], ["pl.tile.exp2", 1]]] * 3
    assert all("ops" not in row for row in rows if row["identical"])


def test_an_inserted_pass_a_changed_pass_and_reconvergence(tmp_path):
    changed = PROGRAM.replace("[0], [64])", "[0], [64], target_memory=pl.Mem.Vec)")
    baseline = write_dump(
        tmp_path / "old",
        {
            "00_frontend.py": PROGRAM,
            "01_after_A.py": PROGRAM,
            "02_after_B.py": PROGRAM + "# b\n",
            "03_after_C.py": PROGRAM,
        },
    )
    this = write_dump(
        tmp_path / "new",
        {
            "00_frontend.py": PROGRAM,
            "01_after_A.py": PROGRAM,
            "02_after_N.py": changed,
            "03_after_B.py": changed + "# b\n",
            "04_after_C.py": PROGRAM,
        },
    )
    runs = two_runs(this, baseline, tmp_path)["runs"]
    rows = [(r["this"], r["baseline"], r["identical"], r["inserted"], r["deleted"]) for r in runs["rows"]]
    assert rows == [(0, 0, True, 0, 0), (1, None, False, 1, 1), (2, 1, False, 1, 1), (3, 2, True, 0, 0)]
    assert (runs["firstDivergent"], runs["reconverged"]) == (1, [3])


def test_identical_runs_and_differing_inputs(tmp_path):
    runs = two_runs(DSA, DSA, tmp_path)["runs"]
    assert runs["firstDivergent"] is None and all(r["identical"] for r in runs["rows"]) and runs["inputs"]["identical"]
    this = write_dump(tmp_path / "new", {"00_frontend.py": PROGRAM + "# x\n", "01_after_A.py": PROGRAM})
    baseline = write_dump(tmp_path / "old", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    runs = two_runs(this, baseline, tmp_path)["runs"]
    assert runs["inputs"] == {"this": None, "baseline": None, "identical": False, "inserted": 1, "deleted": 0}
    assert runs["firstDivergent"] is None and runs["reconverged"] == [0]


def test_a_single_run_has_no_runs_section(tmp_path):
    out = tmp_path / "one.html"
    assert cli.main([str(DSA), "-o", str(out)]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert "runs" not in data and len(data["pipelines"]) == 1
    page = out.read_text(encoding="utf-8")
    assert 'name: "across"' not in render.decode_viewer(page) and "runs-across" not in page  # only in runs reports


# ---- the command line --------------------------------------------------------------------------------


def error_of(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert err and "Traceback" not in "\n".join(err)
    return err[-1]


def test_bad_baseline_is_read_and_refused_as_a_single_dump_is(tmp_path, capsys):
    out = tmp_path / "r.html"
    missing = tmp_path / "nowhere"
    assert cli.main([str(DSA), "--baseline", str(missing), "-o", str(out)]) == 1
    assert error_of(capsys) == f"pypto-ir-trace: error: input directory does not exist: {missing}"
    gap = write_dump(tmp_path / "gap", {"00_frontend.py": PROGRAM, "02_after_X.py": PROGRAM})
    assert cli.main([str(gap)]) == 1
    alone = error_of(capsys)
    assert cli.main([str(DSA), "--baseline", str(gap), "-o", str(out)]) == 1
    assert error_of(capsys) == alone
    assert cli.main([str(gap), "--baseline", str(DSA), "-o", str(out)]) == 1
    assert error_of(capsys) == alone
    assert not out.exists() and list(tmp_path.glob("*.html")) == []


def test_a_baseline_in_another_language_is_an_argument_error(tmp_path, capsys):
    stream = FIXTURES / "mlir" / "multi_func" / "stream.txt"
    out = tmp_path / "r.html"
    for this, other in ((DSA, stream), (stream, DSA)):
        assert cli.main([str(this), "--baseline", str(other), "-o", str(out)]) == 2
        line = error_of(capsys)
        assert str(other) in line and str(this) in line and "MLIR after-all stream" in line and "PyPTO" in line
        assert not out.exists()


def test_an_mlir_tree_and_a_stream_of_one_program_compare(tmp_path, capsys):
    """Two forms of one IR language: the runs are read each by its own format and compared pass by pass."""
    mlir = FIXTURES / "mlir" / "multi_func"
    out = tmp_path / "r.html"
    assert cli.main([str(mlir / "tree_dir"), "--baseline", str(mlir / "stream.txt"), "-o", str(out)]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert [p["format"] for p in data["pipelines"]] == ["mlir-tree", "mlir-stream"]
    assert len(data["runs"]["rows"]) >= len(data["pipelines"][0]["passes"])
    assert "two runs" in capsys.readouterr().err


MLIR_STREAM = FIXTURES / "mlir" / "multi_func" / "stream.txt"
VALUE_NAME = re.compile(r"[%^][\w$.-]+")  # an SSA value or a block label, as a reader would mask it


def renumbered_runs(tmp_path: Path) -> dict:
    """The multi_func stream against itself with an op put at the top of every function: later %N shift."""
    this = tmp_path / "this.txt"
    this.write_text(insert_op_at_top(MLIR_STREAM.read_text(encoding="utf-8")), encoding="utf-8")
    return two_runs(this, MLIR_STREAM, tmp_path)


def row_snapshots(data: dict):
    """Each row of the runs with the lines of its two snapshots: (row, the baseline's, this run's)."""
    ours, theirs = ({**data, **pipeline} for pipeline in data["pipelines"])
    at = {"this": 0, "baseline": 0}
    for row in data["runs"]["rows"]:
        for side, pipeline in (("this", ours), ("baseline", theirs)):
            if row[side] is not None:
                at[side] = pipeline["passes"][row[side]]["after"]
        lines = [
            [data["lines"][i] for i in text_ids(pipeline, at[side])]
            for side, pipeline in (("baseline", theirs), ("this", ours))
        ]
        yield row, *lines


def test_across_runs_renamed_pairs_differ_by_value_names_only(tmp_path):
    """Two MLIR runs, one with an op inserted early: each row's diff has renamed pairs, found at build time as a
    pass's are; each pair differs by names only, and they are all but the inserted op (pure renumbering, found whole)."""
    data = renumbered_runs(tmp_path)
    assert all(pipeline.get("renumbering") for pipeline in data["pipelines"])
    seen = 0
    for row, theirs, ours in row_snapshots(data):
        assert not row["identical"]
        pairs = row["renamed"]
        assert [a for _, a in pairs] == sorted(a for _, a in pairs)
        assert len({b for b, _ in pairs}) == len(pairs) == len({a for _, a in pairs})
        for b, a in pairs:
            assert theirs[b] != ours[a] and VALUE_NAME.sub("%", theirs[b]) == VALUE_NAME.sub("%", ours[a]), (
                theirs[b],
                ours[a],
            )
        inserted = sum(line.strip() == INSERTED_OP for line in ours)
        assert inserted > 0 and (row["inserted"] - len(pairs), row["deleted"] - len(pairs)) == (inserted, 0)
        seen += len(pairs)
    assert seen > 500


def test_across_runs_of_identical_mlir_have_no_renamed_pairs(tmp_path):
    runs = two_runs(MLIR_STREAM, MLIR_STREAM, tmp_path)["runs"]
    assert all(row["identical"] and "renamed" not in row for row in [runs["inputs"], *runs["rows"]])


def test_two_runs_report_is_deterministic_and_refuses_dump_files(tmp_path, capsys):
    first, second = tmp_path / "a.html", tmp_path / "b.html"
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "-o", str(first)]) == 0
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "-o", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    viewer = render.decode_viewer(first.read_text(encoding="utf-8"))
    assert 'IRTraceViews.register({ name: "across"' in viewer  # the two-run views ship here
    victim = PTOAS / "passes_dump" / "00_frontend.py"
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "-o", str(victim)]) == 1
    assert "a file of the dump being read" in error_of(capsys)


# ---- many programs -----------------------------------------------------------------------------------

SOURCES = sorted(path for path in [*REAL.iterdir(), *(FIXTURES / "viewer").iterdir()] if path.is_dir())


def make_roots(tmp_path: Path) -> tuple[Path, Path]:
    """Two CI-shaped roots (<program>/passes_dump/) holding copies of the fixtures' dumps."""
    new, old = tmp_path / "new", tmp_path / "old"
    for source in SOURCES:
        for root in (new, old):
            shutil.copytree(source, root / source.name)
    return new, old


def edit(root: Path, program: str, index: int) -> str:
    """Change snapshot `index` of a program; returns how the index names that pass."""
    path = sorted((root / program / "passes_dump").glob(f"{index:02d}_*.py"))[0]
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    if index == 0:
        return "input"
    label, name = re.match(r"(\d+)_after_(.+)\.py", path.name).groups()
    return f"{label} {name}"


def index_rows(directory: Path) -> dict[str, dict]:
    """Each program's entry in index.html: status, first divergent pass, and its link."""
    page = (directory / "index.html").read_text(encoding="utf-8")
    found = {}
    for match in re.finditer(r'<(?:tr|li) data-program="([^"]+)" data-status="([^"]+)">(.*?)</(?:tr|li)>', page, re.S):
        name, status, body = match.groups()
        first = re.search(r'<td class="first">(.*?)</td>', body)
        link = re.search(r'href="([^"]+)"', body)
        found[name] = {"status": status, "first": first.group(1) if first else None, "href": link and link.group(1)}
    return found


def test_index_names_every_programs_first_divergent_pass(tmp_path):
    new, old = make_roots(tmp_path)
    expected = {
        "advanced_01_split_k_concise": edit(new, "advanced_01_split_k_concise", 5),
        "models_03_flash_attention_concise": edit(new, "models_03_flash_attention_concise", 20),
        "functions": edit(new, "functions", 0),
    }
    edit(new, "advanced_01_split_k_explicit", 9)  # two edits: the first one is named
    expected["advanced_01_split_k_explicit"] = edit(new, "advanced_01_split_k_explicit", 3)
    shutil.rmtree(old / "crlf")  # a program in this run only
    shutil.rmtree(new / "untrusted")  # and one in the baseline only
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    rows = index_rows(out)
    assert set(rows) == {source.name for source in SOURCES}
    for name, row in rows.items():
        if name == "crlf":
            assert row["status"] == "this-run-only"
        elif name == "untrusted":
            assert row["status"] == "baseline-only"
        elif name in expected:
            assert (row["status"], row["first"]) == ("differs", expected[name]), name
        else:
            assert (row["status"], row["first"]) == ("identical", None), name
        report = out / row["href"]
        data = render.decode_data(report.read_text(encoding="utf-8"))  # each program opens into its report
        assert ("runs" in data) == (row["status"] in ("differs", "identical"))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<details" in page
    # one script (the programs grid's), allowed by its hash; its data is JSON, not run
    assert page.count("<script>") == 1 and re.search(r"script-src (&#39;|')sha256-[A-Za-z0-9+/=]+\1;", page)
    assert page.count('<script type="application/json" id="programs-grid-data">') == 1


def test_index_directory_is_replaced_whole_and_only_when_ours(tmp_path, capsys):
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        shutil.copytree(FIXTURES / "viewer" / "functions", root / "functions")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [".pypto-ir-trace.json", "functions.html", "index.html"]
    assert "No program differs" in (out / "index.html").read_text(encoding="utf-8")
    edit(new, "functions", 2)
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0  # a rerun replaces it
    assert index_rows(out)["functions"]["status"] == "differs"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    assert cli.main([str(new), "--baseline", str(old), "-o", str(foreign)]) == 1
    assert "refusing to replace" in error_of(capsys)
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]


def test_roots_bad_input(tmp_path, capsys):
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        shutil.copytree(FIXTURES / "viewer" / "functions", root / "functions")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(DSA), "-o", str(out)]) == 2  # a root against one dump
    assert "directory of programs" in error_of(capsys)
    assert cli.main([str(new), "--baseline", str(tmp_path / "gone"), "-o", str(out)]) == 1
    assert "input directory does not exist" in error_of(capsys)
    broken = new / "functions" / "passes_dump" / "01_after_InlineFunctions.py"
    for name in sorted(p.name for p in broken.parent.glob("01_*.py")):
        (broken.parent / name).unlink()  # a gap: the program is unreadable, named with its file; the run fails
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 1
    line = error_of(capsys)
    assert line.startswith("pypto-ir-trace: error: functions: ") and "snapshot index gap" in line
    assert index_rows(out) == {"functions": {"status": "unreadable", "first": None, "href": None}}
    assert sorted(p.name for p in out.iterdir()) == [".pypto-ir-trace.json", "index.html"]  # no report for it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "old", "reports"]


def test_argument_errors_with_a_baseline(tmp_path, capsys):
    new = tmp_path / "new"
    shutil.copytree(FIXTURES / "viewer" / "functions", new / "functions")
    assert cli.main([str(new), "--baseline", str(new), "-o", "-"]) == 2  # many reports cannot go to stdout
    assert "directory of reports" in error_of(capsys)
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "--dump-structure"]) == 2
    assert "--dump-structure" in error_of(capsys)
    assert cli.main([str(DSA), "--baseline"]) == 2
    assert "--baseline" in error_of(capsys)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new"]


def test_two_runs_to_stdout(tmp_path, capsys):
    assert cli.main([str(DSA), "--baseline", str(PTOAS), "-o", "-"]) == 0
    assert "runs" in render.decode_data(capsys.readouterr().out)


def test_model_round_trip_of_runs():
    row = model.RunRow(1, None, False, 2, 3)
    renamed = model.RunRow(2, 1, False, 4, 2, ((0, 1), (1, 2)))
    runs = model.Runs(0, 1, model.RunRow(None, None, True, 0, 0), (row, renamed), 0, ())
    report = model.Report("t", "g", 3, {}, (), (), (), (), (), runs)
    assert json.loads(json.dumps(model.to_json(report)["runs"])) == {  # as the page reads it
        "this": 0,
        "baseline": 1,
        "inputs": {"this": None, "baseline": None, "identical": True, "inserted": 0, "deleted": 0},
        "rows": [
            {"this": 1, "baseline": None, "identical": False, "inserted": 2, "deleted": 3},
            {"this": 2, "baseline": 1, "identical": False, "inserted": 4, "deleted": 2, "renamed": [[0, 1], [1, 2]]},
        ],
        "firstDivergent": 0,
        "reconverged": [],
    }
    assert programs.DEFAULT_DIRECTORY and "runs" not in model.to_json(model.Report("t", "g", 3, {}, (), (), (), (), ()))


def test_the_summary_line_says_where_the_runs_part(tmp_path, capsys):
    """The one-line summary names the first divergent pass, says so when the inputs differ already, and says plainly
    when the runs never differ (as the page does)."""
    two_runs(DSA, PTOAS, tmp_path)
    assert capsys.readouterr().err.splitlines()[-1].endswith("first divergent after 34 AllocateMemoryAddr")
    two_runs(DSA, DSA, tmp_path)
    assert capsys.readouterr().err.splitlines()[-1].endswith("the two runs print identical IR after every pass")
    this = write_dump(tmp_path / "new", {"00_frontend.py": PROGRAM + "# x\n", "01_after_A.py": PROGRAM + "# x\n"})
    baseline = write_dump(tmp_path / "old", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    two_runs(this, baseline, tmp_path)
    assert capsys.readouterr().err.splitlines()[-1].endswith("the runs differ already in their input")


def test_identical_programs_whose_pipelines_differ_say_so_in_the_index(tmp_path):
    """A pass that changed nothing, run in one run only, leaves the IR identical: the program is collapsed with the
    identical ones, but its line says the pipelines differ."""
    new, old = tmp_path / "new", tmp_path / "old"
    same = {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM, "02_after_B.py": PROGRAM + "# b\n"}
    for root in (new, old):
        write_dump(root / "same", same)
    write_dump(new / "noop", same)
    write_dump(
        old / "noop",
        {
            "00_frontend.py": PROGRAM,
            "01_after_A.py": PROGRAM,
            "02_after_Noop.py": PROGRAM,
            "03_after_B.py": PROGRAM + "# b\n",
        },
    )
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    rows = index_rows(out)
    assert rows["same"]["status"] == rows["noop"]["status"] == "identical"
    page = (out / "index.html").read_text(encoding="utf-8")
    line = lambda name: re.search(rf'<li data-program="{name}" data-status="identical">(.*?)</li>', page, re.S).group(1)
    assert "1 pass in one run only" in line("noop") and "one run only" not in line("same")


def test_a_broken_dump_of_a_program_the_other_root_has_is_unreadable_and_fails_the_run(tmp_path, capsys):
    """A program whose directory in one root holds no readable dump is an error naming it, not "baseline-only":
    listed as unreadable, the other programs compared, the run's exit 1; a directory that is no dump in either
    root (logs, say) is no program."""
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        for program in ("functions", "crlf"):
            shutil.copytree(FIXTURES / "viewer" / program, root / program)
        (root / "logs").mkdir()
    (new / "functions" / "passes_dump" / "00_frontend.py").unlink()  # the compile died: the dump is incomplete
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 1
    assert (
        error_of(capsys)
        == "pypto-ir-trace: error: functions: no 00_frontend.py in new/functions/passes_dump: is this a passes_dump/ directory?"
    )
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "new/functions/passes_dump: is this" in page and str(tmp_path) not in page  # as the index names roots
    rows = index_rows(out)
    assert {name: row["status"] for name, row in rows.items()} == {"functions": "unreadable", "crlf": "identical"}
    assert (out / rows["crlf"]["href"]).is_file()
    shutil.copytree(FIXTURES / "viewer" / "functions", new / "functions", dirs_exist_ok=True)
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    assert set(index_rows(out)) == {"functions", "crlf"}


def test_programs_named_like_the_index_get_reports_of_their_own(tmp_path):
    new, old = tmp_path / "new", tmp_path / "old"
    for root in (new, old):
        for name in ("index", "index_"):
            shutil.copytree(FIXTURES / "viewer" / "functions", root / name)
    edit(new, "index_", 2)
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    rows = index_rows(out)
    assert len({row["href"] for row in rows.values()} | {"index.html"}) == 3
    assert rows["index_"]["status"] == "differs" and rows["index"]["status"] == "identical"
    for name, row in rows.items():
        data = render.decode_data((out / row["href"]).read_text(encoding="utf-8"))
        assert (data["runs"]["firstDivergent"] is None) == (name == "index")


def test_roots_of_mlir_trees(tmp_path):
    """Roots of `<program>/` MLIR trees: their files lie at any depth, so a root looks like one tree to the eye;
    its programs are its subdirectories, each a tree, and each program opens into its two-run report."""
    mlir = FIXTURES / "mlir"
    new, old = tmp_path / "new", tmp_path / "old"
    shutil.copytree(mlir / "multi_func" / "tree_dir", new / "multi_func")
    shutil.copytree(mlir / "multi_func" / "tree_dir", old / "multi_func")
    shutil.copytree(mlir / "failing_bufferize" / "tree_dir", new / "failing")
    shutil.copytree(mlir / "failing_bufferize" / "tree_dir_no_module_scope", old / "failing")
    shutil.copytree(mlir / "matmul_bias_relu" / "variant_tree_dir_two_runs", new / "two_runs")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out)]) == 0
    rows = index_rows(out)
    assert {name: row["status"] for name, row in rows.items()} == {
        "multi_func": "identical",
        "failing": "differs",
        "two_runs": "this-run-only",
    }
    data = render.decode_data((out / rows["failing"]["href"]).read_text(encoding="utf-8"))
    assert data["pipelines"][0]["format"] == "mlir-tree" and data["runs"]["firstDivergent"] is not None
    tree = mlir / "multi_func" / "tree_dir"  # one tree is still one dump, not a root of its op folders
    assert not programs.is_root(tree) and not programs.is_root(tree / sorted(p.name for p in tree.iterdir())[0])


# ---- the archive's 128 EXPLICIT programs -------------------------------------------------------------


def expected_index_line(this: Path | None, baseline: Path | None) -> tuple[str, str | None]:
    """(status, first divergent pass) of a program, found from its files alone: the passes paired by name with
    difflib, each run's current snapshot compared byte for byte."""
    if baseline is None or this is None:
        return ("this-run-only" if baseline is None else "baseline-only"), None
    ours, theirs = snapshot_files(this), snapshot_files(baseline)
    if ours[0].read_bytes() != theirs[0].read_bytes():
        return "differs", "input"
    named = [[re.match(r"(\d+)_after_(.+)\.py", f.name).groups() for f in files[1:]] for files in (ours, theirs)]
    at = [0, 0]
    walk = []  # (how the index names the row, this run's snapshot, the baseline's)
    matcher = difflib.SequenceMatcher(None, [n for _, n in named[0]], [n for _, n in named[1]], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                at = [i1 + k + 1, j1 + k + 1]
                walk.append((" ".join(named[0][i1 + k]), *at))
            continue
        for i in range(i1, i2):  # a run's own passes: this run's first, as align.py lists a gap
            at[0] = i + 1
            walk.append((" ".join(named[0][i]), *at))
        for j in range(j1, j2):
            at[1] = j + 1
            walk.append((" ".join(named[1][j]) + " (baseline only)", *at))
    first = next((name for name, i, j in walk if ours[i].read_bytes() != theirs[j].read_bytes()), None)
    return ("differs", first) if first else ("identical", None)


def test_the_archives_128_programs_with_edits_each_programs_line_is_right(real_dumps, tmp_path):
    """The issue's case: the archive's 128 EXPLICIT programs against a copy with a handful of edits of every
    kind (a snapshot, the input, the last pass, a pass removed, a pass renamed, a change carried to the end,
    a program on one side only); every program's line of the index is checked against its files."""
    dumps = sorted(p for p in real_dumps.rglob("*_explicit") if (p / "passes_dump").is_dir())
    assert len(dumps) == 128
    new, old = tmp_path / "new", tmp_path / "old"
    new.mkdir()
    old.mkdir()
    for dump in dumps:
        (old / dump.name).symlink_to(dump)
        (new / dump.name).symlink_to(dump)
    picked = [dumps[k].name for k in range(0, 128, 13)]

    def own(program: str) -> list[Path]:  # this run's copy of a program, to edit
        (new / program).unlink()
        shutil.copytree(old / program, new / program)
        return snapshot_files(new / program)

    def append(path: Path) -> None:
        path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")

    def changing(files: list[Path]) -> int:  # a pass in the middle that changed the text
        return next(k for k in range(len(files) // 2, len(files)) if files[k].read_bytes() != files[k - 1].read_bytes())

    append(own(picked[0])[5])
    append(own(picked[1])[0])
    append(own(picked[2])[-1])
    files = own(picked[3])
    append(files[20])
    append(files[7])
    (new / picked[4]).unlink()  # the baseline only
    files = own(picked[5])  # a pass that changed the text removed, the later ones renumbered
    k = changing(files)
    files[k].unlink()
    for path in files[k + 1 :]:
        label, rest = path.name.split("_", 1)
        path.rename(path.with_name(f"{int(label) - 1:02d}_{rest}"))
    files = own(picked[6])  # a pass renamed
    k = changing(files)
    files[k].rename(files[k].with_name(files[k].name.split("_after_")[0] + "_after_RenamedPass.py"))
    for path in own(picked[7])[15:]:  # a change carried to the end, as a compiler change is
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("pl.FP32", "pl.BF16", 1), encoding="utf-8")
    (new / (picked[8] + "_copy")).symlink_to(old / picked[8])  # this run only
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 0
    rows = index_rows(out)
    names = sorted({p.name for p in new.iterdir()} | {p.name for p in old.iterdir()})
    assert sorted(rows) == names
    found = {name: (rows[name]["status"], rows[name]["first"]) for name in names}
    expected = {
        name: expected_index_line(
            new / name if (new / name).exists() else None, old / name if (old / name).exists() else None
        )
        for name in names
    }
    assert found == expected
    assert sum(status == "differs" for status, _ in found.values()) >= 6  # the edits did show


def test_compile_output_directories_compare_their_first_pipelines_and_say_so(tmp_path, capsys):
    """Two compile output directories (passes_dump/ and ptoas_passes/<unit>/): the runs of the PyPTO pipeline
    are compared; the units are not, and the command says so rather than calling differing runs identical."""
    sides = {}
    for side, unit in (("new", "tree_dir"), ("old", "tree_dir_no_module_scope")):
        root = tmp_path / side
        shutil.copytree(REAL / "advanced_01_split_k_concise" / "passes_dump", root / "passes_dump")
        shutil.copytree(FIXTURES / "mlir" / "multi_func" / unit, root / "ptoas_passes" / "kernel_aiv")
        sides[side] = root
    data = two_runs(sides["new"], sides["old"], tmp_path)
    assert [p["name"] for p in data["pipelines"]] == ["this run", "baseline"]  # no pipeline the page cannot show
    err = capsys.readouterr().err
    assert "not compared: kernel_aiv" in err and "ptoas_passes/kernel_aiv" in err
    assert err.splitlines()[-1].endswith("the PyPTO pipelines print identical IR after every pass")


def test_a_root_of_links_reads_a_broken_program_as_unreadable_not_as_missing(tmp_path, capsys):
    """A CI shard is a root of links to the programs: a linked program whose dump is broken is unreadable (the
    run fails), not a program of the other root only; a link back into the root is still no program."""
    store, new, old = tmp_path / "store", tmp_path / "new", tmp_path / "old"
    for name in ("functions", "crlf"):
        shutil.copytree(FIXTURES / "viewer" / name, store / name)
        shutil.copytree(FIXTURES / "viewer" / name, old / name)
    (store / "functions" / "passes_dump" / "00_frontend.py").unlink()
    new.mkdir()
    for name in ("functions", "crlf"):
        (new / name).symlink_to(store / name)
    (old / "latest").symlink_to(".")
    out = tmp_path / "reports"
    assert cli.main([str(new), "--baseline", str(old), "-o", str(out), "-q"]) == 1
    assert "functions: no 00_frontend.py" in error_of(capsys)
    assert {name: row["status"] for name, row in index_rows(out).items()} == {
        "functions": "unreadable",
        "crlf": "identical",
    }


TWO_SOURCES = FIXTURES / "llvm" / "functions-version-two-sources-O1.txt"  # functions.c, then _version.c


def test_pipeline_picks_which_of_several_pipelines_two_runs_compare(tmp_path, capsys):
    """Two runs of clang on two sources: a pipeline per compilation. By default the first (functions.c) are
    compared, and the note names the others and how to compare one; --pipeline _version.c compares those, where
    this run's last dump differs."""
    this = tmp_path / "this.txt"
    text = TWO_SOURCES.read_text(encoding="utf-8")
    last = text.rindex("  ret ptr %4\n")
    this.write_text(text[:last] + "  ret ptr null\n" + text[last + len("  ret ptr %4\n") :], encoding="utf-8")
    first = two_runs(this, TWO_SOURCES, tmp_path, "--summary-json", str(tmp_path / "first.json"))
    err = capsys.readouterr().err
    assert "not compared: _version.c (--pipeline NAME compares another)" in err and "ptoas_passes" not in err
    assert json.loads((tmp_path / "first.json").read_text())["identical"]
    assert all(row["identical"] for row in first["runs"]["rows"])
    picked = two_runs(this, TWO_SOURCES, tmp_path, "--pipeline", "_version.c")
    ours = picked["pipelines"][0]
    rows = picked["runs"]["rows"]
    assert [row["identical"] for row in rows] == [True] * (len(rows) - 1) + [False]
    header = text[: text.rindex("; *** IR Dump")].count("\n") + 1  # the last dump's header line
    assert ours["passes"][rows[-1]["this"]]["file"] == f"this.txt:{header}"
    assert "not compared: functions.c" in capsys.readouterr().err


def test_a_pipeline_neither_run_holds_or_no_baseline_is_a_usage_error(tmp_path, capsys):
    out = tmp_path / "r.html"
    assert cli.main([str(TWO_SOURCES), "--baseline", str(TWO_SOURCES), "--pipeline", "lz4.c", "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.endswith("holds no pipeline named 'lz4.c': its pipelines are functions.c, _version.c (see --help)")
    assert len(err.splitlines()) == 1 and not out.exists()
    assert cli.main([str(TWO_SOURCES), "--pipeline", "_version.c", "-o", str(out)]) == 2
    assert "--pipeline picks the pipeline two runs compare: give --baseline" in capsys.readouterr().err
    assert not out.exists()
