"""Discovery: ordering, names, gaps, duplicates, warnings, encodings and their one-line errors."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dumptools import PROGRAM
from modeltools import load_dump
from pypto_ir_trace import formats
from pypto_ir_trace.dump import Packed, Spool, split_lines
from pypto_ir_trace.errors import DumpError


def test_snapshots_in_index_order_with_pass_names(make_dump):
    dump = load_dump(
        make_dump(
            {
                "00_frontend.py": PROGRAM,
                "02_after_Simplify.py": PROGRAM,
                "01_after_ConvertToSSA.py": PROGRAM,
                "03_after_Simplify.py": PROGRAM,
                "notes.txt": "ignored",
            }
        )
    )
    assert [(s.label, s.name) for s in dump.snapshots] == [
        ("00", "frontend"),
        ("01", "ConvertToSSA"),
        ("02", "Simplify"),
        ("03", "Simplify"),
    ]
    assert dump.title == "case/passes_dump"


def test_warnings_log_belongs_to_its_pass(make_dump):
    dump = load_dump(
        make_dump(
            {
                "00_frontend.py": PROGRAM,
                "01_after_A.py": PROGRAM,
                "01_after_A.log": "x.py:3:1: warning: unused tile\n",
                "02_after_B.py": PROGRAM,
                "02_after_B.log": "",
            }
        )
    )
    assert dump.snapshots[1].warnings == "x.py:3:1: warning: unused tile\n"
    assert dump.snapshots[2].warnings == ""  # present but empty: the pass did not warn
    assert dump.snapshots[0].warnings is None


def test_missing_directory(tmp_path):
    with pytest.raises(DumpError, match=r"^input directory does not exist: .*nowhere$"):
        load_dump(tmp_path / "nowhere")


def test_path_is_a_file(tmp_path):
    (tmp_path / "f.py").write_text("x = 1\n")
    with pytest.raises(DumpError, match="input is not a directory"):
        load_dump(tmp_path / "f.py")


def test_no_frontend(make_dump):
    with pytest.raises(DumpError, match=r"no 00_frontend\.py in"):
        load_dump(make_dump({"01_after_A.py": PROGRAM}))


def test_gap_names_missing_index_and_neighbours(make_dump):
    files = {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM, "04_after_D.py": PROGRAM}
    with pytest.raises(DumpError, match=r"missing 02, 03 between 01_after_A.py and 04_after_D.py"):
        load_dump(make_dump(files))


def test_two_snapshots_with_one_index(make_dump):
    files = {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM, "01_after_B.py": PROGRAM}
    with pytest.raises(DumpError, match=r"two snapshots with index 01 .*01_after_A.py and 01_after_B.py"):
        load_dump(make_dump(files))


@pytest.mark.parametrize("name", ["01_before_A.py", "01_after_.py", "00_after_A.py", "01_frontend.py", "7_A.py"])
def test_numbered_file_that_does_not_match(make_dump, name):
    files = {"00_frontend.py": PROGRAM, name: PROGRAM} if name != "00_after_A.py" else {name: PROGRAM}
    with pytest.raises(DumpError, match=f"unexpected snapshot name {name}"):
        load_dump(make_dump(files))


def test_not_utf8_names_the_file(make_dump):
    files = {"00_frontend.py": PROGRAM, "01_after_A.py": b"x = '\xff'\n"}
    dump = load_dump(make_dump(files))  # files are read one at a time, when the report needs them
    with pytest.raises(DumpError, match=r"01_after_A.py is not UTF-8 text \(invalid byte 0xff at offset 5\)"):
        _ = dump.snapshots[1].text


def test_unreadable_file(make_dump, monkeypatch):
    """Permissions cannot stop root (CI), so the OS refusing the read is simulated."""
    dump = make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    real_read = Path.read_bytes

    def refuse(path):
        if path.name == "01_after_A.py":
            raise PermissionError(13, "Permission denied", str(path))
        return real_read(path)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(DumpError, match=r"cannot read .*01_after_A.py: Permission denied"):
        _ = load_dump(dump).snapshots[1].text


def test_directory_named_like_a_snapshot_is_an_error_naming_it(make_dump):
    """Skipping it would make the dump look frontend-only (or drop its last pass) with exit 0."""
    dump = make_dump({"00_frontend.py": PROGRAM})
    (dump / "01_after_A.py").mkdir()
    with pytest.raises(DumpError, match=r"^01_after_A.py in .* is a directory, not a snapshot file$"):
        load_dump(dump)


def test_broken_symlink_snapshot_is_an_error_naming_it(make_dump):
    dump = make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    (dump / "02_after_B.py").symlink_to(dump / "gone.py")
    with pytest.raises(DumpError, match=r"^02_after_B.py in .* is a broken symbolic link$"):
        load_dump(dump)


def test_symlinked_snapshot_is_read(make_dump, tmp_path):
    (tmp_path / "elsewhere.py").write_text(PROGRAM)
    dump = make_dump({"00_frontend.py": PROGRAM})
    (dump / "01_after_A.py").symlink_to(tmp_path / "elsewhere.py")
    assert load_dump(dump).snapshots[1].text == PROGRAM


def test_huge_index_gap_is_reported_by_its_bounds_at_once(make_dump):
    """A stray 20240501_after_Backup.py once took seconds, GBs and a 202 MB message padded like 00000002."""
    files = {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM, "100000000_after_Backup.py": PROGRAM}
    with pytest.raises(DumpError) as caught:
        load_dump(make_dump(files))
    message = str(caught.value)
    assert "missing 02 .. 99999999 between 01_after_A.py and 100000000_after_Backup.py" in message
    assert len(message) < 300


def test_compile_output_dir_redirects_to_passes_dump(make_dump):
    dump = make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM})
    loaded = load_dump(dump.parent)
    assert loaded.redirected and len(loaded.snapshots) == 2


def test_bom_is_not_part_of_line_one_and_crlf_reads(make_dump):
    dump = load_dump(make_dump({"00_frontend.py": b"\xef\xbb\xbfimport x\r\ny = 1\r\n"}))
    text = dump.snapshots[0].text
    assert text == "import x\r\ny = 1\r\n"
    assert split_lines(text) == (["import x", "y = 1"], ["\r\n", "\r\n"])


@pytest.mark.parametrize(
    "text, lines, endings",
    [
        ("", [], []),
        ("a", ["a"], [""]),
        ("a\n", ["a"], ["\n"]),
        ("a\r\nb\rc\n\nd", ["a", "b", "c", "", "d"], ["\r\n", "\r", "\n", "\n", ""]),
        ("a\u2028b\x0cc\n", ["a\u2028b\x0cc"], ["\n"]),  # only \r\n, \r and \n end lines
    ],
)
def test_split_lines(text, lines, endings):
    assert split_lines(text) == (lines, endings)
    assert "".join(line + end for line, end in zip(lines, endings)) == text


@given(st.text())
def test_a_packed_text_reads_back_as_it_was(text):
    assert Packed.of(text).read() == text


def test_base_texts_are_held_deflated_and_equal_ones_once(real_mlir):
    """The texts a local-scope stream's dumps are diffed against (ops cut out of modules) live from discovery to
    the end of the build: they are held deflated, each distinct one once (IREE mlp: 8.3 MB of text, 1.7 MB held)."""
    (dump,) = formats.load(real_mlir / "sparsifier" / "stream_local_scope.txt")
    based = [s for s in dump.snapshots if s.based_on is not None]
    assert based and all(isinstance(s.based_on, Packed) for s in based)
    held = {id(s.based_on): s.based_on for s in based}
    texts = {s.base_text for s in based}
    assert len(held) == len(texts)
    assert sum(len(p.data) for p in held.values()) < sum(len(t.encode()) for t in texts) / 3


def test_a_spool_gives_back_each_text_it_was_given_and_leaves_no_file(tmp_path, monkeypatch):
    """Texts the format made (an MLIR local dump shown in the whole IR) wait in an unnamed temporary file: read
    back exactly, in any order, and nothing stays in the temporary folder."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    spool = Spool()
    texts = ["module {\n}\n", "", "naïve ∑ 😀\n" * 1000, "\udcff lone surrogate\n"]
    kept = [spool.put(text) for text in texts]
    assert [source.read() for source in reversed(kept)] == texts[::-1]
    assert list(tmp_path.iterdir()) == []


def test_a_spool_that_cannot_write_keeps_its_texts_deflated(monkeypatch):
    """No temporary folder, or a full one: the texts are kept deflated in memory, read back the same."""
    spool = Spool()
    first = spool.put("a\n")

    def full(*_):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", full)
    second = spool.put("b\n" * 100)
    assert isinstance(second, Packed) and second.read() == "b\n" * 100 and first.read() == "a\n"
    monkeypatch.setattr(tempfile, "TemporaryFile", full)
    assert Spool().put("c\n").read() == "c\n"
