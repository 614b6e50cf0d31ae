"""A run imports what it uses: start-up is half of a small dump's report (0.65 of 1.33 G instructions on a real
PyPTO dump), so the readers of the other formats, the process pool and what only some reports need are imported
when first used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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
