"""The viewer's pure logic (rows.js, model.js, state.js, keys.js' table, searchworker.js' matching) in a blank page."""

from __future__ import annotations

import itertools
import re
from importlib import resources
from pathlib import Path

import pytest

from modeltools import load_dump, report_of, text_ids
from pagetools import pure_page
from pypto_ir_trace import model, programs, render

pytestmark = pytest.mark.browser

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
EQUAL, PAIR, DELETED, INSERTED = 0, 1, 2, 3


@pytest.fixture(scope="module")
def logic(browser, pure_scripts):
    """A blank page holding only the pure scripts: logic(js, arg) evaluates a function there."""
    with pure_page(browser, pure_scripts, "logic") as page:
        yield lambda js, arg=None: page.evaluate(js, arg)


def test_the_script_manifest_lists_every_script_once_with_the_names_it_defines():
    """static/scripts.json is the page's one list: a script left out of it would never run, a name it misstates
    would hide a use before definition from ESLint."""
    static = resources.files("pypto_ir_trace").joinpath("static")
    groups = [render.scripts()[group] for group in ("loader", "viewer", "index")]  # index: the index page's
    entries = [entry for group in groups for entry in group]
    listed = {entry["file"] for entry in entries}
    assert sorted(listed) == sorted(path.name for path in static.iterdir() if path.name.endswith(".js"))
    assert all(len({entry["file"] for entry in group}) == len(group) for group in groups)
    for entry in entries:
        text = static.joinpath(entry["file"]).read_text(encoding="utf-8")
        defined = re.findall(r"^(?:const|(?:async )?function) (\w+)", text, re.M)
        assert defined == entry["defines"], entry["file"]


# ---- rows, folds, display list -------------------------------------------------------------------

ROWS = """([pieces, key, span]) => {
  const rows = IRTraceRows.buildRows({pieces}, key, span);
  return Array.from(rows.b, (b, r) => [b, rows.a[r], rows.kind[r]]);
}"""


def piece(key, blocks):
    return {
        "key": key,
        "inserted": sum(r[4] for r in blocks),
        "deleted": sum(r[3] for r in blocks),
        "blocks": [dict(zip(("b", "a", "equal", "deleted", "inserted"), r)) for r in blocks],
    }


def test_rows_follow_the_blocks_and_a_function_keeps_its_own(logic):
    pieces = [piece(None, [(0, 0, 2, 1, 0)]), piece("f", [(3, 2, 1, 1, 2)]), piece(None, [(5, 5, 1, 0, 0)])]
    whole = logic(ROWS, [pieces, None, [0, 0]])
    assert whole == [
        [0, 0, EQUAL],
        [1, 1, EQUAL],
        [2, -1, DELETED],
        [3, 2, EQUAL],
        [4, 3, PAIR],
        [-1, 4, INSERTED],
        [5, 5, EQUAL],
    ]
    assert logic(ROWS, [pieces, "f", [0, 0]]) == whole[3:6]


LAYOUT = """([pieces, context, layout]) => {
  const rows = IRTraceRows.buildRows({pieces}, null, [0, 0]);
  const folds = IRTraceRows.computeFolds(rows.kind, context);
  const display = IRTraceRows.displayList(rows.b.length, folds, new Uint8Array(folds.length));
  const panes = IRTraceRows.paneEntries(rows, display, layout);
  return {
    hunks: IRTraceRows.hunks(rows.kind).map(h => [h.start, h.end]),
    panes: panes.map(entries => Array.from(entries, e => (e < 0 ? "fold" : [e >> 1, e & 1]))),
    entryOf: panes.map(entries => Array.from(IRTraceRows.entryOfRows(entries, rows.b.length, folds))),
  };
}"""


