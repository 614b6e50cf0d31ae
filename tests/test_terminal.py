"""Dump text and file names reach the terminal escaped: a hostile dump cannot set the title, clear the
screen or reorder what is read, in notes, errors, the summary or --dump-structure."""

from __future__ import annotations

import contextlib
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dumptools import PROGRAM, write_dump
from pypto_ir_trace import cli
from pypto_ir_trace.terminal import UNSAFE, visible

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
