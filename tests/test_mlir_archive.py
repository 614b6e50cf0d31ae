"""Every program of the real MLIR archive renders in every form it holds (trees with and without module
scope, streams, variants), and the report rebuilds each snapshot's text exactly.

The archive is ../shared/dumps/mlir-dumps.tar.xz beside the repository (or $PYPTO_MLIR_DUMPS); without it
this test is skipped, with that reason.
"""

from __future__ import annotations

import lzma
import os
import tarfile
from pathlib import Path

import pytest

from pypto_ir_trace import cli, render
from modeltools import load_dump, source
from dumptools import REPO


def _archive() -> Path | None:
    for candidate in (os.environ.get("PYPTO_MLIR_DUMPS"), REPO.parent / "shared/dumps/mlir-dumps.tar.xz"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    if _archive() is None:
        pytest.skip("the MLIR dump archive is not beside the repository (set PYPTO_MLIR_DUMPS)")
    root = tmp_path_factory.mktemp("mlir")
    with lzma.open(_archive()) as stream, tarfile.open(fileobj=stream) as tar:
        tar.extractall(root, filter="data")
    return root / "mlir_dumps"


def _forms(program: Path) -> list[Path]:
    return sorted(p for p in program.iterdir() if p.name.startswith(("tree_dir", "variant_tree_dir")) and p.is_dir()) + \
        sorted(p for p in program.glob("*stream*.txt"))


def test_every_program_renders_in_every_form(archive, tmp_path, capsys):
    programs = sorted(p for p in archive.iterdir() if p.is_dir() and not p.name.startswith("_"))
    assert len(programs) == 6
    rendered = 0
    for program in programs:
        for form in _forms(program):
            out = tmp_path / f"{program.name}-{form.name}.html"
            assert cli.main([str(form), "-o", str(out), "-q"]) == 0, (form, capsys.readouterr().err)
            data = render.decode_data(out.read_text(encoding="utf-8"))
            pipeline = {**data, **data["pipelines"][0]}
            dump = load_dump(form)
            cache: dict = {}
            for snapshot, p in zip(dump.snapshots[1:], pipeline["passes"]):
                assert source(pipeline, p["after"], cache) == snapshot.text, (form, snapshot.filename)
            rendered += 1
    assert rendered >= 30


def test_the_threading_error_is_one_line_saying_what_to_do(archive, tmp_path, capsys):
    stderr = archive / "multi_func" / "variant_module_scope_with_threading.stderr.txt"
    assert cli.main([str(stderr), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--mlir-disable-threading" in err[0]
    assert not (tmp_path / "r.html").exists()
