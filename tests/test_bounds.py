"""Inputs that grow without bound: nesting past the bounds still renders exactly, and says where it was bounded."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from modeltools import build, load_dump, source
from pypto_ir_trace.languages import mlir
from pypto_ir_trace.structure import MAX_NESTING, shallow

HEADER = "// -----// IR Dump After {} ({}) ('builtin.module' operation) //----- //\n"
DEEP = 2_000  # brackets, far past MAX_NESTING


def mlir_tree(root: Path, modules: list[str]) -> Path:
    """A tree dump of whole-module snapshots, one module pass each."""
    folder = root / "builtin_module_no-symbol-name"
    folder.mkdir(parents=True)
    passes = [("canonicalize", "Canonicalizer"), ("cse", "CSE"), ("inline", "Inliner")]
    for k, (text, (arg, name)) in enumerate(zip(modules, passes)):
        (folder / f"{k}_{arg}.mlir").write_text(HEADER.format(name, arg) + text, encoding="utf-8")
    return root


def nested_attribute(value: int, depth: int = DEEP) -> str:
    deep = "[" * depth + str(value) + "]" * depth
    return (
        "module {\n"
        "  func.func @deep() -> i32 {\n"
        f'    %0 = arith.constant {{deep = {deep}, note = "é"}} : i32\n'
        "    return %0 : i32\n"
        "  }\n"
        "  func.func @plain() -> i32 {\n"
        f"    %0 = arith.constant {value} : i32\n"
        "    return %0 : i32\n"
        "  }\n"
        "}\n"
    )


def rebuilt(dump, data) -> list[tuple[str, str]]:
    """(rebuilt, original) text of each snapshot."""
    cache: dict = {}
    texts = [source(data, 0, cache)] + [source(data, p["after"], cache) for p in data["passes"]]
    return [(text, snapshot.text) for text, snapshot in zip(texts, dump.snapshots)]


def errors(data, t: int) -> dict[str, str | None]:
    return {r["key"]: r.get("error") for r in data["texts"][t]["regions"]}


def test_deep_brackets_in_mlir_render_exactly_and_the_function_says_so(tmp_path):
    dump = load_dump(mlir_tree(tmp_path, [nested_attribute(1), nested_attribute(2)]))
    data = build(dump)
    assert all(text == original for text, original in rebuilt(dump, data))
    found = errors(data, data["passes"][-1]["after"])
    assert found["@plain"] is None
    assert found["@deep"] == f"line 3 nests brackets deeper than {MAX_NESTING}: read only to that depth"


def test_deep_brackets_in_a_python_snapshot_render_exactly_and_the_function_says_so(make_dump):
    def program(value: int) -> str:
        deep = "[" * DEEP + str(value) + "]" * DEEP
        return f"@pl.program\nclass P:\n    def f(self):\n        return {deep}\n\n    def g(self):\n        return {value}\n"

    dump = load_dump(make_dump({"00_frontend.py": program(1), "01_after_Simplify.py": program(2)}))
    data = build(dump)
    assert all(text == original for text, original in rebuilt(dump, data))
    found = errors(data, data["passes"][-1]["after"])
    assert found == {"P.f": f"line 4 nests brackets deeper than {MAX_NESTING}: read only to that depth", "P.g": None}


def nested_modules(depth: int) -> str:
    opening = "".join(f"module @m{k} {{\n" for k in range(depth))
    return (
        "module {\n  func.func @shallow() {\n    return\n  }\n"
        + opening
        + "func.func @buried() {\n  return\n}\n"
        + "}\n" * depth
        + "}\n"
    )


def test_a_function_nested_past_the_depth_bound_stays_in_the_lines_around_it(tmp_path, monkeypatch):
    monkeypatch.setattr(mlir, "MAX_FUNCTION_DEPTH", 40)
    dump = load_dump(mlir_tree(tmp_path, [nested_modules(2), nested_modules(60)]))
    data = build(dump)
    assert all(text == original for text, original in rebuilt(dump, data))
    first, last = (p["after"] for p in data["passes"])
    assert list(errors(data, first)) == ["@shallow", "m0::m1::@buried"]
    assert list(errors(data, last)) == ["@shallow"]


@given(st.integers(0, 600), st.text(alphabet="([{}])xé\0 ", max_size=300), st.integers(0, 600))
def test_shallow_keeps_every_byte_column_and_blanks_only_past_the_bound(opened, middle, closed):
    line = "(" * opened + middle + "]" * closed
    seen = shallow(line)
    assert len(seen.encode("utf-8")) == len(line.encode("utf-8"))
    assert shallow(seen) == seen
    if sum(line.count(c) for c in "([{") <= MAX_NESTING:
        assert seen == line
    assert seen[: min(opened, MAX_NESTING + 1)] == line[: min(opened, MAX_NESTING + 1)]
    if line.isascii():
        assert all(c == d or c == " " for c, d in zip(seen, line))
