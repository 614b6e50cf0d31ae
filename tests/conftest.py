"""Fixtures shared by the unit tests."""

import pytest

from dumptools import write_dump


@pytest.fixture
def make_dump(tmp_path):
    """make_dump({file name: text or bytes}) -> a passes_dump/ directory in a fresh temporary folder."""
    return lambda files, name="case": write_dump(tmp_path / name, files)
