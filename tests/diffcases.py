"""Generated cases for the Python/JS diff agreement, and Python's answers in the JS shapes.

linediff.py / compare.py and their ports static/linediff.js / compare.js follow one specification;
test_diff_node.py (Node, every example) and browser/test_diff_agreement.py (the page) hold the ports to it
with what is here: `check_blocks` and `check_passes` take the JS side as a function of a batch of cases.
"""

from __future__ import annotations

from functools import cache

from hypothesis import event
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from dumptools import REAL
from modeltools import apply
from pypto_ir_trace import compare, linediff, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.languages import PYTHON

SMALL_CAP = st.integers(0, 3000).map(lambda cost: {"myers_max_cost": cost})
ANY_LIMITS = st.one_of(st.just(linediff.LIMITS), SMALL_CAP)


# ---- Python's answers, in the JS shapes --------------------------------------------------------------


def python_blocks(b, a, limits) -> list[list]:
    return [list(block) for block in linediff.diff(b, a, limits)]


def as_structure(text: dict) -> structure.Structure:
    regions = tuple(
        structure.Region(r["key"], r["kind"], r["start"], r["end"], r["start"], r["error"]) for r in text["regions"]
    )
    return structure.Structure(regions, not text["untrusted"], text["untrusted"])


def python_pass(b_ids, b_text, a_ids, a_text, limits) -> dict:
    """compare.diff_pass as compareIds returns it."""
    result = compare.diff_pass(b_ids, as_structure(b_text), a_ids, as_structure(a_text), limits)
    return {
        "pieces": [_piece(p) for p in result.pieces],
        "insertedIds": result.inserted_ids,
        "inserted": result.inserted,
        "deleted": result.deleted,
        "byRegion": {key: list(counts) for key, counts in result.by_region.items()},
    }


def _piece(piece: compare.Piece) -> dict:
    found = {"key": piece.key, "inserted": piece.inserted, "deleted": piece.deleted, "segments": piece.segments}
    if piece.before_key is not None:
        found["beforeKey"] = piece.before_key
    return found


def check_blocks(js_diff, cases) -> None:
    """js_diff(cases) -> IRTraceLinediff.diff(b, a, limits) of each case [b, a, limits] (before, after)."""
    for (b, a, limits), got in zip(cases, js_diff(cases), strict=True):
        expected = python_blocks(b, a, limits)
        assert got == expected, (b, a, limits)
        if limits != linediff.LIMITS and expected != python_blocks(b, a, linediff.LIMITS):
            event("line diff: the reduced cap gave up somewhere")


def check_passes(js_compare, cases) -> list[dict]:
    """js_compare(cases) -> IRTraceCompare.compareIds(...) of each case [b_ids, b_text, a_ids, a_text, limits]."""
    results = js_compare(cases)
    for case, got in zip(cases, results, strict=True):
        assert got == python_pass(*case), case
        if currently_in_test_context() and any("beforeKey" in piece for piece in got["pieces"]):
            event("pass: regions paired by content")
        assert apply(case[0], compare_result(got)) == case[2]  # and it rebuilds the after side
    return results


def compare_result(got: dict) -> compare.PassDiff:
    pieces = [compare.Piece(p["key"], p["segments"], p["inserted"], p["deleted"]) for p in got["pieces"]]
    return compare.PassDiff(pieces, got["insertedIds"], got["inserted"], got["deleted"], {})


# ---- generated line sequences ---------------------------------------------------------------------------


@cache
def real_lines() -> tuple[tuple[str, ...], ...]:
    """The lines of a few real snapshots: realistic repetition (blank lines, `return`, closing brackets)."""
    files = sorted((REAL / "models_03_flash_attention_concise" / "passes_dump").glob("*.py"))
    picked = (files[0], files[len(files) // 2], files[-1])
    return tuple(tuple(split_lines(f.read_text(encoding="utf-8"))[0]) for f in picked)


def small_alphabet(size: int = 40):
    return st.lists(st.integers(0, 2), max_size=size)


@st.composite
def repetition(draw):
    """A short pattern repeated, against another repeated pattern: little or nothing is unique."""

    def repeated():
        pattern = draw(st.lists(st.integers(0, 4), min_size=1, max_size=4))
        return pattern * draw(st.integers(0, 15))

    return repeated(), repeated()


@st.composite
def long_runs(draw):
    def runs_of():
        spans = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 25)), max_size=6))
        return [item for item, n in spans for _ in range(n)]

    return runs_of(), runs_of()