def test_what_each_layout_lists(logic):
    # rows: 0-1 equal, 2 deleted, 3 equal, 4 pair, 5 inserted, 6 equal (see the test above)
    pieces = [piece(None, [(0, 0, 2, 1, 0)]), piece("f", [(3, 2, 1, 1, 2)]), piece(None, [(5, 5, 1, 0, 0)])]
    split = logic(LAYOUT, [pieces, 0, "split"])
    assert split["hunks"] == [[2, 3], [4, 6]]
    assert split["panes"][0] == ["fold", [2, 0], "fold", [4, 0], [5, 0], "fold"]  # fillers kept: rows align
    assert split["panes"][1] == ["fold", [2, 1], "fold", [4, 1], [5, 1], "fold"]
    stacked = logic(LAYOUT, [pieces, 0, "stacked"])
    assert stacked["panes"][0] == ["fold", [2, 0], "fold", [4, 0], "fold"]  # each side's own lines only
    assert stacked["panes"][1] == ["fold", "fold", [4, 1], [5, 1], "fold"]
    assert stacked["entryOf"][1] == [0, 0, 1, 1, 2, 3, 4]  # row 2 (deleted): the next entry After lists
    unified = logic(LAYOUT, [pieces, 1, "unified"])
    # one pane: an unchanged row once, a change's deleted lines before its inserted ones
    assert unified["panes"] == [["fold", [1, 1], [2, 0], [3, 1], [4, 0], [4, 1], [5, 1], [6, 1]]]


def test_variable_heights_find_their_entry(logic):
    found = logic("""() => {
      const offsets = IRTraceRows.offsetsOf(Float64Array.from([20, 60, 20, 100]));
      return [Array.from(offsets), [0, 19, 20, 79, 80, 99, 100, 199, 500, -5].map(y => IRTraceRows.entryAt(offsets, y)),
              IRTraceRows.entryAt(IRTraceRows.offsetsOf(new Float64Array(0)), 10)];
    }""")
    assert found == [[0, 20, 80, 100, 200], [0, 0, 1, 1, 2, 2, 3, 3, 3, 0], 0]


def test_a_no_op_pass_shows_its_span_unchanged(logic):
    assert logic(ROWS, [None, "f", [4, 7]]) == [[4, 4, EQUAL], [5, 5, EQUAL], [6, 6, EQUAL]]


FOLDS = """([kinds, context, expanded]) => {
  const kind = Uint8Array.from(kinds);
  const folds = IRTraceRows.computeFolds(kind, context);
  return [folds, Array.from(IRTraceRows.displayList(kind.length, folds, expanded))];
}"""


def test_folds_keep_context_around_changes_and_collapse_to_one_item(logic):
    kinds = [EQUAL] * 10 + [PAIR] + [EQUAL] * 4 + [INSERTED] + [EQUAL] * 6
    folds, display = logic(FOLDS, [kinds, 2, [0, 0]])
    assert folds == [{"start": 0, "end": 8}, {"start": 18, "end": 22}]  # the 4 lines between changes stay
    assert display == [-1, *range(8, 18), -2]
    _, display = logic(FOLDS, [kinds, 2, [1, 0]])
    assert display == [*range(18), -2]


def test_a_view_without_changes_is_not_folded(logic):
    assert logic(FOLDS, [[EQUAL] * 30, 3, []]) == [[], list(range(30))]


# ---- word changes and how a line's marks nest ---------------------------------------------------

WORDS = "([before, after]) => IRTraceRows.wordDiff(before, after)"


def cut(text, ranges):
    return [text[start:end] for start, end in ranges]


def test_word_changes_mark_only_the_changed_words(logic):
    before = "c: pl.Tensor[[64, 64], pl.FP32] = self.kernel_add(a, b)"
    after = "c__ssa_v0: pl.Tensor[[64, 64], pl.FP32] = self.kernel_mul(a, b)"
    words = logic(WORDS, [before, after])
    assert cut(before, words["before"]) == ["c", "kernel_add"]
    assert cut(after, words["after"]) == ["c__ssa_v0", "kernel_mul"]


