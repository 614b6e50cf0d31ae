"""A big snapshot read a piece at a time gives what the whole parse gives: regions, highlights, levels."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import proctools
from dumptools import REAL
from modeltools import load_dump, report_of
from pypto_ir_trace import builder, chunked, model, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.formats import FORMATS
from pypto_ir_trace.languages import PYTHON, python
from pypto_ir_trace.linefacts import LineFacts
from pypto_ir_trace.structure import Cut

PYPTO = FORMATS["pypto"]
FACTS = [fact.name for fact in dataclasses.fields(LineFacts)]


@pytest.fixture
def cut_small(monkeypatch):
    """Every text is cut, into pieces of a few lines: the path a 400,000-line snapshot takes."""
    monkeypatch.setattr(chunked, "PIECES_FROM", 0)
    monkeypatch.setattr(chunked, "PIECE_LINES", 12)
    monkeypatch.setattr(chunked, "SENT_FROM", 0)


def whole(lines: list[str]):
    tree = structure.parse(lines, PYTHON)
    facts = builder._facts(PYPTO, tree, lines, [(0, len(lines))], structure.source(lines)[1])
    return PYTHON.analyze(tree, lines), facts


def in_pieces(lines: list[str], reader: chunked.PieceReader | None = None, ids: list[int] | None = None):
    """The structure and the facts of every row (all rows new), or None when the pieces were refused."""
    reader = reader or chunked.PieceReader(PYTHON, partial(builder._facts, PYPTO), workers=1)
    pieces: list = []
    with reader:
        reading = reader.submit(lines, ids or list(range(len(lines))), [(0, len(lines))], pieces.append)
        regions = reading.structure() if reading is not None else None
    if regions is None:
        return None
    return regions, LineFacts(*(sorted(pair for piece in pieces for pair in getattr(piece, fact)) for fact in FACTS))


def same_as_whole(lines: list[str]) -> bool:
    """True when the text was read in pieces; it must then read exactly as the whole parse does."""
    found = in_pieces(lines)
    if found is None:
        return False
    regions, facts = whole(lines)
    assert found[0] == regions
    assert found[1] == LineFacts(*(sorted(getattr(facts, fact)) for fact in FACTS))
    return True


def program(kernels: int, body: int = 3) -> list[str]:
    lines = ["import pypto.language as pl", "", "@pl.program", "class Big:"]
    for k in range(kernels):
        lines += [
            "    @pl.function(type=pl.FunctionType.InCore)",
            f"    def kernel_{k}(self, x: pl.Tile[[64, 128], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:",
        ]
        lines += [f"        t_{i}: pl.Tile[[64, 128], pl.FP32] = pl.tile.add(x, {i + k})" for i in range(body)]
        lines += ["        return t_0", ""]
    return lines


def test_a_class_program_is_cut_between_methods_and_reads_as_whole(cut_small):
    lines = program(40)
    pieces = python.cuts(lines, 12)
    assert len(pieces) > 5
    assert [(first, stop) for first, stop, *_ in pieces] == list(
        zip([0] + [p[0] for p in pieces[1:]], [p[0] for p in pieces[1:]] + [len(lines)])
    )
    assert all(
        lines[first].startswith("    @pl.function") and context == range(4) for first, _, context, _ in pieces[1:]
    )
    assert same_as_whole(lines)


def test_repeated_names_in_two_pieces_are_numbered_across_the_text(cut_small):
    lines = program(20)
    lines = [
        line.replace("def kernel_3(", "def kernel_1(").replace("def kernel_17(", "def kernel_1(") for line in lines
    ]
    regions, _ = in_pieces(lines)
    assert [r.key for r in regions.regions if r.key.partition("#")[0] == "Big.kernel_1"] == [
        "Big.kernel_1",
        "Big.kernel_1#2",
        "Big.kernel_1#3",
    ]
    assert same_as_whole(lines)


def test_top_level_functions_are_cut_at_column_zero(cut_small):
    lines = [line for k in range(30) for line in (f"def f{k}(x):", "    if x:", "        y = 1", "    return x", "")]
    assert all(context == range(0) for _, _, context, _ in python.cuts(lines, 12))
    assert same_as_whole(lines)


def test_a_function_body_is_not_cut(cut_small):
    lines = ["def f(x):"] + [line for k in range(30) for line in ("    if x:", f"        y = {k}", f"    z = {k}")]
    assert python.cuts(lines, 12) == [Cut(0, len(lines))]


def test_a_piece_whose_context_is_not_a_class_is_refused(cut_small):
    """Parsed with `def f(x):` as its context, a piece would become a second function f: chunked.py
    checks every piece's regions lie inside it, whatever cuts a language proposes."""
    lines = ["def f(x):"] + [line for k in range(30) for line in ("    if x:", f"        y = {k}", f"    z = {k}")]
    inside = dataclasses.replace(PYTHON, cuts=lambda lines, size: [Cut(0, 30), Cut(30, len(lines), range(1))])
    assert in_pieces(lines, chunked.PieceReader(inside, partial(builder._facts, PYPTO), workers=1)) is None


