"""Smoke test of the benchmark: the generator's shape and determinism, and run.py on the small case."""

import itertools
import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
sys.path.insert(0, str(BENCH))
import gen_dump  # noqa: E402


def _files(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(root.iterdir())}


def test_generator_is_deterministic_per_seed(tmp_path):
    first = gen_dump.generate(tmp_path / "a", functions=6, lines=15, passes=12, seed=3)
    again = gen_dump.generate(tmp_path / "b", functions=6, lines=15, passes=12, seed=3)
    other = gen_dump.generate(tmp_path / "c", functions=6, lines=15, passes=12, seed=4)
    assert _files(first.path) == _files(again.path)
    assert _files(first.path) != _files(other.path)


def test_generator_shape(tmp_path):
    result = gen_dump.generate(tmp_path, functions=10, lines=20, passes=40, warn_rate=0.5, seed=1)
    names = sorted(p.name for p in result.path.iterdir())
    snapshots = [n for n in names if n.endswith(".py")]
    assert snapshots[0] == "00_frontend.py"
    assert len(snapshots) == 41
    assert all("_after_" in n for n in snapshots[1:])
    assert any(n.endswith(".log") for n in names)
    frontend = (result.path / "00_frontend.py").read_text()
    assert frontend.startswith("# pypto.program: ")
    assert frontend.count("    def ") == 10
    assert frontend.count("\n") == 10 * 20 + 5  # header lines plus functions x lines
    noop = sum(
        (result.path / a).read_bytes() == (result.path / b).read_bytes() for a, b in itertools.pairwise(snapshots)
    )
    assert noop == result.changed.count(False)
    assert 0.3 * 40 <= noop <= 0.7 * 40  # about half the passes print their predecessor's text


def test_broken_snapshots_are_local(tmp_path):
    result = gen_dump.generate(tmp_path, functions=8, lines=20, passes=20, broken=1, broken_class=True, seed=2)
    texts = [p.read_text() for p in sorted(result.path.glob("*.py"))]
    assert any("<broken>" in t for t in texts)
    assert any("<unprintable" in t for t in texts)
    assert "<broken>" not in texts[0]  # the frontend is always valid


def test_run_small_without_browser(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--cases", "small", "--no-browser", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "small.html").stat().st_size > 0
    assert "| case | snapshot lines |" in proc.stdout
    assert any(line.startswith("| small |") for line in proc.stdout.splitlines())


def test_mlir_generator_follows_the_tree_layout_and_reads_back(tmp_path):
    import gen_mlir
    from pypto_ir_trace.formats import load

    result = gen_mlir.generate(tmp_path / "t", functions=3, rounds=2, seed=1)
    root = tmp_path / "t" / "builtin_module_no-symbol-name"
    assert sorted(p.name for p in root.glob("*.mlir")) == ["0_inline.mlir", "1_sccp.mlir", "2_symbol-dce.mlir"]
    assert sorted(p.name for p in (root / "func_func_kernel_1").iterdir())[:2] == [
        "0_0_canonicalize.mlir",
        "0_1_cse.mlir",
    ]
    assert result.files == 3 + 3 * 4 * 2
    dump = load(tmp_path / "t")[0]
    assert dump.format == "mlir-tree" and len(dump.snapshots) == result.files + 1
    assert [s.name for s in dump.snapshots[1:3]] == ["inline", "canonicalize"]


def test_run_mlir_small_without_browser(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--cases", "mlir-small", "--no-browser", "--workdir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert any(line.startswith("| mlir-small |") for line in proc.stdout.splitlines())


def test_jobs_benchmark_on_the_fixtures_real_dumps():
    """benchmarks/jobs.py end to end on a small archive: past its size the dumps come again under new names, and
    both job counts write the same bytes."""
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "jobs.py"),
            "--archive",
            str(BENCH.parent / "fixtures" / "real"),
            "--programs",
            "6",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "programs: 6 from" in proc.stdout and "speed-up at 2 jobs" in proc.stdout
    assert "every job count wrote the same bytes: yes" in proc.stdout
    assert "first divergent pass, the others none: yes" in proc.stdout


def test_memory_phases_on_a_real_dump():
    """benchmarks/memory_phases.py renders a dump in a child and reads its peak RSS at each phase."""
    proc = subprocess.run(
        [
            sys.executable,
            str(BENCH / "memory_phases.py"),
            str(BENCH.parent / "fixtures" / "llvm" / "lz4-renorm-O2.txt"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    figures = [int(line.split()[-1]) for line in proc.stdout.splitlines()[1:]]
    phases = [" ".join(line.split()[:-1]) for line in proc.stdout.splitlines()[1:]]
    assert phases == ["before build", "after build", "before write", "after write", "end"]
    assert figures == sorted(figures) and figures[0] > 0  # a peak so far never falls


def test_treesitter_share_counts_the_parses_and_query_walks_of_a_real_dump():
    """benchmarks/treesitter_share.py renders a real dump in its own process: tree-sitter's parses and query walks
    are each some of the report's CPU time, together not more than all of it."""
    dump = next(path for path in sorted((BENCH.parent / "fixtures" / "real").iterdir()) if path.is_dir())
    proc = subprocess.run(
        [sys.executable, str(BENCH / "treesitter_share.py"), str(dump), "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    spent = json.loads(proc.stdout)
    assert spent["parse"] > 0 and spent["query"] > 0
    assert spent["parse"] + spent["query"] <= spent["report"]
