"""The queries in grammars/<language>/*.scm, compiled once per language, and the entries of its *.tokens files."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from tree_sitter import Language, Query


def grammar_dir(language: str) -> Path:
    """The installed wheel carries grammars/ inside the package; an editable checkout has it at the top."""
    packaged = resources.files("pypto_ir_trace") / "grammars" / language
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / language


def token_entries(language: str, name: str, fields: int) -> list[list[str]]:
    """grammars/<language>/<name>.tokens as its entries, each line but blanks and `#` comments split into
    `fields` fields at blanks (the last keeps its own: a pattern); [] when there is no such file."""
    path = grammar_dir(language) / f"{name}.tokens"
    if not path.is_file():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split(None, fields - 1) for line in lines if line.strip() and not line.startswith("#")]


def query_names(language: str) -> list[str]:
    return sorted(path.stem for path in grammar_dir(language).glob("*.scm"))


@cache
def query(grammar: Language, language: str, *names: str) -> Query:
    """The named queries of grammars/<language>/, compiled as one: a single walk of a tree captures for all
    (capture names stay in file order, so the first file keeps its captures' order)."""
    source = "\n".join((grammar_dir(language) / f"{name}.scm").read_text(encoding="utf-8") for name in names)
    return Query(grammar, source)
