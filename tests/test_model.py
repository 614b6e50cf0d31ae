"""The report model on real dumps: exact texts, the functions the program defines, counts that add up."""

from __future__ import annotations

import ast
from dataclasses import replace
from itertools import accumulate

import pytest

from dumptools import CONCISE, FIXTURES, PROGRAM, REAL
from modeltools import build, lines_read, load_dump, not_rebuilt, regions, source, text_ids, with_and_without_shapes
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.formats import FORMATS, pypto

REAL_DUMPS = sorted(REAL.glob("*/passes_dump"))
MLIR_TREE = FIXTURES / "mlir" / "multi_func" / "tree_dir"


def defined_functions(text: str) -> list[list]:
    """What the printed program defines, by Python's own parser: [key, kind, start, end] (0-based, end exclusive)."""
    found = []

    def add(node, key, kind):
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        found.append([key, kind, first - 1, node.end_lineno])

    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            add(node, node.name, "function")
        elif isinstance(node, ast.ClassDef):
            for member in node.body:
                if isinstance(member, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    add(member, f"{node.name}.{member.name}", "method")
    return sorted(found, key=lambda r: r[2])


def lcs_edits(a: list[str], b: list[str]) -> tuple[int, int]:
    """Minimal (inserted, deleted) by dynamic programming: the oracle for a matched function."""
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0]
        for j, y in enumerate(b):
            current.append(previous[j] + 1 if x == y else max(previous[j + 1], current[j]))
        previous = current
    common = previous[-1]
    return len(b) - common, len(a) - common


@pytest.fixture(scope="module", params=REAL_DUMPS, ids=lambda p: p.parent.name)
def real(request):
    dump = load_dump(request.param)
    return dump, build(dump, context=3)


def test_every_snapshot_is_rebuilt_exactly_from_the_model(real):
    dump, data = real
    assert not_rebuilt(data, dump) == []


def test_distinct_texts_are_stored_once_and_no_op_passes_store_nothing(real):
    dump, data = real
    assert len(data["texts"]) == len({s.text for s in dump.snapshots})
    for number, p in enumerate(data["passes"], 1):
        same = dump.snapshots[number].text == dump.snapshots[number - 1].text
        assert (p["before"] == p["after"]) == same
        if same:
            assert (p["inserted"], p["deleted"]) == (0, 0) and "pieces" not in p


def test_functions_match_what_the_program_defines(real):
    dump, data = real
    for snapshot in dump.snapshots:
        t = next(i for i, entry in enumerate(data["texts"]) if source(data, i) == snapshot.text)
        assert regions(data["texts"][t]) == defined_functions(snapshot.text), snapshot.filename
        assert "untrusted" not in data["texts"][t]


def test_counts_add_up_and_matched_functions_diff_minimally(real):
    dump, data = real
    for number, p in enumerate(data["passes"], 1):
        before, _ = split_lines(dump.snapshots[number - 1].text)
        after, _ = split_lines(dump.snapshots[number].text)
        assert p["inserted"] - p["deleted"] == len(after) - len(before)
        if "pieces" not in p:
            continue
        assert sum(piece["inserted"] for piece in p["pieces"]) == p["inserted"]
        assert sum(piece["deleted"] for piece in p["pieces"]) == p["deleted"]
        old = {r[0]: r for r in regions(data["texts"][p["before"]])}
        new = {r[0]: r for r in regions(data["texts"][p["after"]])}
        # Pairs by name, and by content (a split's best match: beforeKey); a namesake whose before region went
        # to a content pair is inserted whole.
        by_content = {piece["key"]: piece["beforeKey"] for piece in p["pieces"] if "beforeKey" in piece}
        taken = set(by_content.values())
        pairs = [(key, key) for key in old.keys() & new.keys() if key not in taken] + [
            (old_key, key) for key, old_key in by_content.items()
        ]
        for old_key, key in pairs:
            expected = lcs_edits(before[old[old_key][2] : old[old_key][3]], after[new[key][2] : new[key][3]])
            assert tuple(p["byRegion"].get(key, (0, 0))) == expected, (p["file"], key)
        for key in taken & new.keys():
            assert tuple(p["byRegion"][key]) == (new[key][3] - new[key][2], 0), (p["file"], key)


