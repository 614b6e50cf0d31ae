"""The archive locator (archives.py): where each archive is looked for, and what a missing one does."""

from __future__ import annotations

import tarfile

import pytest

import archives
from dumptools import outcome


@pytest.fixture
def elsewhere(tmp_path, monkeypatch):
    """A repository at tmp_path/repo with nothing beside it, and neither variable nor CI set."""
    monkeypatch.setattr(archives, "REPO", tmp_path / "repo")
    for variable in [*archives.VARIABLES.values(), "CI"]:
        monkeypatch.delenv(variable, raising=False)
    return tmp_path


def make_archive(path, files: dict[str, str]):
    path.parent.mkdir(parents=True, exist_ok=True)
    source = path.parent / "source"
    with tarfile.open(path, "w:xz") as tar:
        for name, text in files.items():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            (source / name).write_text(text, encoding="utf-8")
            tar.add(source / name, arcname=name)
    return path


@pytest.mark.parametrize("name", sorted(archives.VARIABLES))
def test_the_default_is_beside_the_repository(elsewhere, tmp_path, name):
    beside = make_archive(tmp_path / "shared" / "dumps" / name, {"a/b.txt": "b"})
    assert archives.locate(name) == beside
    assert (archives.unpack(name, tmp_path / "out") / "a" / "b.txt").read_text(encoding="utf-8") == "b"


@pytest.mark.parametrize("name", sorted(archives.VARIABLES))
def test_the_variable_names_another_path_and_wins(elsewhere, tmp_path, monkeypatch, name):
    make_archive(tmp_path / "shared" / "dumps" / name, {"default.txt": ""})
    other = make_archive(tmp_path / "other" / "x.tar.xz", {"other.txt": ""})
    monkeypatch.setenv(archives.VARIABLES[name], str(other))
    assert archives.locate(name) == other


@pytest.mark.parametrize("name", sorted(archives.VARIABLES))
def test_a_missing_archive_skips_saying_where_it_looked(elsewhere, tmp_path, monkeypatch, name):
    kind, reason = outcome(lambda: archives.locate(name))
    assert kind == "skip" and str(tmp_path / "shared" / "dumps" / name) in reason
    assert archives.VARIABLES[name] in reason
    monkeypatch.setenv(archives.VARIABLES[name], str(tmp_path / "nowhere.tar.xz"))  # set, it is not a fallback
    make_archive(tmp_path / "shared" / "dumps" / name, {"default.txt": ""})
    kind, reason = outcome(lambda: archives.locate(name))
    assert kind == "skip" and "nowhere.tar.xz" in reason


@pytest.mark.parametrize("name", sorted(archives.VARIABLES))
def test_a_missing_archive_fails_in_ci_with_one_line(elsewhere, monkeypatch, name):
    monkeypatch.setenv("CI", "true")
    kind, message = outcome(lambda: archives.locate(name))
    assert kind == "fail" and message.startswith("CI: needs the archive") and "\n" not in message
    assert archives.VARIABLES[name] in message
