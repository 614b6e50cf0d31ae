"""Odd dumps (fixtures/odd/): what the viewer's data says about each, and that nothing is lost."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from dumptools import write_dump
from modeltools import apply, blocks, build, load_dump, not_rebuilt, report_of
from pypto_ir_trace import cli, compare, render, structure
from pypto_ir_trace.dump import Dump, Snapshot, split_lines
from pypto_ir_trace.languages import PYTHON

ROOT = Path(__file__).resolve().parents[1]
ODD = ROOT / "fixtures" / "odd"


def _generator():
    spec = importlib.util.spec_from_file_location("odd_generate", ODD / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = _generator()


# ---- helpers shared with test_properties.py --------------------------------------------------------


def dump_of(files: dict[str, str]) -> Dump:
    """A Dump from {filename: text}, as discovery would return it (no file system)."""
    snapshots = []
    for index, name in enumerate(sorted(n for n in files if n.endswith(".py"))):
        label, _, rest = name.partition("_")
        log = files.get(name[:-3] + ".log")
        pass_name = "frontend" if index == 0 else rest[len("after_") : -3]
        text = files[name].removeprefix("\ufeff")
        snapshots.append(Snapshot(index, label, pass_name, name, text, log))
    return Dump("odd/passes_dump", tuple(snapshots), format="pypto")


def check_exact(before_text: str, after_text: str) -> compare.PassDiff:
    """The diff of two texts rebuilds the after text byte for byte, whole and function by function."""
    b_lines, _ = split_lines(before_text)
    a_lines, a_endings = split_lines(after_text)
    ids: dict[str, int] = {}
    b_ids = [ids.setdefault(line, len(ids)) for line in b_lines]
    a_ids = [ids.setdefault(line, len(ids)) for line in a_lines]
    b_structure = PYTHON.analyze(structure.parse(b_lines, PYTHON), b_lines)
    a_structure = PYTHON.analyze(structure.parse(a_lines, PYTHON), a_lines)
    diff = compare.diff_pass(b_ids, b_structure, a_ids, a_structure)
    rebuilt = apply(b_ids, diff)
    assert rebuilt == a_ids
    text_of = {i: line for line, i in ids.items()}
    assert "".join(text_of[i] + e for i, e in zip(rebuilt, a_endings)) == after_text
    assert diff.inserted - diff.deleted == len(a_lines) - len(b_lines)
    assert diff.inserted == sum(p.inserted for p in diff.pieces)
    # Function by function: each piece covers exactly its region on each side, in order.
    if b_structure.trusted and a_structure.trusted:
        b_regions = {r.key: r for r in b_structure.regions}
        a_regions = {r.key: r for r in a_structure.regions}
        inserted = iter(diff.inserted_ids)
        # a before region paired by content (renamed, split) belongs to its pair's piece, not to its namesake's
        claimed = {piece.before_key for piece in diff.pieces if piece.before_key is not None}
        for piece in diff.pieces:
            old, new = [], []
            for b, _, eq, deleted, ins in blocks(piece.segments):
                old.extend(b_ids[b : b + eq + deleted])
                new.extend(b_ids[b : b + eq])
                new.extend(next(inserted) for _ in range(ins))
            if piece.key is None:
                continue
            owner = piece.before_key if piece.before_key is not None else piece.key
            region = b_regions.get(owner) if piece.before_key is not None or owner not in claimed else None
            assert old == (b_ids[region.start : region.end] if region else [])
            region = a_regions.get(piece.key)
            assert new == (a_ids[region.start : region.end] if region else [])
            assert diff.by_region.get(piece.key, (0, 0)) == (piece.inserted, piece.deleted)
    return diff


def fixture(name: str) -> dict:
    return build(load_dump(ODD / name / "passes_dump"), context=3)


def regions(data: dict, text: int) -> dict[str, tuple[int, int, str | None]]:
    """key -> (first line 1-based, last line, error) of one text of the model."""
    return {
        key: (start + 1, end, error)
        for key, start, end, error in (
            (r["key"], r["start"], r["end"], r.get("error")) for r in data["texts"][text]["regions"]
        )
    }


def snapshot(data: dict, file: str) -> dict:
    index = 0 if file == data["input"]["file"] else next(p["after"] for p in data["passes"] if p["file"] == file)
    return data["texts"][index]


def pass_named(data: dict, file: str) -> dict:
    return next(p for p in data["passes"] if p["file"] == file)


CLEAN = {"Odd.add_one": (6, 10, None), "Odd.scale": (12, 16, None), "Odd.main": (18, 22, None)}


# ---- the fixtures are what the generator writes ----------------------------------------------------


def test_committed_fixtures_match_the_generator():
    cases = GENERATE.cases()
    on_disk = sorted(p.name for p in ODD.iterdir() if p.is_dir())
    assert on_disk == sorted(cases)
    for name, files in cases.items():
        directory = ODD / name / "passes_dump"
        assert sorted(p.name for p in directory.iterdir()) == sorted(files), name
        for file, text in files.items():
            assert (directory / file).read_bytes() == text.encode("utf-8"), (
                f"{name}/{file}: run fixtures/odd/generate.py"
            )


# ---- errors that stay local ------------------------------------------------------------------------


@pytest.mark.parametrize("case, line", [("body_error", 9), ("debug_print_in_body", 9)])
def test_error_in_one_body_marks_only_that_function(case, line):
    data = fixture(case)
    odd = snapshot(data, "01_after_OddPrinter.py")
    assert "untrusted" not in odd
    found = regions(data, data["passes"][0]["after"])
    assert list(found) == ["Odd.add_one", "Odd.scale", "Odd.main"]  # every function still listed
    assert found["Odd.add_one"][2] == f"syntax error at line {line}"
    assert found["Odd.scale"][2] is None and found["Odd.main"][2] is None
    first = data["passes"][0]
    # The broken function still diffs; its neighbours diff exactly as if nothing were wrong.
    assert set(first["byRegion"]) == {"Odd.add_one", "Odd.scale"}
    assert first["byRegion"]["Odd.scale"] == [1, 1]
    second = data["passes"][1]
    assert set(second["byRegion"]) == {"Odd.add_one"}  # scale and main did not change in pass 02


def test_neighbours_of_a_broken_function_diff_as_if_nothing_were_wrong():
    clean = check_exact(GENERATE.BASE, GENERATE.NEXT)
    odd_text = load_dump(ODD / "body_error").snapshots[1].text
    odd = check_exact(GENERATE.BASE, odd_text)
    assert odd.by_region["Odd.scale"] == clean.by_region["Odd.scale"]
    assert [p.segments for p in odd.pieces if p.key == "Odd.scale"] == [
        p.segments for p in clean.pieces if p.key == "Odd.scale"
    ]


@pytest.mark.parametrize("case, error_line", [("truncated_last_function", None), ("truncated_last_line", 20)])
def test_a_crash_mid_print_stays_local(case, error_line):
    data = fixture(case)
    text = data["passes"][0]["after"]
    assert "untrusted" not in data["texts"][text]
    found = regions(data, text)
    assert found["Odd.add_one"] == CLEAN["Odd.add_one"] and found["Odd.scale"] == CLEAN["Odd.scale"]
    assert found["Odd.main"][:2] == (18, 21 if case == "truncated_last_function" else 20)
    assert found["Odd.main"][2] == (f"syntax error at line {error_line}" if error_line else None)
    assert set(data["passes"][0]["byRegion"]) == {"Odd.main"}


# ---- broken boundaries: detected, not trusted ------------------------------------------------------


@pytest.mark.parametrize(
    "case, reason",
    [
        ("unbalanced_bracket", r"hides where Odd\.add_one ends \(line 12 is not inside it\)"),
        ("broken_def_line", r"hides where Odd\.scale ends \(line 18 is not inside it\)"),
        ("broken_decorator", r"syntax error at line 13 outside any function"),
        ("broken_class_header", r"syntax error at line 5 before the def of add_one"),
        ("debug_line_at_column_0", r"syntax error at line 15 outside any function"),
    ],
)
def test_broken_boundaries_make_the_snapshot_untrusted_and_the_selector_comes_back(case, reason):
    data = fixture(case)
    odd = snapshot(data, "01_after_OddPrinter.py")
    assert re.search(reason, odd["untrusted"])
    first, second = data["passes"]
    # Whole-file diffs only: one piece owned by no function.
    assert [piece["key"] for piece in first["pieces"]] == [None]
    assert [piece["key"] for piece in second["pieces"]] == [None]
    assert first["byRegion"] == {} and second["byRegion"] == {}
    # The next snapshot parses again: the pass after it has the function view back.
    clean = snapshot(data, "02_after_Simplify.py")
    assert "untrusted" not in clean and regions(data, data["passes"][1]["after"]) == CLEAN


# ---- odd files -------------------------------------------------------------------------------------


@pytest.mark.parametrize("case, lines", [("empty", 0), ("whitespace_only", 3)])
def test_empty_and_blank_snapshots(case, lines):
    data = fixture(case)
    crash, after = data["passes"]
    assert crash["deleted"] == 22 and crash["inserted"] == lines
    assert data["texts"][crash["after"]]["regions"] == [] and "untrusted" not in data["texts"][crash["after"]]
    assert after["inserted"] == 22 and after["deleted"] == lines
    assert set(after["byRegion"]) == {"Odd.add_one", "Odd.scale", "Odd.main"}  # all added


@pytest.mark.parametrize(
    "case, endings",
    [
        ("no_trailing_newline", {"eol": "\n", "final": False}),
        ("crlf", {"eol": "\r\n", "final": True}),
        ("cr", {"eol": "\r", "final": True}),
        ("bom", {"eol": "\n", "final": True}),
        ("tabs", {"eol": "\n", "final": True}),
    ],
)
def test_newline_styles_keep_the_structure(case, endings):
    data = fixture(case)
    text = data["texts"][data["passes"][0]["after"]]
    assert {k: text[k] for k in endings} == endings
    assert "untrusted" not in text
    assert list(regions(data, data["passes"][0]["after"])) == ["Odd.add_one", "Odd.scale", "Odd.main"]
    assert data["passes"][0]["byRegion"] == {"Odd.scale": [1, 1]}
    assert "\ufeff" not in "".join(data["lines"])


def test_mixed_newlines_are_kept_line_by_line():
    data = fixture("mixed_newlines")
    text = data["texts"][data["passes"][0]["after"]]
    assert text["eols"][:4] == ["\n", "\r\n", "\r", "\n"]
    assert data["passes"][0]["byRegion"] == {"Odd.scale": [1, 1]}


def test_one_odd_newline_among_many_is_kept(tmp_path):
    """Found by Hypothesis: one carriage return amid newlines, the text ending in a newline, came back as
    a newline (the rule "all alike but the last" let one line in the middle differ)."""
    after = "def f():\n    x = 1\r    return x\n"
    dump = load_dump(write_dump(tmp_path, {"00_frontend.py": "def f():\n    return 1\n", "01_after_A.py": after}))
    data = build(dump)
    assert not_rebuilt(data, dump) == []
    assert data["texts"][data["passes"][0]["after"]]["eols"] == ["\n", "\r", "\n"]


def test_control_characters_are_kept_and_do_not_break_the_parse():
    data = fixture("control_characters")
    after = data["passes"][0]["after"]
    assert "untrusted" not in data["texts"][after]
    assert regions(data, after) == CLEAN  # a NUL in a comment is not an end of file
    line = next(line for line in data["lines"] if "nul" in line)
    for char in "\x00\x01\x1b\x7f\x0c\x0b":
        assert char in line  # kept, for the viewer to show visibly
    assert data["passes"][0]["byRegion"] == {"Odd.scale": [1, 1]}


def test_a_function_defined_twice_gets_a_numbered_key():
    data = fixture("function_defined_twice")
    found = regions(data, data["passes"][0]["after"])
    assert list(found) == ["Odd.add_one", "Odd.scale", "Odd.scale#2", "Odd.main"]
    assert data["passes"][0]["byRegion"] == {"Odd.scale#2": [5, 0]}


def test_methods_of_the_same_name_in_two_classes_are_told_apart():
    data = fixture("same_method_in_two_classes")
    assert list(regions(data, 0)) == ["First.main", "Second.main"]
    assert data["passes"][0]["byRegion"] == {"First.main": [1, 1], "Second.main": [1, 1]}


def test_unicode_identifiers():
    data = fixture("unicode_identifiers")
    assert list(regions(data, 0)) == ["Ünï.größe", "Ünï.缩放", "Ünï.𝔣"]
    assert data["passes"][0]["byRegion"] == {"Ünï.缩放": [1, 1]}


def test_line_separators_inside_strings_do_not_split_lines():
    data = fixture("line_separators_in_strings")
    line = next(line for line in data["lines"] if "note" in line)
    assert line == '        note = "a\u2028b\u2029c\x85d"'
    assert data["passes"][0]["byRegion"] == {"Odd.scale": [2, 1]}
    html = render.render(report_of(load_dump(ODD / "line_separators_in_strings" / "passes_dump")))
    assert "\u2028" not in html and "\u2029" not in html


@pytest.mark.parametrize("name", ["long_line", "deep_nesting", "many_functions"])
def test_large_odd_files_render(name, tmp_path):
    files = GENERATE.large_cases()[name]
    GENERATE.write(files, tmp_path / "passes_dump")
    output = tmp_path / "report.html"
    assert cli.main([str(tmp_path / "passes_dump"), "-o", str(output)]) == 0
    data = build(load_dump(tmp_path / "passes_dump"), context=3)
    after = data["texts"][data["passes"][0]["after"]]
    assert "untrusted" not in after
    if name == "many_functions":
        assert len(after["regions"]) == 10_000
        assert data["passes"][0]["byRegion"] == {"Many.f5000": [1, 1]}
    else:
        assert data["passes"][0]["byRegion"] == {"Odd.scale": [1 + (401 + 1 if name == "deep_nesting" else 1), 1]}
    check_exact(files["00_frontend.py"], files["01_after_Simplify.py"])


# ---- hostile text stays text ------------------------------------------------------------------------


def test_hostile_text_stays_inside_the_data_element(tmp_path):
    output = tmp_path / "report.html"
    assert cli.main([str(ODD / "hostile_text"), "-o", str(output)]) == 0
    html = output.read_text(encoding="utf-8")
    for needle in ("onerror", "__pwned", "{{", "{%", "<!--"):
        assert needle not in html, needle  # only ever inside the compressed data
    data = render.decode_data(html)
    data = {**data, **data["pipelines"][0]}
    assert data["passes"][0]["name"] == "<img src=x onerror=window.__pwned=4>{{7*7}}<!--"
    assert any("</script><script>window.__pwned = 1</script>" in line for line in data["lines"])
    assert "{% raw %} {{ 1 }}" in data["passes"][0]["warnings"]
    assert list(regions(data, 0)) == [
        "Odd.constructor",
        "Odd.__proto__",
        "Odd.toString",
        "Odd.main",
        "constructor",
        "__proto__",
    ]
