"""Ignore renumbering: reported pairs differ only by one consistent renaming; pure renumbering is found whole."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from modeltools import value_spans
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.linediff import diff
from pypto_ir_trace.renumber import Lines, masked, renamed, spans_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mlir"
OPS = ["arith.addi", "arith.muli", "arith.subi", "arith.maxsi"]


def run(before: list[str], after: list[str]) -> list[tuple[int, int]]:
    b_spans, a_spans = value_spans(before), value_spans(after)
    return renamed(
        Lines.of(list(map(masked, before, b_spans))), Lines.of(list(map(masked, after, a_spans))), diff(before, after)
    )


def check_exact(before: list[str], after: list[str], pairs: list[tuple[int, int]]) -> None:
    """Every pair is equal with names masked, and all pairs plus the unchanged lines fit one bijection."""
    b_spans, a_spans = value_spans(before), value_spans(after)
    forward: dict[str, str] = {}
    backward: dict[str, str] = {}

    def bind(old: str, new: str) -> None:
        assert forward.setdefault(old, new) == new, f"{old} maps to {forward[old]} and {new}"
        assert backward.setdefault(new, old) == old, f"{new} comes from {backward[new]} and {old}"

    for block in diff(before, after):
        if block.equal:
            for i in range(block.b_start, block.b_start + block.b_len):
                for name in masked(before[i], b_spans[i])[1]:
                    bind(name, name)
    changed_b = {i for d in diff(before, after) if not d.equal for i in range(d.b_start, d.b_start + d.b_len)}
    changed_a = {j for d in diff(before, after) if not d.equal for j in range(d.a_start, d.a_start + d.a_len)}
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    for i, j in pairs:
        assert i in changed_b and j in changed_a
        (b_key, b_names), (a_key, a_names) = masked(before[i], b_spans[i]), masked(after[j], a_spans[j])
        assert b_key == a_key, (before[i], after[j])
        # Outside the names, the lines are equal character for character.
        assert re.sub(r"[%^][\w$.-]+", "", before[i]) == re.sub(r"[%^][\w$.-]+", "", after[j])
        for old, new in zip(b_names, a_names):
            bind(old, new)


# A function: two arguments, then ops that each define one value from earlier ones, then a block
# that receives the last value, then the return.
op = st.tuples(st.sampled_from(OPS), st.integers(0, 1000), st.integers(0, 1000), st.sampled_from(["i32", "i64"]))


def render(ops, names, label="^bb1") -> list[str]:
    values = ["%arg0", "%arg1"]
    lines = ["func.func @f(%arg0: i32, %arg1: i32) -> i32 {"]
    for k, (name, x, y, ty) in enumerate(ops):
        result = names[k]
        lines.append(f"  {result} = {name} {values[x % len(values)]}, {values[y % len(values)]} : {ty}")
        values.append(result)
    lines.append(f"  cf.br {label}({values[-1]} : i32)")
    lines.append(f"{label}({names[len(ops)]}: i32):  // pred: ^bb0")
    lines.append(f"  return {names[len(ops)]} : i32")
    lines.append("}")
    return lines


@settings(max_examples=100, deadline=None)
@given(
    ops=st.lists(op, min_size=1, max_size=12),
    data=st.data(),
)
def test_reported_pairs_are_exact(ops, data):
    n = len(ops) + 1
    old = [f"%{k}" for k in range(n)]
    perm = data.draw(st.permutations(list(range(n + 3))))
    new = [f"%{perm[k]}" for k in range(n)]
    changed = list(ops)
    for k in data.draw(st.lists(st.integers(0, len(ops) - 1), max_size=4)):
        name, x, y, ty = changed[k]
        changed[k] = data.draw(
            st.sampled_from(
                [
                    (OPS[(OPS.index(name) + 1) % 4], x, y, ty),
                    (name, x, y + 1, ty),
                    (name, x, y, "i64" if ty == "i32" else "i32"),
                ]
            )
        )
    label = data.draw(st.sampled_from(["^bb1", "^bb2"]))
    before, after = render(ops, old), render(changed, new, label)
    check_exact(before, after, run(before, after))


@settings(max_examples=60, deadline=None)
@given(ops=st.lists(op, min_size=1, max_size=12), shift=st.integers(0, 40), data=st.data())
def test_pure_renumbering_is_fully_recognized(ops, shift, data):
    # New names are fresh: no renamed line can coincide with another line's old text, which the line
    # diff would then call unchanged (and so pin that name to itself).
    n = len(ops) + 1
    order = data.draw(st.permutations(list(range(n))))
    before = render(ops, [f"%{k}" for k in range(n)])
    after = render(ops, [f"%{n + shift + order[k]}" for k in range(n)], "^bb7")
    pairs = run(before, after)
    check_exact(before, after, pairs)
    assert pairs == [(i, i) for i in range(len(before)) if before[i] != after[i]]


def test_an_op_change_is_not_a_rename():
    before = ["func.func @f(%arg0: i32) -> i32 {", "  %0 = arith.addi %arg0, %arg0 : i32", "  return %0 : i32", "}"]
    after = ["func.func @f(%arg0: i32) -> i32 {", "  %1 = arith.muli %arg0, %arg0 : i32", "  return %1 : i32", "}"]
    assert run(before, after) == [(2, 2)]


def test_a_rename_that_conflicts_with_an_unchanged_line_is_rejected():
    # %1 keeps its name on the unchanged line 3, so %0 -> %1 on line 1 cannot be a renaming.
    before = [
        "func.func @f(%arg0: i32) -> i32 {",
        "  %0 = arith.addi %arg0, %arg0 : i32",
        "  %1 = arith.muli %0, %0 : i32",
        "  return %1 : i32",
        "}",
    ]
    after = [
        "func.func @f(%arg0: i32) -> i32 {",
        "  %1 = arith.addi %arg0, %arg0 : i32",
        "  %2 = arith.muli %1, %1 : i32",
        "  return %1 : i32",
        "}",
    ]
    pairs = run(before, after)
    check_exact(before, after, pairs)
    assert (1, 1) not in pairs


def test_a_coincidence_with_an_unchanged_line_is_never_a_wrong_rename():
    # Shifting by one makes old line 2 and new line 1 equal: the line diff pins %1 to itself, so the
    # renaming %0 -> %1 is not consistent with it; what is reported must still be exact.
    ops = [("arith.addi", 0, 0, "i32"), ("arith.addi", 0, 0, "i32")]
    before, after = render(ops, ["%0", "%1", "%2"]), render(ops, ["%1", "%2", "%3"])
    check_exact(before, after, run(before, after))


def test_a_name_inside_a_string_is_text():
    before = ['  %0 = "x.op"() {s = "%0"} : () -> i32']
    after = ['  %1 = "x.op"() {s = "%1"} : () -> i32']
    assert run(before, after) == []


def real_function() -> list[str]:
    """The largest function of a real dump, with block labels and numbered values."""
    text = (
        FIXTURES
        / "multi_func/tree_dir_no_module_scope/builtin_module_no-symbol-name/func_func_reduce_sum/2_7_convert-scf-to-cf.mlir"
    ).read_text()
    lines, _ = split_lines(text)
    return [line for line in lines[1:] if line.strip()]


def test_renumbering_a_real_function_is_fully_recognized():
    before = real_function()
    assert any("^bb" in line for line in before) and sum("%" in line for line in before) > 5
    shift = lambda m: f"%{int(m.group(1)) + 1}"
    after = [
        re.sub(r"\^bb(\d+)", lambda m: f"^bb{int(m.group(1)) + 1}", re.sub(r"%(\d+)\b", shift, line)) for line in before
    ]
    pairs = run(before, after)
    check_exact(before, after, pairs)
    assert pairs == [(i, i) for i in range(len(before)) if before[i] != after[i]]
    assert pairs


@given(
    line=st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=60),
    data=st.data(),
)
def test_the_spans_a_line_was_masked_at_are_found_again_from_its_masked_text(line, data):
    """A line of a shape read before takes that line's names at their columns (linetable.LineTable.derived): the spans
    are found again from what masked made of the line, whatever the names' lengths."""
    cuts = sorted(data.draw(st.sets(st.integers(0, len(line)), max_size=8)))
    spans = [(start, end) for start, end in zip(cuts[0::2], cuts[1::2]) if end > start]
    masked_line, names = masked(line, spans)
    assert spans_of(masked_line, names) == spans
