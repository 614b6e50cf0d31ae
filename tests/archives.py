"""The real-dump archives: one locator, one environment variable per archive, a skip or (in CI) a failure."""

from __future__ import annotations

import os
import tarfile
from pathlib import Path

from dumptools import REPO, missing

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
