"""Fixtures shared by the unit tests."""

import lzma
import os
import tarfile
from pathlib import Path

import pytest

from dumptools import REPO, write_dump


@pytest.fixture
def make_dump(tmp_path):
    """make_dump({file name: text or bytes}) -> a passes_dump/ directory in a fresh temporary folder."""
    return lambda files, name="case": write_dump(tmp_path / name, files)


def _mlir_archive() -> Path | None:
    for candidate in (os.environ.get("PYPTO_MLIR_DUMPS"), REPO.parent / "shared/dumps/mlir-dumps.tar.xz"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def archive(tmp_path_factory) -> Path:
    """The real MLIR dump archive (every program and variant), unpacked once into a temporary folder."""
    if _mlir_archive() is None:
        pytest.skip("the MLIR dump archive is not beside the repository (set PYPTO_MLIR_DUMPS)")
    root = tmp_path_factory.mktemp("mlir")
    with lzma.open(_mlir_archive()) as stream, tarfile.open(fileobj=stream) as tar:
        tar.extractall(root, filter="data")
    return root / "mlir_dumps"