def test_a_deeper_indent_marks_only_the_added_blanks(logic):
    words = logic(WORDS, ["x = load(a)", "    x = load(a)"])
    assert words == {"before": [], "after": [[0, 4]]}


def test_lines_with_too_little_in_common_get_no_word_marks(logic):
    assert logic(WORDS, ["return d", "return d__ssa_v0_renamed"]) is None
    assert logic(WORDS, ["alpha beta gamma", "one two three"]) is None


STRETCHES = """pairs => pairs.map(([x, y]) => [IRTraceRows.wordDiff(x, y), IRTraceRows.changedStretch(x, y),
  IRTraceRows.changedStretch(y, x)])"""


def test_the_changed_stretch_holds_every_changed_word(logic):
    """The panes' width bounds a pair's word changes by its changed stretch when a pass changes too many lines to
    diff them all: every changed word must lie inside it, or an elided type beside it would be counted wider."""
    words = [
        "a_k__tile",
        "a_k__ssa_v0",
        "pl.Tile[[64, 128], pl.FP32]",
        "pl.Tensor[[64, 128], pl.FP32]",
        "=",
        " ",
        "  ",
        "(",
        ")",
        "x1",
        "x12",
        "pl.tile.load(a, [0, k0])",
        "pl.tensor.slice(a, [0, k0])",
        ",",
        "é",
        "\u00e9\u0301",
    ]
    lines = ["".join(combo) for combo in itertools.product(words[:8], words[4:10], words[8:])][:400]
    pairs = [[x, y] for x, y in zip(lines, lines[1:] + lines[:1])] + [[x, x + "z"] for x in lines[:50]]
    pairs += [[x, "w" + x] for x in lines[:50]] + [["", "abc"], ["abc", ""], ["x = 1", "x = 1"]]
    for (x, y), (diff, before, after) in zip(pairs, logic(STRETCHES, pairs)):
        if diff is None:
            continue
        for changes, (start, end), line in ((diff["before"], before[0], x), (diff["after"], after[0], y)):
            assert all(start <= s and e <= end for s, e in changes), (x, y, changes, (start, end))
            assert 0 <= start <= end <= len(line)


PARTS = "([length, highlights, changes, matches]) => IRTraceRows.lineParts(length, highlights, changes, matches)"


def test_a_changed_word_is_one_element_across_highlight_spans(logic):
    text = "x = pl.add(a)"
    highlights = [
        {"start": 0, "end": 1, "name": "variable"},
        {"start": 4, "end": 6, "name": "module"},
        {"start": 7, "end": 10, "name": "call"},
    ]
    parts = logic(PARTS, [len(text), highlights, [[4, 10]], [[7, 9]]])
    assert [(p["change"], text[p["start"] : p["end"]]) for p in parts] == [
        (False, "x = "),
        (True, "pl.add"),
        (False, "(a)"),
    ]
    changed = parts[1]["parts"]
    assert [(m["match"], text[m["start"] : m["end"]]) for m in changed] == [(False, "pl."), (True, "ad"), (False, "d")]
    leaves = [(leaf["name"], text[leaf["start"] : leaf["end"]]) for m in changed for leaf in m["parts"]]
    assert leaves == [("module", "pl"), (None, "."), ("call", "ad"), ("call", "d")]


def test_line_parts_cover_the_line_exactly_once(logic):
    text = "abcdefghij"
    parts = logic(PARTS, [len(text), [{"start": 2, "end": 5, "name": "k"}], [[0, 3], [8, 10]], [[1, 9]]])
    leaves = [(leaf["start"], leaf["end"]) for p in parts for m in p["parts"] for leaf in m["parts"]]
    assert leaves[0][0] == 0 and leaves[-1][1] == len(text)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(leaves))
    assert logic(PARTS, [0, [], [], []]) == []


# ---- search -------------------------------------------------------------------------------------