@st.composite
def edited(draw, lines, items=None):
    """Random inserts (of real lines, or of `items`), deletes, duplications and moves on a list of lines."""
    items = st.sampled_from(real_lines()[-1]) if items is None else items
    lines = list(lines)
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["insert", "delete", "move", "duplicate"]))
        at = draw(st.integers(0, len(lines)))
        n = draw(st.integers(1, 12))
        if op == "insert":
            lines[at:at] = draw(st.lists(items, min_size=1, max_size=n))
        elif op == "delete":
            del lines[at : at + n]
        elif op == "duplicate":
            lines[at:at] = lines[at : at + n]
        else:
            block = lines[at : at + n]
            del lines[at : at + n]
            to = draw(st.integers(0, len(lines)))
            lines[to:to] = block
    return lines


@st.composite
def real_edits(draw):
    snapshot = draw(st.sampled_from(real_lines()))
    start = draw(st.integers(0, len(snapshot)))
    b = list(snapshot[start : start + draw(st.integers(0, 150))])
    return b, draw(edited(b))


@st.composite
def empty_side(draw):
    other = draw(st.one_of(small_alphabet(), real_edits().map(lambda pair: pair[1])))
    return ([], other) if draw(st.booleans()) else (other, [])


@st.composite
def prefix(draw):
    longer = draw(st.one_of(small_alphabet(), real_edits().map(lambda pair: pair[0])))
    shorter = longer[: draw(st.integers(0, len(longer)))]
    return (shorter, longer) if draw(st.booleans()) else (longer, shorter)


@st.composite
def costly(draw):
    """Long anchorless gaps (two or three distinct items) and a cap at the edge of what Myers needs for them:
    one step less and it gives up, so an off-by-one in either implementation's cap shows."""
    b = draw(st.lists(st.integers(0, 2), min_size=50, max_size=300))
    a = draw(st.one_of(st.lists(st.integers(0, 2), min_size=50, max_size=300), edited(b, st.integers(0, 2))))
    gap = len(b) + len(a) - 2 * sum(common_ends(b, a))
    needed = sum(x.b_len + x.a_len for x in linediff.diff(b, a) if not x.equal)  # Myers' D when no anchor
    cost = draw(st.sampled_from([needed * gap - 1, needed * gap, (needed - 1) * gap, (needed + 1) * gap - 1]))
    return b, a, {"myers_max_cost": max(cost, 0)}


def common_ends(b, a) -> tuple[int, int]:
    """Common prefix then common suffix of the rest, as step 1 of the specification trims them."""
    p = 0
    while p < min(len(b), len(a)) and b[p] == a[p]:
        p += 1
    s = 0
    while s < min(len(b), len(a)) - p and b[-1 - s] == a[-1 - s]:
        s += 1
    return p, s


# Items compare with == in Python and === in JS: an int is never its string, and strings compare by code
# points (valid text only: lines come from UTF-8 files, so no lone surrogates).
ITEMS = [0, 1, "1", "", " ", "é", "e\u0301", "𝔣", "\u2028", "a\x00", "\u202e", "return"]


SHAPES = {
    "small alphabet": st.tuples(small_alphabet(), small_alphabet()),
    "repetition": repetition(),
    "long runs": long_runs(),
    "real lines edited": real_edits(),
    "empty side": empty_side(),
    "prefix": prefix(),
    "costly, cap at the edge": costly(),
    "ints and odd strings": st.tuples(*[st.lists(st.sampled_from(ITEMS), max_size=30)] * 2),
}


def with_limits(name):
    """Cases of one shape; those that bring no limits of their own get the report's or a small cap."""

    def complete(case):
        return st.just(case) if len(case) == 3 else st.tuples(*map(st.just, case), ANY_LIMITS)

    return SHAPES[name].flatmap(complete)


# Every batch holds a few cases of every shape.
line_batches = st.tuples(*(st.lists(with_limits(name), min_size=2, max_size=6) for name in SHAPES)).map(
    lambda groups: [case for group in groups for case in group]
)


# ---- generated texts with regions -------------------------------------------------------------------------

KEYS = ["P.a", "P.b", "P.c", "f", "g", "h", "f_aic", "f_aiv", "P.r"]


@st.composite
def chunks(draw):
    """A text as chunks: ("line", id) outside lines and (key, [ids]) regions with distinct keys."""
    keys = iter(draw(st.permutations(KEYS)))
    out = []
    for _ in range(draw(st.integers(0, 7))):
        if draw(st.booleans()):
            out += [("line", i) for i in draw(st.lists(st.integers(0, 6), min_size=1, max_size=4))]
        else:
            key = next(keys, None)
            if key is not None:
                out.append((key, draw(st.lists(st.integers(0, 9), min_size=1, max_size=12))))
    return out


