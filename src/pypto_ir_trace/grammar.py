"""The language: tree-sitter parser and the queries in grammars/<language>/*.scm."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

import tree_sitter_python
from tree_sitter import Language, Parser, Query

LANGUAGE = "python"
PYTHON = Language(tree_sitter_python.language())


def grammar_dir(language: str = LANGUAGE) -> Path:
    """The installed wheel carries grammars/ inside the package; an editable checkout has it at the top."""
    packaged = resources.files("pypto_ir_trace") / "grammars" / language
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / language


def query_names(language: str = LANGUAGE) -> list[str]:
    return sorted(path.stem for path in grammar_dir(language).glob("*.scm"))


@cache
def query(name: str, language: str = LANGUAGE) -> Query:
    source = (grammar_dir(language) / f"{name}.scm").read_text(encoding="utf-8")
    return Query(PYTHON, source)


def parser() -> Parser:
    return Parser(PYTHON)
