"""What a compiler change did across programs (issue 34): programs grouped by the same edit, and per program the
passes whose effect differs, in the summary JSON, the Markdown, `merge` and the index page's data; measured on
real programs of the archive with three compiler edits applied to subsets of them (edited_runs.py)."""

from __future__ import annotations

import json

import pytest

import edited_runs
from dumptools import CONCISE, write_dump
from pypto_ir_trace import cli, effect, summary
from pypto_ir_trace.schemacheck import validate

CONVERT = "11 ConvertTensorToTileOps"
EXPECTED = [  # (the change told, the programs making it), largest group first
    (("pl.tile.exp", "pl.tile.exp2"), edited_runs.EDITS["exp2"][3]),
    (("pl.Mem.Mat", "pl.Mem.L1"), edited_runs.EDITS["l1"][3]),
    (("pl.tile.relu", "pl.tile.relu_fast"), edited_runs.EDITS["relu"][3]),
]


@pytest.fixture(scope="module")
def compared(real_dumps, tmp_path_factory):
    """The edited roots compared: (where, the summary JSON, the Markdown)."""
    where = tmp_path_factory.mktemp("edited")
    this, baseline = edited_runs.write_roots(real_dumps, where)
    json_path, md_path = where / "summary.json", where / "summary.md"
    argv = [str(this), "--baseline", str(baseline), "-o", str(where / "out"), "-q"]
    assert cli.main([*argv, "--summary-json", str(json_path), "--summary-md", str(md_path)]) == 0
    return where, json.loads(json_path.read_text(encoding="utf-8")), md_path.read_text(encoding="utf-8")


def test_programs_a_compiler_edit_made_apart_form_one_group_per_edit(compared):
    """Each edit made to a subset of real programs is one group, told by the words it changes at the pass that
    made it, its programs by name, the largest first; the unedited programs are in none."""
    _, found, _ = compared
    validate(found, summary.schema())
    told = [
        (tuple(group["edit"]["changes"][0]), sorted(group["programs"]), group["edit"]["pass"])
        for group in found["edits"]
    ]
    assert told == [(change, sorted(names), CONVERT) for change, names in EXPECTED]
    assert found["edits"][0]["edit"]["description"] == "`pl.tile.exp` -> `pl.tile.exp2` at 11 ConvertTensorToTileOps"
    entries = {entry["name"]: entry for entry in found["programs"]}
    for name in edited_runs.UNCHANGED:
        assert entries[name]["status"] == "identical" and entries[name]["edit"] is None
        assert entries[name]["effectDiffers"] == []


def test_each_program_lists_the_passes_whose_effect_differs_not_every_pass_after_which_it_differs(compared):
    """An edit at pass 11 makes the runs differ after nearly every pass from 11 on, but the effect differs only
    where a pass edits differently: 11, and a pass that then treats the changed lines otherwise."""
    _, found, _ = compared
    for entry in found["programs"]:
        if entry["status"] != "differs":
            continue
        assert entry["effectDiffers"][0] == CONVERT == entry["firstDivergent"]
        assert len(entry["effectDiffers"]) <= 3 < entry["differing"], entry


def test_the_markdown_gives_a_line_per_group_largest_first(compared):
    _, _, text = compared
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert lines == [
        f"- {len(names)} program{'s' if len(names) > 1 else ''}: `{old}` → `{new}` at `{CONVERT}`"
        for (old, new), names in EXPECTED
    ]
    table = [line for line in text.splitlines() if line.startswith("| `")]
    assert table and all(line.rsplit(" | ", 1)[1].startswith("`11") for line in table), table  # effect differs at


