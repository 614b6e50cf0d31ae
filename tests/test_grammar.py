"""Every query of every language compiles, and the code only relies on capture names the queries define."""

from __future__ import annotations

from importlib import resources

import pytest

from pypto_ir_trace import grammar, highlight
from pypto_ir_trace.languages import LANGUAGES, PYTHON

TREES = {name: language for name, language in LANGUAGES.items() if language.grammar is not None}  # read by queries
ALL_QUERIES = [(language, name) for language in LANGUAGES.values() for name in grammar.query_names(language.name)]


@pytest.mark.parametrize("language, name", ALL_QUERIES, ids=[f"{lang.name}/{name}" for lang, name in ALL_QUERIES])
def test_query_compiles(language, name):
    query = grammar.query(language.grammar, language.name, name)
    assert query.pattern_count > 0


@pytest.mark.parametrize("language, name", ALL_QUERIES, ids=[f"{lang.name}/{name}" for lang, name in ALL_QUERIES])
def test_a_querys_capture_names_read_from_its_file_are_those_tree_sitter_numbers(language, name):
    query = grammar.query(language.grammar, language.name, name)
    assert grammar.capture_names(language.name, name) == tuple(
        query.capture_name(i) for i in range(query.capture_count)
    )


def test_capture_names_skip_comments_and_strings_and_keep_dotted_names(tmp_path, monkeypatch):
    (tmp_path / "q.scm").write_text(
        '; a comment naming @not_this\n(decorator "@" @decorator)\n((string) @s.inner (#match? @s.inner "^\\"@x"))\n'
        "(identifier) @decorator\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(grammar, "grammar_dir", lambda language: tmp_path)
    assert grammar.capture_names.__wrapped__("any", "q") == ("decorator", "s.inner")


@pytest.mark.parametrize("language", TREES.values(), ids=list(TREES))
def test_every_language_has_the_queries_the_code_needs(language):
    assert {"regions", "highlights"} <= set(grammar.query_names(language.name))


def test_python_region_capture_names():
    query = grammar.query(PYTHON.grammar, "python", "regions")
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert names == {"function", "function.name", "class", "class.name", "method", "method.name"}


def test_highlight_classes_are_styled():
    css = resources.files("pypto_ir_trace").joinpath("static", "viewer.css").read_text(encoding="utf-8")
    for name in highlight.classes():
        assert f".hl-{name}" in css, f"highlight capture @{name} has no CSS class"


@pytest.mark.parametrize("language", TREES.values(), ids=list(TREES))
def test_a_language_names_its_ops_with_one_capture(language):
    assert language.ops == ("ops" in grammar.query_names(language.name))
    if language.ops:  # opcounts.py reads @op; names starting with _ are the query's own predicates
        query = grammar.query(language.grammar, language.name, "ops")
        names = {query.capture_name(i) for i in range(query.capture_count)}
        assert "op" in names and all(name == "op" or name.startswith("_") for name in names)