@st.composite
def edited_chunks(draw, before):
    """After chunks: regions moved, edited, renamed, split, dropped or added; outside lines edited."""
    after = list(before)
    for _ in range(draw(st.integers(0, 5))):
        op = draw(st.sampled_from(["move", "edit body", "drop", "add", "outside", "rename", "split"]))
        at = draw(st.integers(0, len(after)))
        regions = [k for k, chunk in enumerate(after) if chunk[0] != "line"]
        fresh = [key for key in KEYS if key not in {chunk[0] for chunk in after}]
        if op == "move" and after:
            chunk = after.pop(min(at, len(after) - 1))
            after.insert(draw(st.integers(0, len(after))), chunk)
        elif op == "edit body" and regions:
            k = draw(st.sampled_from(regions))
            body = draw(edited(after[k][1], st.integers(0, 9)))
            after[k] = (after[k][0], body or [0])
        elif op == "drop" and after:
            del after[min(at, len(after) - 1)]
        elif op == "add" and fresh:
            body = draw(st.lists(st.integers(0, 9), min_size=1, max_size=8))
            after.insert(at, (draw(st.sampled_from(fresh)), body))
        elif op in ("rename", "split") and regions and fresh:
            k = draw(st.sampled_from(regions))
            after[k : k + 1] = draw(renamed(after[k], fresh) if op == "rename" else split(after[k], fresh))
        elif op == "outside":
            after.insert(at, ("line", draw(st.integers(0, 6))))
    return after


HEADERS = st.integers(10, 19)  # a region's first line (its def line) under another name: 110..119


@st.composite
def renamed(draw, chunk, fresh):
    """The region under a fresh key, its first line changed (or not), its body kept."""
    body = chunk[1]
    header = [draw(HEADERS)] if draw(st.booleans()) else body[:1]
    return [(draw(st.sampled_from(fresh)), header + body[1:])]


@st.composite
def split(draw, chunk, fresh):
    """The region cut in two under fresh keys (ExpandMixedKernel's _aic and _aiv), perhaps with the original
    key kept by a small wrapper."""
    key, body = chunk
    names = draw(st.permutations(fresh))[:2]
    cut = draw(st.integers(0, len(body)))
    parts = [(name, [draw(HEADERS), *part]) for name, part in zip(names, (body[:cut], body[cut:]), strict=False)]
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), (key, draw(st.lists(st.integers(0, 9), min_size=1, max_size=3))))
    return parts


def text_of(chunks_, untrusted: bool):
    """Line ids and the data.texts entry of chunks; region bodies use ids 100.. so they differ from outside lines."""
    ids, regions = [], []
    for key, value in chunks_:
        if key == "line":
            ids.append(value)
        else:
            regions.append(
                {"key": key, "kind": "function", "start": len(ids), "end": len(ids) + len(value), "error": None}
            )
            ids += [100 + v for v in value]
    text = {"regions": regions, "untrusted": "generated" if untrusted else None}
    return ids, text


@st.composite
def pass_case(draw):
    before = draw(chunks())
    after = draw(st.one_of(edited_chunks(before), chunks()))
    untrusted = draw(st.sampled_from([(False, False)] * 6 + [(True, False), (False, True)]))
    b_ids, b_text = text_of(before, untrusted[0])
    a_ids, a_text = text_of(after, untrusted[1])
    event("pass: untrusted side" if any(untrusted) else "pass: regions paired")
    return b_ids, b_text, a_ids, a_text, draw(ANY_LIMITS)


# ---- real snapshot pairs ------------------------------------------------------------------------------------


def real_texts(name: str):
    """Each distinct snapshot of a real fixture as (line ids, data.texts-like entry), ids shared across them."""
    table: dict[str, int] = {}
    texts, seen = [], set()
    for path in sorted((REAL / name / "passes_dump").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if source in seen:
            continue
        seen.add(source)
        lines, _ = split_lines(source)
        found = PYTHON.analyze(structure.parse(lines, PYTHON), lines)
        text = {
            "regions": [
                {"key": r.key, "kind": r.kind, "start": r.start, "end": r.end, "error": r.error} for r in found.regions
            ],
            "untrusted": found.reason,
        }
        texts.append(([table.setdefault(line, len(table)) for line in lines], text))
    return texts


REAL_NAMES = sorted(p.name for p in REAL.iterdir() if p.is_dir())


def real_pair_cases(name: str) -> list[list]:
    """Adjacent snapshots, the first against every other and back, with the report's limits and a small cap."""
    texts = real_texts(name)
    pairs = [(t, t + 1) for t in range(len(texts) - 1)] + [(0, t) for t in range(2, len(texts))]
    pairs += [(t, 0) for t in range(1, len(texts))]
    capped = {"myers_max_cost": 300}
    return [[*texts[tb], *texts[ta], limits] for tb, ta in pairs for limits in (linediff.LIMITS, capped)]