def test_merged_shards_group_the_programs_as_the_whole_run_does(compared, tmp_path):
    """Two CI shards, each a part of the programs: merged, each group holds the programs of both shards."""
    where, whole, _ = compared
    names = edited_runs.programs()
    shards = []
    for k, part in enumerate((names[::2], names[1::2])):
        roots = {side: tmp_path / f"shard{k}" / side for side in ("this", "baseline")}
        for side, root in roots.items():
            root.mkdir(parents=True)
            for name in part:
                (root / name).symlink_to(where / side / name)
        path = tmp_path / f"shard{k}.json"
        argv = [str(roots["this"]), "--baseline", str(roots["baseline"]), "-o", str(tmp_path / f"out{k}"), "-q"]
        assert cli.main([*argv, "--summary-json", str(path)]) == 0
        shards.append(str(path))
    merged_path = tmp_path / "merged.json"
    assert cli.main(["merge", *shards, "--summary-json", str(merged_path), "--allow-mixed"]) == 0
    merged = json.loads(merged_path.read_text(encoding="utf-8"))
    validate(merged, summary.schema())
    assert [(g["edit"]["key"], g["programs"]) for g in merged["edits"]] == [
        (g["edit"]["key"], g["programs"]) for g in whole["edits"]
    ]


def test_how_the_runs_outputs_differ_is_told_by_names_whole_and_lines_one_run_has():
    lines = ["x = pl.tile.exp(a)", "x = pl.tile.exp2(a)", "y = pl.tile.add(x, b)", "keep = 1"]
    outputs = [((0, 3), (1, 3, 2))]  # the baseline's output lines, this run's, facing in order
    assert effect.told_apart(outputs, lines.__getitem__) == (
        ("pl.tile.exp", "pl.tile.exp2"),
        ("", "y = pl.tile.add(x, b)"),
    )
    assert effect.told_apart([((1,), ())], lines.__getitem__) == (("x = pl.tile.exp2(a)", ""),)
    many = [((k,), (k + 1000,)) for k in range(300)]
    assert len(effect.told_apart(many, lambda i: f"v{i}")) == effect.MAX_CHANGES


def _edit_of(tmp_path, this: dict[str, str], baseline: dict[str, str]) -> tuple[dict, str]:
    """The summary's edit of one program whose two runs are `this` and `baseline` (file name -> text), and the
    Markdown's line for it."""
    write_dump(tmp_path / "this" / "p", this)
    write_dump(tmp_path / "baseline" / "p", baseline)
    path, md = tmp_path / "summary.json", tmp_path / "summary.md"
    argv = [str(tmp_path / "this"), "--baseline", str(tmp_path / "baseline"), "-o", str(tmp_path / "out"), "-q"]
    assert cli.main([*argv, "--summary-json", str(path), "--summary-md", str(md)]) == 0
    found = json.loads(path.read_text(encoding="utf-8"))
    validate(found, summary.schema())
    assert [group["programs"] for group in found["edits"]] == [["p"]]
    line = next(line for line in md.read_text(encoding="utf-8").splitlines() if line.startswith("- "))
    return found["programs"][0]["edit"], line


def test_runs_given_different_inputs_whose_passes_did_the_same_are_told_by_how_the_inputs_differ(tmp_path):
    wider = {name: text.replace("[64]", "[128]") for name, text in CONCISE.items()}
    edit, line = _edit_of(tmp_path, wider, CONCISE)
    assert (edit["pass"], edit["changes"]) == ("input", [["64", "128"]])
    assert edit["description"] == "the inputs differ: `64` -> `128`"
    assert line == "- 1 program: `64` → `128` at the inputs"


def test_runs_that_part_by_a_pass_only_one_runs_say_so(tmp_path):
    """This run runs one more pass, which edits the IR; every pass both run had the same effect."""
    extra = CONCISE["02_after_InferTileMemorySpace.py"].replace("return y\n", "return y  # checked\n", 1)
    this = {**CONCISE, "03_after_CheckReturns.py": extra}
    edit, line = _edit_of(tmp_path, this, CONCISE)
    assert edit["pass"] == "03 CheckReturns" and edit["changes"] == []
    assert edit["description"] == "only this run runs 03 CheckReturns"
    assert line == "- 1 program: `only this run runs 03 CheckReturns`"
