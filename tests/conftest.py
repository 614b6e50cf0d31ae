"""Fixtures shared by the unit tests, and the Hypothesis profile every property test starts from."""

from pathlib import Path

import pytest
from hypothesis import settings

from archives import unpack, unpack_real_mlir
from dumptools import in_ci, made_once, write_dump

# Under CI=true Hypothesis derandomizes (the same examples on every run: a failure seen in CI reproduces with
# CI=true anywhere) and keeps no example database; elsewhere it draws at random. Hypothesis' own "ci" profile
# does this; it is bound here, before test modules build their settings on the active profile (and before
# test_properties.py reuses the name "ci" for its example counts).
settings.register_profile("pypto-ir-trace", settings.get_profile("ci" if in_ci() else "default"))
settings.load_profile("pypto-ir-trace")


@pytest.fixture
def make_dump(tmp_path):
    """make_dump({file name: text or bytes}) -> a passes_dump/ directory in a fresh temporary folder."""
    return lambda files, name="case": write_dump(tmp_path / name, files)


@pytest.fixture(scope="session")
def real_dumps(tmp_path_factory) -> Path:
    """The 256 real PyPTO dumps (<name>_<level>/passes_dump/), unpacked once per run; tests only read them."""
    return made_once(tmp_path_factory, "real", lambda into: unpack("real-pypto-dumps.tar.xz", into))


@pytest.fixture(scope="session")
def mlir_dumps(tmp_path_factory) -> Path:
    """The real MLIR dump archive (every program and variant), unpacked once per run; tests only read it."""
    return made_once(tmp_path_factory, "mlir", lambda into: unpack("mlir-dumps.tar.xz", into)) / "mlir_dumps"


@pytest.fixture(scope="session")
def real_mlir(tmp_path_factory) -> Path:
    """fixtures/mlir/real/, every case's dumps.tar.xz unpacked beside its other files, once per run; tests only read it."""
    return made_once(tmp_path_factory, "real-mlir", unpack_real_mlir)
