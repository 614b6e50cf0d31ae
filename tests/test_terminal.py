"""Dump text and file names reach the terminal escaped: a hostile dump cannot set the title, clear the
screen or reorder what is read, in notes, errors, the summary or --dump-structure."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pypto_ir_trace as irt
from dumptools import CONCISE, PROGRAM, write_dump
from pypto_ir_trace import cli, render
from pypto_ir_trace.terminal import UNSAFE, decodable, decodable_json, visible

HOSTILE = sorted(UNSAFE)
IN_FILE_NAMES = [char for char in HOSTILE if char != "\x00"]  # every one but NUL can name a file
ATTACK = "\x1b]0;PWNED\x07\x1b[2J\x9b31m\u202eevil"


def stream(failed_pass: str, symbol: str = "f") -> str:
    """An MLIR after-all stream whose second pass failed, that pass and the function named as given."""
    body = f"module {{\n  func.func @{symbol}() {{\n    return\n  }}\n}}\n"
    return (
        f"// -----// IR Dump After CSE (cse) //----- //\n{body}"
        f"// -----// IR Dump After Evil Failed ({failed_pass}) //----- //\n{body}"
    )


def assert_nothing_raw(text: str) -> None:
    assert not (set(text) & UNSAFE), repr(text)


@pytest.mark.parametrize("char", HOSTILE)
def test_every_control_and_bidi_character_is_shown_as_an_escape(char):
    shown = visible(f"a{char}b")
    assert_nothing_raw(shown)
    assert shown == f"a\\x{ord(char):02x}b" if ord(char) < 0x100 else shown == f"a\\u{ord(char):04x}b"


def test_printable_text_of_any_script_is_kept():
    text = "matmul_核 → Ω ≈ café \u00a0 tab-free"
    assert visible(text) == text


def test_a_failed_pass_note_does_not_drive_the_terminal(tmp_path, capsys):
    dump = tmp_path / "stream.mlir"
    dump.write_text(stream(f"evil {ATTACK}"), encoding="utf-8")
    assert cli.main([str(dump), "-o", str(tmp_path / "r.html")]) == 0
    err = capsys.readouterr().err
    assert "failed: the pipeline stopped there" in err and "\\x1b]0;PWNED\\x07\\x1b[2J" in err
    assert_nothing_raw(err.replace("\n", ""))


def test_dump_structure_escapes_symbols(tmp_path, capsys):
    dump = tmp_path / "stream.mlir"
    dump.write_text(stream("canon", symbol='"f \x1b[5m blink"'), encoding="utf-8")
    assert cli.main([str(dump), "--dump-structure"]) == 0
    out = capsys.readouterr().out
    assert "\\x1b[5m blink" in out
    assert_nothing_raw(out.replace("\n", ""))


@settings(max_examples=40, deadline=None)
@given(name=st.text(alphabet=st.sampled_from([*IN_FILE_NAMES, "a", "_", "é"]), min_size=1, max_size=12))
def test_a_file_name_in_an_error_is_escaped(tmp_path_factory, name):
    """The index-gap error names the snapshot after the gap, whatever characters its name holds."""
    root = write_dump(tmp_path_factory.mktemp("d"), {"00_frontend.py": PROGRAM, f"02_after_{name}.py": PROGRAM})
    err = _error_of(root)
    assert "snapshot index gap" in err
    assert_nothing_raw(err.rstrip("\n"))
    assert visible(name) in err


def _error_of(root) -> str:
    captured = io.StringIO()
    with contextlib.redirect_stderr(captured):
        code = cli.main([str(root), "-o", str(root.parent / "r.html")])
    assert code == 1
    return captured.getvalue()


def test_the_summary_line_escapes_the_output_name(tmp_path, capsys):
    root = write_dump(tmp_path / "d", {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    out = tmp_path / "r\x1b[2J.html"
    assert cli.main([str(root), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "wrote" in err and "r\\x1b[2J.html" in err
    assert_nothing_raw(err.replace("\n", ""))
    assert out.exists()  # written under the name given


def test_a_snapshot_whose_name_holds_a_newline_is_read(tmp_path, capsys):
    """A file name may hold any character but "/": one with a newline is a pass, not a file to skip."""
    root = write_dump(tmp_path / "d", {"00_frontend.py": PROGRAM, "01_after_A\nB.py": PROGRAM + "x = 1\n"})
    assert cli.main([str(root), "-o", str(tmp_path / "r.html")]) == 0
    assert "1 passes, 1 changed" in capsys.readouterr().err


# ---- names that are not UTF-8: Linux names are bytes ----------------------------------------------------------

CAFE, SIMPLIFY, BAD = os.fsdecode(b"caf\xe9"), os.fsdecode(b"03_after_Simpl\xe9fy.py"), os.fsdecode(b"bad\xffname")


def utf8(path: Path) -> str:
    return path.read_bytes().decode("utf-8")  # strict: a report, an index or a summary is valid UTF-8


def test_a_byte_of_a_name_that_is_not_utf8_is_shown_by_its_value_everywhere():
    assert visible(f"{CAFE}/\x1b") == decodable(CAFE) + "/\\x1b" == "caf\\xe9/\\x1b"
    assert decodable("核 café \x1b") == "核 café \x1b"  # a document holds anything UTF-8 can
    assert json.loads(decodable_json(json.dumps({BAD: [BAD]}, ensure_ascii=False))) == {
        "bad\\xffname": ["bad\\xffname"]
    }


def test_a_dump_under_a_folder_and_a_snapshot_not_named_in_utf8_are_read_and_reported(tmp_path, capsys):
    files = {**CONCISE, SIMPLIFY: CONCISE["02_after_InferTileMemorySpace.py"] + "# simplified\n"}
    dump = write_dump(tmp_path / CAFE, files)
    out = tmp_path / "r.html"
    args = [
        str(dump),
        "-o",
        str(out),
        "--summary-json",
        str(tmp_path / "s.json"),
        "--summary-md",
        str(tmp_path / "s.md"),
    ]
    assert cli.main(args) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "wrote" in err and "Traceback" not in err
    page = utf8(out)
    assert "<title>IR Trace · caf\\xe9/passes_dump</title>" in page
    passes = render.decode_data(page)["pipelines"][0]["passes"]
    assert [(p["name"], p["file"]) for p in passes][-1] == ("Simpl\\xe9fy", "03_after_Simpl\\xe9fy.py")
    assert json.loads(utf8(tmp_path / "s.json"))["pipelines"][0]["passes"][-1]["name"] == "Simpl\\xe9fy"
    utf8(tmp_path / "s.md")
    assert cli.main([str(dump), "--dump-structure"]) == 0
    assert "03_after_Simpl\\xe9fy.py: " in capsys.readouterr().out
    report = irt.build_report(dump)  # the API: the same, no UnicodeEncodeError
    assert report.html() == page and report.summary()["pipelines"][0]["passes"][-1]["name"] == "Simpl\udce9fy"


def test_a_program_not_named_in_utf8_among_good_ones_gets_its_report_and_the_others_theirs(tmp_path, capsys):
    """Beside it, a program whose name spells its byte out (`bad\\xffname`): each keeps a report of its own."""
    spelled = "bad\\xffname"
    for side in ("new", "old"):
        for name in ("good1", BAD, spelled, "good2"):
            edited = {**CONCISE, "01_after_NameCall.py": CONCISE["01_after_NameCall.py"] + f"# {side}\n"}
            write_dump(tmp_path / side / name, edited if name == BAD else CONCISE)
    out, summary_json, summary_md = tmp_path / "reports", tmp_path / "s.json", tmp_path / "s.md"
    for run in (out, tmp_path / "again"):
        args = [str(tmp_path / "new"), "--baseline", str(tmp_path / "old"), "-o", str(run), "--jobs", "2"]
        assert cli.main([*args, "--summary-json", str(summary_json), "--summary-md", str(summary_md)]) == 0
    capsys.readouterr()
    found = json.loads(utf8(summary_json))
    assert [(p["name"], p["status"]) for p in found["programs"]] == [
        ("bad\\xffname", "identical"),  # the one spelling it out: a backslash sorts before any byte's escape
        ("bad\\xffname", "differs"),
        ("good1", "identical"),
        ("good2", "identical"),
    ]
    reports = [p["report"] for p in found["programs"]]
    assert len(set(reports)) == 4 and all((out / name).is_file() for name in reports)  # the names on disk
    index = utf8(out / "index.html")
    assert all(f'href="{quote(name)}"' in index for name in reports) and 'data-program="bad\\xffname"' in index
    assert "`bad\\xffname`" in utf8(summary_md)  # valid UTF-8, the name shown by its bytes
    assert tree(out) == tree(tmp_path / "again")  # deterministic
    result = irt.compare_programs(tmp_path / "new", tmp_path / "old", tmp_path / "api", jobs=1)
    assert sorted(p.name for p in result.programs if p.status == "differs") == [BAD] and not result.unreadable


def tree(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}