SEARCH = """([query, lines]) => {
  const parsed = IRTraceSearchWorker.parse(query);
  if (parsed.kind !== "regex" && parsed.kind !== "text") return [parsed.error || null, null];
  const found = IRTraceSearchWorker.scan(lines, parsed);
  const ranges = lines.map((_, i) => {
    const flat = Array.from(found.marks.slice(found.offsets[i], found.offsets[i + 1]));
    return flat.flatMap((x, k) => (k % 2 ? [] : [[x, flat[k + 1]]]));
  });
  return [null, ranges, Array.from(found.hit), Array.from(found.empty)];
}"""


def test_search_is_smart_case_text_or_regex(logic):
    lines = ["Tile.Move(x)", "tile.move(y) tile.move"]
    assert logic(SEARCH, ["tile.move", lines])[:2] == [None, [[[0, 9]], [[0, 9], [13, 22]]]]
    assert logic(SEARCH, ["Tile", lines])[:3] == [None, [[[0, 4]], []], [1, 0]]
    assert logic(SEARCH, ["/m\\w+e/i", lines])[:2] == [None, [[[5, 9]], [[5, 9], [18, 22]]]]
    assert logic(SEARCH, ["/x*/", ["axb"]]) == [None, [[[1, 2]]], [1], [-1]]  # empty matches mark nothing
    error, ranges = logic(SEARCH, ["/(unclosed/", lines])
    assert error and ranges is None
    assert logic(SEARCH, ["", lines]) == [None, None]


def test_a_line_matched_only_by_empty_matches_counts(logic):
    """Issue 9: /^$/, /^\\s*$/ and lookaheads said "no line matches"; the line matches, nothing is marked."""
    lines = ["", "    ", "    return y", "x = 1"]
    assert logic(SEARCH, ["/^$/", lines]) == [None, [[], [], [], []], [1, 0, 0, 0], [0, -1, -1, -1]]
    assert logic(SEARCH, ["/^\\s*$/", lines])[2:] == [[1, 1, 0, 0], [0, -1, -1, -1]]  # "    " is a real match
    assert logic(SEARCH, ["/^(?=\\s*return)/", lines]) == [None, [[], [], [], []], [0, 0, 1, 0], [-1, -1, 0, -1]]
    assert logic(SEARCH, ["/(?=return)/", lines])[3] == [-1, -1, 4, -1]  # the empty match's column


@pytest.mark.parametrize("query", ["/\\w*/u", "/x?/u", "/(?:)/v", "/a?/v", "/x?/"])
def test_empty_matches_step_over_characters_outside_the_bmp(logic, query):
    """Issue 9: under /u or /v an empty match before a surrogate pair looped for ever."""
    lines = ["\U0001d523", "a\U0001d523b\U0001d523", "\U0001d523x\U0001d523"]
    error, ranges, hit, _ = logic(SEARCH, [query, lines])
    assert error is None and hit == [1, 1, 1]
    assert all(end > start for line in ranges for start, end in line)


# ---- the data reader ------------------------------------------------------------------------------

READ = """(data) => {
  const report = IRTraceModel.read(data);
  const pipeline = report.pipelines[0];
  return {
    name: pipeline.name, input: pipeline.input, title: report.title, context: report.context,
    texts: pipeline.texts.map((text, t) => ({ids: Array.from(pipeline.ids(t)), source: pipeline.source(t),
      regions: text.regions, untrusted: text.untrusted})),
    passes: pipeline.passes.map(pass => ({label: pass.label, name: pass.name, file: pass.file, changed: pass.changed,
      before: pass.before, after: pass.after, inserted: pass.inserted, deleted: pass.deleted, warnings: pass.warnings,
      anchors: pass.anchors, byRegion: Object.fromEntries(pass.byRegion), pieces: pass.pieces && pass.pieces.length})),
    highlights: [0, 1, 2].map(id => report.highlights(id)),
  };
}"""