def test_aborted_pipeline_renders_the_passes_it_has():
    dump = load_dump(REAL / "models_03_flash_attention_concise" / "passes_dump")
    data = build(dump, context=3)
    assert len(data["passes"]) == 34
    assert data["passes"][-1]["file"] == "34_after_MemoryReuse.py"


def test_repeated_pass_names_stay_distinct_entries():
    data = build(load_dump(REAL / "advanced_01_split_k_concise" / "passes_dump"), context=3)
    simplify = [p["label"] for p in data["passes"] if p["name"] == "Simplify"]
    assert simplify == ["05", "45"]


def test_model_is_deterministic():
    path = REAL / "advanced_01_split_k_explicit" / "passes_dump"
    assert build(load_dump(path), 3) == build(load_dump(path), 3)


def test_lines_are_interned_once(make_dump):
    dump = load_dump(make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM.replace("t, [0]", "t, [1]")}))
    data = build(dump, 3)
    assert len(data["lines"]) == len(set(data["lines"]))
    assert len(data["lines"]) == len(set(PROGRAM.splitlines())) + 1


def test_all_real_dumps_render_exactly(real_dumps):
    dumps = sorted(real_dumps.glob("*/passes_dump"))
    assert len(dumps) == 256
    for path in dumps:
        dump = load_dump(path)
        data = build(dump, 3)
        assert data["level"] == path.parent.name.rsplit("_", 1)[1].upper(), path
        cache: dict = {}
        last = data["passes"][-1]["after"] if data["passes"] else 0
        assert source(data, last, cache) == dump.snapshots[-1].text, path
        for p in data["passes"]:
            assert p["inserted"] - p["deleted"] == len(text_ids(data, p["after"], cache)) - len(
                text_ids(data, p["before"], cache)
            )


def test_warnings_are_anchored_to_the_lines_they_name(make_dump):
    log = (
        "01_after_A.py:9:9: warning: variable 'c' is reassigned\n"
        "passes_dump/01_after_A.py:2:1: note: with a directory\n"
        "00_frontend.py:3:1: warning: another file\n"
        "free text without a place\n"
        "01_after_A.py:0:0: warning: no such line\n"
    )
    dump = load_dump(make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "# x\n", "01_after_A.log": log}))
    entry = build(dump, 3)["passes"][0]
    assert entry["warnings"] == log
    assert entry["anchors"] == [
        {"logLine": 0, "line": 8, "message": "warning: variable 'c' is reassigned"},
        {"logLine": 1, "line": 1, "message": "note: with a directory"},
    ]
    assert "errorLines" not in entry  # no error among them


