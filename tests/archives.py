"""The real-dump archives: one locator, one environment variable per archive, a skip or (in CI) a failure; and the
repository's own corpus of real MLIR dumps (fixtures/mlir/real/), each case's larger dumps kept as dumps.tar.xz."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

from dumptools import FIXTURES, REPO, missing

REAL_MLIR = FIXTURES / "mlir" / "real"  # a folder per case: its input, README.md, dumps (small) or dumps.tar.xz

# Archive file name -> the variable that names another path for it; the default is beside the repository.
VARIABLES = {
    "real-pypto-dumps.tar.xz": "PYPTO_REAL_DUMPS",  # 256 PyPTO passes_dump/ directories
    "mlir-dumps.tar.xz": "PYPTO_MLIR_DUMPS",  # mlir-opt trees and streams of six programs
}


def locate(name: str) -> Path:
    """The archive's path: $VARIABLE if set, else ../shared/dumps/<name> beside the repository.

    Missing, the calling test skips saying where it looked, or fails under CI=true (dumptools.missing).
    """
    variable = VARIABLES[name]
    path = Path(os.environ.get(variable) or REPO.parent / "shared" / "dumps" / name)
    if not path.is_file():
        missing(f"needs the archive {name}: none at {path} (set {variable} to its path)")
    return path


def unpack(name: str, into: Path) -> Path:
    """The archive located and unpacked into `into` (which is returned)."""
    with tarfile.open(locate(name), "r:xz") as tar:
        tar.extractall(into, filter="data")
    return into


def unpack_real_mlir(into: Path) -> Path:
    """fixtures/mlir/real/ as its cases' dumps: into/<case>/ holds the case's files, its dumps.tar.xz unpacked."""
    for case in sorted(p for p in REAL_MLIR.iterdir() if p.is_dir()):
        (into / case.name).mkdir(parents=True)
        for file in case.iterdir():
            if file.name == "dumps.tar.xz":
                with tarfile.open(file, "r:xz") as tar:
                    tar.extractall(into / case.name, filter="data")
            elif file.is_file():
                (into / case.name / file.name).write_bytes(file.read_bytes())
    return into