@pytest.mark.parametrize("case", ["viewer/functions", "viewer/crlf", "viewer/untrusted"])
def test_the_reader_names_every_field_of_the_json(logic, case):
    raw = model.to_json(report_of(load_dump(FIXTURES / case)))
    data = {**raw, **raw["pipelines"][0]}
    read = logic(READ, raw)
    assert (read["name"], read["input"]["file"], read["title"], read["context"]) == (
        data["pipelines"][0]["name"],
        data["input"]["file"],
        raw["title"],
        3,
    )
    assert [text["ids"] for text in read["texts"]] == [text_ids(data, t) for t in range(len(data["texts"]))]
    files = sorted((FIXTURES / case / "passes_dump").glob("*.py"))
    assert read["texts"][read["input"]["text"]]["source"].encode() == files[0].read_bytes()
    for text, raw in zip(read["texts"], data["texts"]):
        assert [[r["key"], r["kind"], r["start"], r["end"], r["error"] or None] for r in text["regions"]] == [
            [r["key"], r["kind"], r["start"], r["end"], r.get("error")] for r in raw["regions"]
        ]
        assert text["untrusted"] == raw.get("untrusted")
    for got, raw, path in zip(read["passes"], data["passes"], files[1:]):
        assert read["texts"][got["after"]]["source"].encode() == path.read_bytes()
        assert (
            got["label"],
            got["name"],
            got["file"],
            got["before"],
            got["after"],
            got["inserted"],
            got["deleted"],
        ) == (
            raw["label"],
            raw["name"],
            raw["file"],
            raw["before"],
            raw["after"],
            raw["inserted"],
            raw["deleted"],
        )
        assert got["changed"] == (raw["before"] != raw["after"]) and got["warnings"] == raw.get("warnings", "")
        assert got["anchors"] == raw.get("anchors", [])
        assert got["byRegion"] == {k: {"inserted": i, "deleted": d} for k, (i, d) in raw.get("byRegion", {}).items()}
        assert got["pieces"] == (len(raw["pieces"]) if "pieces" in raw else None)
    for id, spans in enumerate(read["highlights"]):
        flat = data["spans"][data["lineSpans"][id]]
        assert [h["name"] for h in spans] == [data["classes"][c] for c in flat[2::3]]
        assert all(0 <= h["start"] <= h["end"] <= len(data["lines"][id]) for h in spans)


RUNS = """(data) => {
  const runs = IRTraceModel.read(data).runs;
  const pipeline = runs.pipeline;
  return {
    ours: runs.ours.name, theirs: runs.theirs.name, offset: runs.offset, inputs: runs.inputs,
    firstDivergent: runs.firstDivergent,
    reconverged: runs.reconverged,
    rows: runs.rows.map(({row, at, files}) => ({row: {...row, byRegion: Object.fromEntries(row.byRegion)}, at, files})),
    passes: pipeline.passes.map(pass => ({label: pass.label, name: pass.name, file: pass.file, changed: pass.changed,
      before: pass.before, after: pass.after, inserted: pass.inserted, deleted: pass.deleted,
      rebuilt: pass.pieces ? Array.from(IRTraceModel.applyPass(pipeline.ids(pass.before), pass)) : null})),
    ids: pipeline.texts.map((text, t) => Array.from(pipeline.ids(t))),
  };
}"""


