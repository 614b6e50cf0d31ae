"""Every query in grammars/ compiles, and the code only relies on capture names the queries define."""

from __future__ import annotations

from importlib import resources

import pytest

from pypto_ir_trace import grammar, highlight


@pytest.mark.parametrize("name", grammar.query_names())
def test_query_compiles(name):
    query = grammar.query(name)
    assert query.pattern_count > 0


def test_the_queries_the_code_needs_exist():
    assert {"regions", "highlights"} <= set(grammar.query_names())


def test_region_capture_names():
    query = grammar.query("regions")
    names = {query.capture_name(i) for i in range(query.capture_count)}
    assert names == {"function", "function.name", "class", "class.name", "method", "method.name"}


def test_highlight_classes_are_styled():
    css = resources.files("pypto_ir_trace").joinpath("static", "viewer.css").read_text(encoding="utf-8")
    for name in highlight.classes():
        assert f".hl-{name}" in css, f"highlight capture @{name} has no CSS class"
