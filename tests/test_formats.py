"""Format detection and PyPTO compile output directories: one pipeline for PyPTO, one per ptoas codegen unit."""

from __future__ import annotations

import ast
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from dumptools import FIXTURES, REAL
from pypto_ir_trace import cli, render
from pypto_ir_trace.errors import DumpError
from pypto_ir_trace.formats import FORMATS, load

MLIR = FIXTURES / "mlir"


@pytest.fixture
def output_dir(tmp_path) -> Path:
    """What compile(..., dump_passes=..., dump_ptoas_passes=True) leaves: passes_dump/ and ptoas_passes/<unit>/."""
    root = tmp_path / "build_output" / "prog_20261130_abc"
    shutil.copytree(REAL / "advanced_01_split_k_concise" / "passes_dump", root / "passes_dump")
    shutil.copytree(MLIR / "multi_func" / "tree_dir", root / "ptoas_passes" / "kernel_aiv")
    shutil.copytree(MLIR / "failing_bufferize" / "tree_dir", root / "ptoas_passes" / "kernel_aic")
    return root


def test_an_output_directory_gives_pypto_then_each_unit_in_name_order(output_dir):
    dumps = load(output_dir)
    assert [(d.name, d.format) for d in dumps] == [
        ("PyPTO", "pypto"),
        ("kernel_aic", "mlir-tree"),
        ("kernel_aiv", "mlir-tree"),
    ]


def test_ptoas_passes_alone_gives_its_units(output_dir):
    assert [d.name for d in load(output_dir / "ptoas_passes")] == ["kernel_aic", "kernel_aiv"]