def test_the_reader_gives_two_runs_as_their_aligned_rows(logic):
    """The runs section: each row a pass of one pipeline whose texts are this run's then the baseline's."""
    small = FIXTURES / "runs" / "small"
    report = programs.build_pair((load_dump(small / "this"),), (load_dump(small / "baseline"),), 3)
    data = model.to_json(report)
    read = logic(RUNS, data)
    ours, theirs = ({**data, **data["pipelines"][i]} for i in (0, 1))
    assert (read["ours"], read["theirs"], read["offset"]) == ("this run", "baseline", len(ours["texts"]))
    assert (read["firstDivergent"], read["reconverged"]) == (
        data["runs"]["firstDivergent"],
        data["runs"]["reconverged"],
    )
    inputs = data["runs"]["inputs"]
    assert read["inputs"] == {key: inputs[key] for key in ("identical", "inserted", "deleted")}
    assert [r["row"] for r in read["rows"]] == [
        {
            **{key: r[key] for key in ("this", "baseline", "identical", "inserted", "deleted")},
            "renamed": r.get("renamed", []),
            "sameEffect": r.get("sameEffect"),  # absent: one run lacks the pass
            "facing": r.get("facing"),  # absent: hunk k faces hunk k
            "differing": r.get("differing", []),
            "byRegion": {k: {"inserted": i, "deleted": d} for k, (i, d) in r.get("byRegion", {}).items()},
            "ops": r.get("ops", []),
        }
        for r in data["runs"]["rows"]
    ]
    texts = [text_ids(ours, t) for t in range(len(ours["texts"]))] + [
        text_ids(theirs, t) for t in range(len(theirs["texts"]))
    ]
    assert read["ids"] == texts
    for got, (r, entry) in zip(read["passes"], zip(data["runs"]["rows"], read["rows"])):
        here = ours["passes"][r["this"]] if r["this"] is not None else None
        there = theirs["passes"][r["baseline"]] if r["baseline"] is not None else None
        assert got["name"] == (here or there)["name"]
        assert got["label"] == (here["label"] if here else "b" + there["label"])
        assert got["file"] == entry["files"][0] and (got["inserted"], got["deleted"]) == (r["inserted"], r["deleted"])
        assert got["after"] == entry["at"][0] == (here["after"] if here else got["after"])
        # identical: a no-op row on this run's text; else the baseline's text (offset) diffed against it
        assert got["changed"] == (not r["identical"])
        assert got["before"] == (entry["at"][0] if r["identical"] else read["offset"] + entry["at"][1])
        assert got["rebuilt"] is None if r["identical"] else got["rebuilt"] == texts[got["after"]]
    assert any(r["this"] is None for r in data["runs"]["rows"])  # the fixture has a baseline-only pass


# ---- deep links and the shortcut table --------------------------------------------------------------

LINK = """([state, hash]) => {
  const passes = [{label: "01"}, {label: "02"}, {label: "04"}];
  return [IRTraceState.fragment(Object.assign(IRTraceState.create("00"), state), passes),
    IRTraceState.parse(hash, passes, "00")];
}"""


def test_links_round_trip_and_ignore_what_the_report_lacks(logic):
    fragment, _ = logic(LINK, [{"selected": 2, "wantedKey": "P.f&g", "layout": "stacked", "base": 0}, ""])
    _, parsed = logic(LINK, [{}, "#" + fragment])
    assert parsed == {
        "pass": 2,
        "fn": "P.f&g",
        "layout": "stacked",
        "base": 0,
        "wrap": None,
        "hide": [],
    }
    _, parsed = logic(LINK, [{}, "#pass=03&layout=sideways&base=99"])
    assert parsed == {"pass": -1, "fn": None, "layout": None, "base": None, "wrap": None, "hide": []}
    fragment, _ = logic(LINK, [{"selected": 0, "hide": ["debug", "metadata"]}, ""])  # the filters (filters.js)
    assert fragment == "pass=01&hide=debug.metadata"
    assert logic(LINK, [{}, "#" + fragment])[1]["hide"] == ["debug", "metadata"]
    fragment, _ = logic(LINK, [{"selected": 0, "panels": {"map": True, "blame": False}}, ""])
    assert fragment == "pass=01&map=1"  # a panel's link state (panels.js): the pipeline map shown
    assert logic(LINK, [{"selected": 0}, ""])[0] == "pass=01"
    fragment, _ = logic(LINK, [{"selected": 1, "layout": "unified", "wrap": True}, ""])
    assert fragment == "pass=02&layout=unified&wrap=1"
    assert (
        logic(LINK, [{}, "#" + fragment])[1]["layout"] == "unified"
        and logic(LINK, [{}, "#" + fragment])[1]["wrap"] is True
    )
    assert logic(LINK, [{}, "#pass=02&wrap=0"])[1]["wrap"] is False  # absent: None, the reader's own choice
    fragment, _ = logic(LINK, [{"selected": 1, "panels": {"blame": True}}, ""])  # the blame gutter is kept in links
    assert fragment == "pass=02&blame=1"
    assert logic(LINK, [{"selected": -1}, ""])[0] == ""