@pytest.mark.parametrize("broken", ["        t = pl.tile.add(x,", "    '''", "class Other", "        y = )"])
def test_a_piece_with_a_syntax_error_sends_the_text_to_the_whole_parse(cut_small, broken):
    lines = program(30)
    lines.insert(len(lines) // 2, broken)
    assert in_pieces(lines) is None


def test_a_text_refused_after_some_pieces_keeps_only_what_the_whole_parse_reads(cut_small, monkeypatch, make_dump):
    """Pieces hand their facts over as they come in. When a later piece is refused, the whole parse speaks
    for every line of the text, the earlier pieces' lines included: one reading per text, never a mix."""
    lines = program(30)
    lines.insert(len(lines) * 3 // 4, "        y = )")
    dump = load_dump(make_dump({"00_frontend.py": "\n".join(lines) + "\n"}))

    def seen(data: dict) -> dict:  # the model with each line's spans and elisions looked up (tables may hold more)
        line_spans, line_elisions = data.pop("lineSpans"), data.pop("lineElisions")
        elisions = [data["elisions"][i] for i in line_elisions]
        return {**data, "spans": [data["spans"][i] for i in line_spans], "elisions": elisions}

    monkeypatch.setattr(chunked, "PIECES_FROM", 10**9)
    expected = seen(model.to_json(report_of(dump)))
    monkeypatch.setattr(chunked, "PIECES_FROM", 0)
    read = chunked._PieceParser.read
    handed: list = []

    def marked(reader, task):  # a clean piece's highlights, as no parse would give them
        found = read(reader, task)
        if found is not None:
            regions, facts = found
            found = regions, dataclasses.replace(facts, spans=[(row, (0, 1, 0)) for row, _ in facts.spans])
            handed.append(task)
        return found

    monkeypatch.setattr(chunked._PieceParser, "read", marked)
    monkeypatch.setattr(chunked, "_cores", lambda: 1)  # read here, where `handed` can count them
    assert seen(model.to_json(report_of(dump))) == expected
    assert len(handed) > 3  # pieces before the refused one were read and handed over


def test_pieces_a_pass_did_not_change_are_not_parsed_again(cut_small, monkeypatch):
    lines = program(60)
    changed = list(lines)
    at = next(i for i, line in enumerate(lines) if "def kernel_40(" in line) + 1
    changed[at] = changed[at].replace("pl.tile.add", "pl.tile.mul")
    table: dict[str, int] = {}
    reader = chunked.PieceReader(PYTHON, partial(builder._facts, PYPTO), workers=1)
    parsed = []
    read = chunked._PieceParser.read
    monkeypatch.setattr(chunked._PieceParser, "read", lambda reader, task: parsed.append(task) or read(reader, task))
    first = in_pieces(lines, reader, [table.setdefault(line, len(table)) for line in lines])
    total, parsed[:] = len(parsed), []
    second = in_pieces(changed, reader, [table.setdefault(line, len(table)) for line in changed])
    assert total > 10 and len(parsed) == 1  # only the piece holding the changed line
    assert first[0] == second[0] == whole(changed)[0]


def test_worker_processes_read_as_this_process_does(cut_small, monkeypatch):
    monkeypatch.setattr(chunked, "WORKERS_FROM", 2)
    lines = program(50)
    serial = in_pieces(lines)
    forked = in_pieces(lines, chunked.PieceReader(PYTHON, partial(builder._facts, PYPTO), workers=2))
    assert serial is not None and forked == serial


def _die(task) -> None:
    os._exit(1)


def _die_halfway(task):
    """Reads the first half of the text's pieces, then dies (their results are in by then, or on the way)."""
    if task.shift > 100:
        os._exit(1)
    return chunked._worker.read(task)


@pytest.mark.parametrize("worker", [_die, _die_halfway])
def test_a_worker_that_dies_loses_nothing(cut_small, monkeypatch, worker):
    """Killed (out of memory, say), a worker breaks the pool: this process reads the pieces itself,
    from the first one whose reading did not come back."""
    monkeypatch.setattr(chunked, "WORKERS_FROM", 2)
    lines = program(40)
    assert len(lines) > 200
    expected = in_pieces(lines)
    monkeypatch.setattr(chunked, "_in_worker", worker)
    assert in_pieces(lines, chunked.PieceReader(PYTHON, partial(builder._facts, PYPTO), workers=2)) == expected


@pytest.mark.parametrize("name", sorted(p.name for p in REAL.iterdir() if p.is_dir()))
def test_a_pipeline_read_in_pieces_gives_the_same_report(name, monkeypatch):
    """Every snapshot, pieces remembered across passes, whole-parse fallbacks included: same model."""
    dump = load_dump(REAL / name / "passes_dump")
    expected = model.to_json(report_of(dump))
    monkeypatch.setattr(chunked, "PIECES_FROM", 0)
    monkeypatch.setattr(chunked, "PIECE_LINES", 12)
    assert model.to_json(report_of(dump)) == expected


def test_every_real_dump_reads_in_pieces_as_whole(real_dumps, cut_small):
    """The last snapshot of each of the 256 real dumps, cut every dozen lines."""
    read = [
        same_as_whole(split_lines(load_dump(path).snapshots[-1].text)[0])
        for path in sorted(real_dumps.glob("*/passes_dump"))
    ]
    assert len(read) == 256 and sum(read) >= 250  # a few are parsed whole (a cut the parse refused)


FRAGMENTS = [
    "    def m(self):",
    "        pass",
    "def f(x):",
    "    return x",
    "    '''",
    "'''",
    "    y = (",
    "    )",
    "x = 1",
    "class C:",
    "    @pl.function",
    "        z = 2",
    "    # note",
    "# top",
    "",
    "        if z:",
    "            w = 3",
]


@settings(
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(st.tuples(st.integers(0, 200), st.sampled_from(FRAGMENTS)), max_size=8))
def test_generated_programs_read_in_pieces_as_whole(edits):
    """Lines inserted anywhere in a cut program, strings and brackets that open across a cut included:
    the pieces are either refused or read exactly as the whole text."""
    lines = program(12)
    for at, fragment in edits:
        lines.insert(min(at, len(lines)), fragment)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chunked, "PIECES_FROM", 0)
        patch.setattr(chunked, "PIECE_LINES", 6)
        same_as_whole(lines)


def test_a_comment_at_the_class_column_is_no_cut(cut_small):
    """Python reads code indented under a comment as the block above it: `pass` here belongs to the
    last method, and the pieces must say so (found by the generated programs above)."""
    lines = [*program(12), "    # note", "", "        pass"]
    assert all(lines[first].strip() != "# note" for first, *_ in python.cuts(lines, 6))
    assert same_as_whole(lines)
    assert in_pieces(lines)[0].regions[-1].end == len(lines)


CUT_IN_WORKERS = "from pypto_ir_trace import chunked\nchunked.PIECES_FROM, chunked.PIECE_LINES, chunked.WORKERS_FROM, chunked.SENT_FROM = 0, 4, 2, 0\n"


@pytest.mark.parametrize("sent, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"])
def test_a_signal_while_the_piece_workers_start_or_read_stops_the_report_and_leaves_nothing(tmp_path, sent, code):
    """Every snapshot read in pieces by forked workers (started about 0.3 s in): SIGTERM or Ctrl-C at moments
    spread over the run gives the signal's exit code and one line, no process left, no report, no temporary file;
    the pieces being read are not waited for."""
    env = proctools.site(tmp_path / "site", CUT_IN_WORKERS)
    dump = REAL / "models_03_flash_attention_concise" / "passes_dump"
    out = tmp_path / "out"
    out.mkdir()
    args = (str(dump), "-o", str(out / "report.html"), "-q")
    # the signal falls before the end on any host, also one that runs the next runs twice as fast as this one
    # (CI's other worker and other work come and go)
    span = 0.5 * proctools.running_time(*args, env=env)
    (out / "report.html").unlink()
    trials, seen = 3, []
    for k in range(trials):
        delay = (k + random.random()) * span / trials
        proc = proctools.cli(*args, env=env)
        got, err = proctools.stopped(proc, sent, delay, to_group=k % 2 == 1)
        seen.append((round(delay, 2), got))
        if got is not None:
            assert got == code and "Traceback" not in err and err.count("\n") == 1, (delay, err)
            assert list(out.iterdir()) == [], (delay, list(out.iterdir()))
        else:  # a run that finished first wrote its whole report: the next one starts afresh
            assert [p.name for p in out.iterdir()] == ["report.html"], (delay, list(out.iterdir()))
            assert (out / "report.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
            (out / "report.html").unlink()
    assert sum(got is not None for _, got in seen) >= trials - 1, seen