def test_a_logs_errors_are_told_from_its_warnings(make_dump):
    log = "01_after_A.py:2:1: error: broken\n  detail, error: not a diagnostic\n01_after_A.py:1:1: warning: odd\n"
    dump = load_dump(make_dump({"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "# x\n", "01_after_A.log": log}))
    assert build(dump, 3)["passes"][0]["errorLines"] == [0]


@pytest.mark.parametrize(
    "name, level", [("advanced_01_split_k_concise", "CONCISE"), ("advanced_01_split_k_explicit", "EXPLICIT")]
)
def test_the_dump_level_is_read_from_what_the_snapshots_print(name, level):
    assert build(load_dump(REAL / name / "passes_dump"))["level"] == level


def test_no_level_when_the_program_shows_none(make_dump):
    assert "level" not in build(load_dump(make_dump({"00_frontend.py": "x = 1\n", "01_after_A.py": "x = 2\n"})))


@pytest.mark.parametrize("passes", [0, 1, 3])
def test_the_level_is_read_when_no_pass_changes_the_text(make_dump, passes):
    """A dump whose passes are all no-ops (or that holds only its input) still says its level and its
    implicit lines: every snapshot is read, diffed or not."""
    text = "t: pl.Tile[[64], pl.FP32] = f()\n"
    files = {"00_frontend.py": text, **{f"{i:02d}_after_P{i}.py": text for i in range(1, passes + 1)}}
    data = build(load_dump(make_dump(files)))
    assert data["level"] == "CONCISE" and implicit_lines(data) == [text.rstrip("\n")]


def implicit_lines(data: dict) -> list[str]:
    """The lines the model flags as naming a type CONCISE prints without its layout (stored as gaps)."""
    return [data["lines"][i] for i in accumulate(data.get("implicit", []))]


def test_a_concise_dump_flags_the_lines_that_name_tile_types(make_dump):
    comment = "    # pl.Tile[[64], pl.FP32] in a comment names no type\n"
    data = build(
        load_dump(make_dump({**CONCISE, "03_after_Note.py": CONCISE["02_after_InferTileMemorySpace.py"] + comment}))
    )
    assert data["level"] == "CONCISE"
    tiles = [line for line in data["lines"] if "pl.Tile[" in line and "#" not in line]
    assert len(tiles) == 2 and implicit_lines(data) == tiles  # read from the tree: not the comment


def test_lines_naming_tile_types_alike_but_for_their_memref_share_a_type_class(make_dump):
    """What CONCISE hides (a layout) follows a tile's type, not where it is placed: an address or buffer change
    keeps the class, a dtype or memory space change does not (the viewer's advice compares classes)."""
    memref = "pl.MemRef(mem_vec_0, pl.const({}, pl.INT64), 256)"
    lines = [
        f"a: pl.Tile[[64], pl.FP32, {memref.format(0)}, pl.Mem.Vec] = f()",
        f"a: pl.Tile[[64], pl.FP32, {memref.format(256)}, pl.Mem.Vec] = f()",
        "a: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = f()",
        "b: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = g(a)",
        f"a: pl.Tile[[64], pl.FP16, {memref.format(0)}, pl.Mem.Vec] = f()",
        f"a: pl.Tile[[64], pl.FP32, {memref.format(0)}, pl.Mem.Mat] = f()",
    ]
    files = {
        "00_frontend.py": lines[0] + "\n",
        **{f"{i:02d}_after_P.py": line + "\n" for i, line in enumerate(lines) if i},
    }
    data = build(load_dump(make_dump(files)))
    classes = dict(zip(implicit_lines(data), data["implicitTypes"], strict=True))
    assert [classes[line] for line in lines] == [0, 0, 0, 0, 1, 2]


def test_only_a_concise_dump_carries_implicit_lines(make_dump):
    explicit = "t: pl.Tile[[64], pl.FP32, pl.TileView(fractal=512)] = f()\n"
    data = build(load_dump(make_dump({"00_frontend.py": explicit, "01_after_A.py": explicit + "u = t\n"})))
    assert data["level"] == "EXPLICIT" and "implicit" not in data and "implicitTypes" not in data


@pytest.mark.parametrize(
    "path, label, name",
    [(REAL / "advanced_01_split_k_concise", "00", "frontend"), (MLIR_TREE, "0", "(input not dumped)")],
)
def test_each_pipeline_names_its_input_as_its_format_does(path, label, name):
    data = build(load_dump(path))
    assert (data["input"]["label"], data["input"]["name"]) == (label, name)


def test_what_the_page_says_of_the_level_is_the_format_records(make_dump, monkeypatch):
    """The badge's words and the advice come from the record, the input's name from the format's reader (the viewer
    names no format); none without a level."""
    record = FORMATS["pypto"]
    assert record.level is not None
    level = replace(record.level, title=lambda level: f"printed at {level}", advice=lambda level: f"not {level}")
    monkeypatch.setitem(FORMATS, "pypto", replace(record, level=level))
    monkeypatch.setattr(pypto, "INPUT_NAME", "the start")
    data = build(load_dump(make_dump(CONCISE)))
    assert (data["input"]["name"], data["levelTitle"], data["advice"]) == (
        "the start",
        "printed at CONCISE",
        "not CONCISE",
    )
    plain = build(load_dump(make_dump({"00_frontend.py": "x = 1\n", "01_after_A.py": "x = 2\n"}, "plain")))
    assert not {"level", "levelTitle", "advice"} & set(plain)


def test_a_text_first_met_as_an_explicit_base_is_rebuilt_without_a_cycle():
    """An MLIR local dump whose pass left its op alone equals the base text cut for it, so no pass produces
    that text then. When a later pass returns to it (B -> A after A -> B), it must not become that pass's
    product: B is rebuilt from A, so A from B would be a cycle no reader can unwind."""
    from pypto_ir_trace.dump import Dump, Packed, Snapshot

    a = "func.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i32\n}\n"
    b = "func.func @f(%arg0: i32) -> i32 {\n  %0 = arith.addi %arg0, %arg0 : i32\n  return %0 : i32\n}\n"
    snapshots = (
        Snapshot(0, "0", "input", "input", "", None),
        Snapshot(1, "1", "canonicalize", "1", a, None, based_on=Packed.of(a)),
        Snapshot(2, "2", "cse", "2", b, None),
        Snapshot(3, "3", "canonicalize", "3", a, None),
    )
    data = build(Dump("t", snapshots, format="mlir-tree"))
    assert [source(data, p["after"]) for p in data["passes"]] == [a, b, a]
    assert [source(data, p["before"]) for p in data["passes"]] == [a, a, b]


def _spans_by_line(data: dict) -> dict[str, list[int]]:
    return {line: data["spans"][data["lineSpans"][i]] for i, line in enumerate(data["lines"])}


@pytest.mark.parametrize("indent", [4, 8])
def test_a_line_met_again_at_another_indent_is_highlighted_as_its_own_tree_says(make_dump, indent):
    """A pass that nests the program one level deeper (or less) prints every line again at another indent: those
    lines take the facts of the lines they were, columns moved (linetable.LineTable), and are highlighted exactly as
    a report of the nested program alone highlights them."""
    nested = "\n".join((" " * indent + line if line.strip() else line) for line in PROGRAM.split("\n"))
    nested = nested.replace(" " * indent + "@pl.program", "class outer:\n" + " " * indent + "@pl.program", 1)
    # The nested text is read after the first two are (a text is read while the pass before it is diffed)
    steps = {"00_frontend.py": PROGRAM, "01_after_A.py": PROGRAM + "\n# a\n", "02_after_B.py": PROGRAM + "\n# b\n"}
    both = _spans_by_line(build(load_dump(make_dump({**steps, "03_after_Nest.py": nested}))))
    alone = _spans_by_line(build(load_dump(make_dump({"00_frontend.py": nested}, name="alone"))))
    moved = [line for line in nested.split("\n") if line.strip() and line not in PROGRAM.split("\n")]
    assert len(moved) > 10
    assert {line: both[line] for line in moved} == {line: alone[line] for line in moved}
    assert any(both[line] for line in moved)  # highlighted, not merely equal


def test_an_op_whose_name_differs_from_one_read_before_by_its_digits_is_counted_by_its_own_name():
    """A line of a shape read before takes that line's facts (linetable.LineTable.derived), but not names it keeps as
    text: a pass that turns `foo.op1` into `foo.op2` counts one of each, not no change."""
    from pypto_ir_trace.dump import Dump, Snapshot

    a = 'func.func @f(%arg0: i32) -> i32 {\n  %0 = "foo.op1"(%arg0) : (i32) -> i32\n  return %0 : i32\n}\n'
    b = a.replace("foo.op1", "foo.op2")
    snapshots = (Snapshot(0, "0", "input", "input", a, None), Snapshot(1, "1", "rewrite", "1", b, None))
    data = build(Dump("t", snapshots, format="mlir-tree"))
    assert data["passes"][0]["ops"] == [["foo.op1", -1], ["foo.op2", 1]]


def test_a_renumbered_line_is_highlighted_and_named_as_its_own_tree_says():
    """A pass that renumbers values prints lines of shapes read before (`%7` for `%1`): each takes the facts of a
    line of its shape, its names its own (the renamed pairs of `Ignore renumbering`), as a report of that text
    alone reads them."""
    from pypto_ir_trace.dump import Dump, Snapshot

    a = "func.func @f(%arg0: i32) -> i32 {\n  %1 = arith.addi %arg0, %arg0 : i32\n  return %1 : i32\n}\n"
    b = a.replace("%1", "%7").replace("  %7 = arith", "  %6 = arith.muli %arg0, %arg0 : i32\n  %7 = arith")
    both = build(
        Dump(
            "t", (Snapshot(0, "0", "input", "input", a, None), Snapshot(1, "1", "p", "1", b, None)), format="mlir-tree"
        )
    )
    alone = build(Dump("t", (Snapshot(0, "0", "input", "input", b, None),), format="mlir-tree"))
    renumbered = "  return %7 : i32"
    assert _spans_by_line(both)[renumbered] == _spans_by_line(alone)[renumbered] != []
    assert both["passes"][0]["renamed"]  # `return %1` -> `return %7`: one name for another


@pytest.mark.parametrize("broken", [False, True])
def test_a_line_takes_the_facts_of_its_shape_only_from_a_tree_without_errors(broken, monkeypatch):
    """A line of the shape of one read before is not read again (linetable.LineTable.derived), unless that one was read
    from a tree with syntax errors: tree-sitter's recovery may have misread it (IREE mlp: an op line after custom
    assembly lost its op), and its misreading would spread to lines it never touched."""
    from pypto_ir_trace.dump import Dump, Snapshot

    rows_read = lines_read(monkeypatch)
    line = "  %{n} = arith.muli %c1, %c1 : index"
    error = ["  %9 = hal.interface.binding.subspan layout(#layout) binding(0) : memref<?xf32>{%c1}"]  # custom assembly
    a = ["func.func @f() {", "  %c1 = arith.constant 1 : index", *(error if broken else []), line.format(n=4), "}", ""]
    b = ["func.func @f() {", "  %c1 = arith.constant 1 : index", line.format(n=5), "}", ""]
    texts = ("\n".join(a), "\n".join(b))
    build(
        Dump(
            "t",
            (Snapshot(0, "0", "in", "in", texts[0], None), Snapshot(1, "1", "p", "1", texts[1], None)),
            format="mlir-tree",
        )
    )
    assert (line.format(n=5) in rows_read) == broken


@pytest.mark.parametrize("path", REAL_DUMPS, ids=lambda p: p.parent.name)
def test_a_python_line_of_a_shape_read_before_takes_its_facts_as_its_own_tree_gives_them(path, monkeypatch):
    """A pass that renumbers values (`tile__ssa_v12` for `tile__ssa_v11`) prints lines that differ from lines read
    before only by their digits: they take those lines' facts (linetable.LineTable.derived), fewer lines are read
    from trees, and the model is the one that reads every new line from its tree: highlighting, elisions, ops,
    dump-level marks and the tile types CONCISE hides."""
    dump = load_dump(path)
    derived, derived_read, read, all_read = with_and_without_shapes(monkeypatch, lambda: build(dump))
    assert derived == read
    assert derived_read < all_read


def test_a_line_of_a_shape_read_before_keeps_its_own_tile_type(make_dump):
    """A line of the shape of one read before takes its facts but for a dump-level key its digits change: a value
    renumbered names the same tile type (one type class), a tile of another shape names another."""
    lines = [
        "a1: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = f(b1)",
        "a2: pl.Tile[[64], pl.FP32, pl.Mem.Vec] = f(b3)",  # renumbered values: the same type
        "a4: pl.Tile[[32], pl.FP32, pl.Mem.Vec] = f(b5)",  # another tile shape: another type
    ]
    files = {
        "00_frontend.py": lines[0] + "\n",
        **{f"{i:02d}_after_P.py": line + "\n" for i, line in enumerate(lines) if i},
    }
    data = build(load_dump(make_dump(files)))
    classes = dict(zip(implicit_lines(data), data["implicitTypes"], strict=True))
    assert [classes[line] for line in lines] == [0, 0, 1]
