"""Every program of the real MLIR archive renders in every form it holds (trees with and without module
scope, streams, variants), and the report rebuilds each snapshot's text exactly.

The archive is ../shared/dumps/mlir-dumps.tar.xz beside the repository (or $PYPTO_MLIR_DUMPS), unpacked by
the `mlir_dumps` fixture (conftest.py); without it these tests skip saying so, or fail under CI=true.
"""

from __future__ import annotations

from pathlib import Path

from modeltools import load_dump, not_rebuilt
from pypto_ir_trace import cli, render


def _forms(program: Path) -> list[Path]:
    return sorted(
        p for p in program.iterdir() if p.name.startswith(("tree_dir", "variant_tree_dir")) and p.is_dir()
    ) + sorted(p for p in program.glob("*stream*.txt"))


def test_every_program_renders_in_every_form(mlir_dumps, tmp_path, capsys):
    programs = sorted(p for p in mlir_dumps.iterdir() if p.is_dir() and not p.name.startswith("_"))
    assert len(programs) == 6
    rendered = 0
    for program in programs:
        for form in _forms(program):
            out = tmp_path / f"{program.name}-{form.name}.html"
            assert cli.main([str(form), "-o", str(out), "-q"]) == 0, (form, capsys.readouterr().err)
            data = render.decode_data(out.read_text(encoding="utf-8"))
            assert not_rebuilt({**data, **data["pipelines"][0]}, load_dump(form)) == [], form
            rendered += 1
    assert rendered >= 30


def test_the_threading_error_is_one_line_saying_what_to_do(mlir_dumps, tmp_path, capsys):
    stderr = mlir_dumps / "multi_func" / "variant_module_scope_with_threading.stderr.txt"
    assert cli.main([str(stderr), "-o", str(tmp_path / "r.html")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--mlir-disable-threading" in err[0]
    assert not (tmp_path / "r.html").exists()


def test_local_scope_whole_dumps_get_the_ir_the_module_scope_run_printed(mlir_dumps):
    """Every program: in the local-scope tree and stream, each dump of the whole module but the first is diffed
    against exactly the IR the module-scope run of the same pipeline printed before that pass."""
    checked = 0
    for program in sorted(p for p in mlir_dumps.iterdir() if p.is_dir() and not p.name.startswith("_")):
        for local, scoped in (("tree_dir_no_module_scope", "tree_dir"), ("stream_no_module_scope.txt", "stream.txt")):
            ours, theirs = load_dump(program / local), load_dump(program / scoped)
            twins = {s.filename if s.path else s.index: s for s in theirs.snapshots}
            wholes = [s for s in ours.snapshots[1:] if "local scope" not in s.detail]
            for s in wholes[1:]:
                twin = twins[s.filename if s.path else s.index]
                before = (
                    s.base_text
                    if s.base_text is not None
                    else ours.snapshots[s.base if s.base is not None else s.index - 1].text
                )
                assert before == theirs.snapshots[twin.index - 1].text, (program.name, local, s.filename)
                checked += 1
    assert checked >= 40
