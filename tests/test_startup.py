"""A run imports what it uses: start-up is half of a small dump's report (0.65 of 1.33 G instructions on a real
PyPTO dump), so the readers of the other formats, the process pool and what only some reports need are imported
when first used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import proctools

ROOT = Path(__file__).resolve().parents[1]
PYPTO = ROOT / "fixtures" / "real" / "advanced_01_split_k_concise" / "passes_dump"
MLIR = ROOT / "fixtures" / "mlir" / "multi_func" / "stream.txt"
LLVM = ROOT / "fixtures" / "llvm" / "lz4-renorm-O2.txt"

# The report runs in a fresh interpreter, which then prints what it imported
_CHILD = """
import json, sys
from pypto_ir_trace import cli
code = cli.main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""

# Imported only by the runs that use them
POOL = ("multiprocessing", "concurrent.futures.process")
MLIR_READER = ("pypto_ir_trace.formats.mlir.stream", "pypto_ir_trace.formats.mlir.tree")
LLVM_READER = ("pypto_ir_trace.formats.llvm.stream",)
SPLICE = ("pypto_ir_trace.splice",)  # what a dump of one unit is diffed against: MLIR's and LLVM's
RARE = ("fractions",)  # content pairs of renamed functions (PyPTO's outlining passes seek them)


def imported(tmp_path: Path, *arguments: str) -> set[str]:
    found = subprocess.run(
        [sys.executable, "-c", _CHILD, *arguments, "-o", str(tmp_path / "report.html"), "-q"],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    code, modules = json.loads(found.stdout.splitlines()[-1])
    assert code == 0, found.stderr
    return set(modules)


@pytest.mark.parametrize(
    "given, unused",
    [
        (PYPTO, POOL + MLIR_READER + LLVM_READER + SPLICE),
        (MLIR, POOL + LLVM_READER + RARE),
        (LLVM, POOL + RARE),  # MLIR's detection, which comes first, reads with MLIR's modules
    ],
    ids=["pypto", "mlir", "llvm"],
)
def test_a_report_imports_no_reader_of_another_format_nor_the_process_pool(tmp_path, given, unused):
    modules = imported(tmp_path, str(given))
    assert modules.isdisjoint(unused), sorted(modules & set(unused))


def test_each_format_imports_its_own_reader(tmp_path):
    assert set(MLIR_READER[:1] + SPLICE) <= imported(tmp_path, str(MLIR))
    assert set(LLVM_READER + SPLICE) <= imported(tmp_path, str(LLVM))


# Every process of the run reads this first: Ctrl-C falls inside the first text Python runs once the CLI's handlers
# are set (a dataclass's methods, built as a lazily imported module defines it)
_CTRL_C_IN_TEXT = """
import builtins, os, signal
_exec, _sent = builtins.exec, []

def _exec_interrupted(source, *args, **kwargs):
    if isinstance(source, str) and callable(signal.getsignal(signal.SIGTERM)) and not _sent:
        _sent.append(source)
        source = "__import__('os').kill(__import__('os').getpid(), 2)\\n" + source
    return _exec(source, *args, **kwargs)

builtins.exec = _exec_interrupted
"""


@pytest.mark.parametrize("given", [MLIR, LLVM], ids=["mlir", "llvm"])  # a PyPTO run defines its classes earlier
def test_ctrl_c_while_a_lazily_imported_module_is_defined_ends_the_run_with_130(tmp_path, given):
    """CPython marks a KeyboardInterrupt that left text it ran as unhandled, caught or not, and `python -m` then
    ended the process by SIGINT itself (what a shell shows as 130, a Popen as -2): the CI's signal trial caught it."""
    env = proctools.site(tmp_path / "site", _CTRL_C_IN_TEXT)
    proc = proctools.cli(str(given), "-o", str(tmp_path / "report.html"), env=env)
    _, err = proc.communicate(timeout=60)
    assert err.strip().splitlines()[-1] == "pypto-ir-trace: error: interrupted", err
    assert proc.returncode == 130 and "Traceback" not in err
    assert not (tmp_path / "report.html").exists()