def test_each_key_does_one_thing_where_it_works(open_report):
    """The whole table, the panels' keys (panels.js) among it: as a report's page has it."""
    table = open_report("viewer/functions").page.evaluate("() => IRTraceKeys.rows()")
    seen = set()
    for row in table:
        assert row["help"] and row["scope"] in ("page", "search")
        for key in row["keys"]:
            assert (row["scope"], key) not in seen, key
            seen.add((row["scope"], key))
    assert {"j", "k", "ArrowDown", "ArrowUp", "/", "?", "m", "b", "*"} <= {
        key for scope, key in seen if scope == "page"
    }


def test_case_insensitive_marks_cover_exactly_what_matched_beside_letters_that_change_length(logic):
    """U+0130 lower-cases to two code units: marks found on the lower-cased line landed on the wrong characters."""
    line = '\u0130 = load("target here")'
    _, ranges, hit, _ = logic(SEARCH, ["target", [line]])
    assert [line[a:b] for a, b in ranges[0]] == ["target"] and hit == [1]
    _, ranges, _, _ = logic(SEARCH, ["here", [line, "THERE"]])
    assert [line[a:b] for a, b in ranges[0]] == ["here"] and ranges[1] == [[1, 5]]
    _, ranges, _, _ = logic(SEARCH, ["a.b(", ["A.B( axb("]])  # the text is literal, never a pattern
    assert ranges == [[[0, 4]]]


def test_a_link_names_the_input_by_its_label_or_by_zeros(logic):
    """Each pipeline's input label comes from its dump; links written before pipelines had their own (base=00
    in an MLIR pipeline, whose input is 0) still open the input."""
    read = "([hash, label]) => IRTraceState.parse(hash, [{label: '1'}, {label: '10'}], label).base"
    cases = [("0", "0"), ("00", "0"), ("0", "00"), ("start", "start"), ("10", "0"), ("1", "0"), ("01", "0")]
    assert [logic(read, [f"#base={base}", label]) for base, label in cases] == [0, 0, 0, 0, 2, 1, None]


def test_op_queries_name_an_op_or_its_last_parts(logic):
    """op:NAME (opsearch.js): a query is an op question only with op: first; NAME answers for the op itself and for
    the ops whose last dotted parts it is (exp: pl.tile.exp and pl.tensor.exp, never exp2 or texp)."""
    parse = "queries => queries.map(q => IRTraceOpSearch.parse(q))"
    assert logic(parse, ["op:pl.tile.exp2", "  op: exp ", "op:", "exp", "top:exp", "op:a b"]) == [
        "pl.tile.exp2",
        "exp",
        "",
        None,
        None,
        None,
    ]
    ops = [["pl.tile.exp", 1], ["pl.tensor.exp", -1], ["pl.tile.exp2", 3], ["pl.tile.texp", 2]]
    moves = "([ops, name]) => IRTraceOpSearch.moves(2, p => ({ops: p ? ops : []}), name)"
    assert logic(moves, [ops, "exp"]) == [[], [["pl.tile.exp", 1], ["pl.tensor.exp", -1]]]
    assert logic(moves, [ops, "tile.exp2"]) == [[], [["pl.tile.exp2", 3]]]
    assert logic("d => IRTraceOpSearch.deltaText(d)", [["pl.tile.exp2", -3]]) == "\u22123"
    assert logic("d => IRTraceOpSearch.deltaText(d)", ops[:2]) == "+1 \u22121"  # the names: in the tooltip
    assert logic("d => IRTraceOpSearch.named(d)", ops[:2]) == "pl.tile.exp +1, pl.tensor.exp \u22121"
