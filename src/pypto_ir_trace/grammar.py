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
def capture_names(language: str, name: str) -> tuple[str, ...]:
    """The capture names of grammars/<language>/<name>.scm in the order tree-sitter numbers them (first use),
    read from the file: compiling a query analyses the grammar's parse table, 12 ms for Python's highlights,
    and the report's class table needs every language's names on every run."""
    source = (grammar_dir(language) / f"{name}.scm").read_text(encoding="utf-8")
    names: dict[str, None] = {}
    at = 0
    while at < len(source):
        char = source[at]
        if char == ";":  # a comment, to the end of its line
            at = source.find("\n", at)
            at = len(source) if at < 0 else at
        elif char == '"':  # a string: its @ is text
            at += 1
            while at < len(source) and source[at] != '"':
                at += 2 if source[at] == "\\" else 1
        elif char == "@":
            start = at = at + 1
            while at < len(source) and (source[at].isalnum() or source[at] in _NAME_CHARS):
                at += 1
            names.setdefault(source[start:at])
            continue
        at += 1
    return tuple(names)


_NAME_CHARS = frozenset("_-.")  # what a capture name holds besides letters and digits (tree-sitter's query.c)


@cache
def query(grammar: Language, language: str, *names: str) -> Query:
    """The named queries of grammars/<language>/, compiled as one: a single walk of a tree captures for all
    (capture names stay in file order, so the first file keeps its captures' order)."""
    source = "\n".join((grammar_dir(language) / f"{name}.scm").read_text(encoding="utf-8") for name in names)
    return Query(grammar, source)
