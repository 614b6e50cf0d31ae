"""Fixtures shared by the unit tests."""

from pathlib import Path

import pytest

from archives import unpack
from dumptools import write_dump


@pytest.fixture
def make_dump(tmp_path):
    """make_dump({file name: text or bytes}) -> a passes_dump/ directory in a fresh temporary folder."""
    return lambda files, name="case": write_dump(tmp_path / name, files)


@pytest.fixture(scope="session")
def real_dumps(tmp_path_factory) -> Path:
    """The 256 real PyPTO dumps (<name>_<level>/passes_dump/), unpacked once; tests only read them."""
    return unpack("real-pypto-dumps.tar.xz", tmp_path_factory.mktemp("real"))


@pytest.fixture(scope="session")
def mlir_dumps(tmp_path_factory) -> Path:
    """The real MLIR dump archive (every program and variant), unpacked once; tests only read it."""
    return unpack("mlir-dumps.tar.xz", tmp_path_factory.mktemp("mlir")) / "mlir_dumps"