def test_an_output_directory_renders_one_report_with_every_pipeline(output_dir, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert cli.main([str(output_dir), "-o", str(out)]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert [p["name"] for p in data["pipelines"]] == ["PyPTO", "kernel_aic", "kernel_aiv"]
    assert [p["format"] for p in data["pipelines"]] == ["pypto", "mlir-tree", "mlir-tree"]
    err = capsys.readouterr().err
    assert "note: kernel_aic: reading an MLIR tree dump" in err
    assert "wrote " in err and "3 pipelines" in err


@pytest.mark.parametrize(
    "given, title", [("", "prog_20261130_abc"), ("ptoas_passes", "prog_20261130_abc/ptoas_passes")]
)
def test_a_report_of_several_pipelines_is_titled_by_the_folder_named(output_dir, tmp_path, given, title):
    """Not by its first pipeline's folder (prog/passes_dump): the header stands over every pipeline."""
    out = tmp_path / "r.html"
    assert cli.main([str(output_dir / given), "-o", str(out)]) == 0
    data = render.decode_data(out.read_text(encoding="utf-8"))
    assert data["title"] == title and f"<title>IR Trace · {title}</title>" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "path, name",
    [
        (REAL / "advanced_01_split_k_concise" / "passes_dump", "pypto"),
        (MLIR / "multi_func" / "tree_dir", "mlir-tree"),
        (MLIR / "multi_func" / "tree_dir_no_module_scope", "mlir-tree"),
        (MLIR / "multi_func" / "stream.txt", "mlir-stream"),
    ],
)
def test_each_format_is_detected_from_its_layout(path, name):
    assert [d.format for d in load(path)] == [name]
    assert [FORMATS[name].looks_like(path)] == [True]


def test_a_forced_format_reads_only_that_way(capsys, tmp_path):
    stream = MLIR / "multi_func" / "stream.txt"
    assert cli.main([str(stream), "--format", "pypto", "-o", str(tmp_path / "r.html")]) == 1
    assert "is not a PyPTO passes_dump: it looks like an MLIR after-all stream (--format mlir-stream" in (
        capsys.readouterr().err
    )
    assert cli.main([str(stream), "--format", "nonsense"]) == 2


def test_an_empty_ptoas_passes_is_a_clear_error(tmp_path):
    (tmp_path / "ptoas_passes").mkdir()
    with pytest.raises(DumpError, match="no codegen unit folder"):
        load(tmp_path / "ptoas_passes")


def test_a_file_that_is_not_a_stream_says_what_a_stream_holds(tmp_path, capsys):
    """An MLIR user's first guess may be the compiler's input or output (.mlir, no IR Dump header): the
    error also says what a stream would hold."""
    program = tmp_path / "input.mlir"
    program.write_text("module {\n  func.func @f() {\n    return\n  }\n}\n", encoding="utf-8")
    assert cli.main([str(program), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not a directory" in err[0] and "no IR Dump header line" in err[0]
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("folders", ["", "builtin_module_no-symbol-name/func_func_f"])
def test_an_empty_directory_names_both_formats(tmp_path, capsys, folders):
    """An empty MLIR tree (the compiler printed an error instead of IR) is as likely as an empty passes_dump/."""
    root = tmp_path / "tree_dir"
    (root / folders).mkdir(parents=True)
    assert cli.main([str(root), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        len(err) == 1
        and "holds no file" in err[0]
        and "00_frontend.py" in err[0]
        and "--mlir-disable-threading" in err[0]
    )
    assert not (tmp_path / "r.html").exists()


def test_a_failed_pass_is_named_on_stderr(output_dir, tmp_path, capsys):
    assert cli.main([str(output_dir), "-o", str(tmp_path / "r.html")]) == 0
    err = capsys.readouterr().err
    assert "note: kernel_aic: 5 one-shot-bufferize failed: the pipeline stopped there (" in err
    assert "kernel_aiv: " in err and "kernel_aiv: 5 " not in err and err.count(" failed: the pipeline stopped") == 1


@pytest.mark.parametrize("name", ["same", "hard link", "symlink"])
def test_a_stream_being_read_is_never_written_over(tmp_path, capsys, name):
    """-o naming the stream itself (under any name) is refused like a snapshot of a tree: one line, exit 1,
    the stream untouched."""
    stream = tmp_path / "stream.txt"
    shutil.copyfile(MLIR / "multi_func" / "stream.txt", stream)
    original = stream.read_bytes()
    target = {"same": stream, "hard link": tmp_path / "other.html", "symlink": tmp_path / "link.html"}[name]
    if name == "hard link":
        target.hardlink_to(stream)
    elif name == "symlink":
        target.symlink_to(stream)
    assert cli.main([str(stream), "-o", str(target)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "refusing to write the report over" in err[0]
    assert stream.read_bytes() == original


def test_a_file_no_format_recognises_is_read_by_each_format_that_reads_files(tmp_path, monkeypatch):
    """The single-file fallback asks the records, not one format: a second file reader gets its turn, and
    the error, when none can read it, says what each made of it."""
    odd = tmp_path / "odd.log"
    odd.write_text("what no detection recognises\n", encoding="utf-8")
    with pytest.raises(DumpError) as raised:
        load(odd)
    assert str(raised.value).startswith(f"input is not a directory: {odd}; as an MLIR after-all stream: no IR Dump")
    stream = FORMATS["mlir-stream"]
    other = replace(stream, name="other", description="another stream", looks_like=lambda path: False)
    monkeypatch.setitem(
        FORMATS, "other", replace(other, read=lambda path: stream.read(MLIR / "multi_func" / "stream.txt"))
    )
    assert [dump.format for dump in load(odd)] == ["other"]
    monkeypatch.setitem(FORMATS, "other", replace(other, read=_refuse))
    with pytest.raises(DumpError, match=r"; as an MLIR after-all stream: .*; as another stream: not mine either$"):
        load(odd)
    for record in (stream, other, FORMATS["llvm"]):
        monkeypatch.setitem(FORMATS, record.name, replace(record, reads_file=False))
    with pytest.raises(DumpError, match=r"^input is not a directory: \S+$"):
        load(odd)


def _refuse(path):
    raise DumpError("not mine either")


def test_no_module_after_discovery_names_a_format():
    """The format records are complete: what the pipeline after discovery needs of a format (its input's label
    and name, its dump level's words), it asks the record, through the model in the page."""
    package = Path(cli.__file__).parent
    own = [package / "formats", package / "languages"]
    names = "|".join(re.escape(f'"{name}"') for name in FORMATS)
    # a format's name; PyPTO's advice; the input label given as a value ("00": `= "00"`, `|| "00"`); its file name
    named = re.compile(rf'{names}|RunConfig|PassDumpLevel\.|[=|]\s*"00"|00_frontend|\\.py\$')
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".js", ".j2") and not any(path.is_relative_to(folder) for folder in own):
            found = named.search(path.read_text(encoding="utf-8"))
            assert found is None, f"{path.relative_to(package)} names {found.group()}"


def _imported(path: Path, package: Path) -> set[str]:
    """What a module of the package imports, as dotted names from the package's top (`languages.mlir`)."""
    here = path.relative_to(package.parent).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = [*here[: len(here) - node.level + 1], *(node.module or "").split(".")]
            base = [part for part in base if part][1:]  # without the package's own name
            found |= {".".join([*base, alias.name]) for alias in node.names} | ({".".join(base)} if base else set())
    return found


def test_a_format_reaches_a_language_and_the_splice_through_their_records():
    """No format imports a language's module (languages/mlir.py) or another format's: it asks the Language record
    (languages/__init__.py), and the one-unit dumps of every format are spliced by splice.py."""
    package = Path(cli.__file__).parent
    languages = {f"languages.{p.stem}" for p in (package / "languages").glob("*.py") if p.stem != "__init__"}
    formats = {p.name.removesuffix(".py") for p in (package / "formats").iterdir() if p.name != "__init__.py"}
    for path in sorted((package / "formats").rglob("*.py")):
        if path.parent == package / "formats" and path.name == "__init__.py":
            continue  # the registry: it names every format
        own = path.relative_to(package / "formats").parts[0].removesuffix(".py")
        imported = _imported(path, package)
        assert not imported & languages, f"{path.relative_to(package)} imports {imported & languages}"
        others = {name for name in imported if name.split(".")[:2] in (["formats", f] for f in formats - {own})}
        assert not others, f"{path.relative_to(package)} imports {others}"
