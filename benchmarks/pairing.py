"""Benchmark: what pairing regions by content does to the real PyPTO dumps (issue 19).

For every pass of every dump under ROOT (`<name>/passes_dump/`, the 256 real dumps unpacked from
real-pypto-dumps.tar.xz), the pass is diffed as the report diffs it (compare.diff_pass) and with regions
paired by name only. Prints how many changed passes have regions without a namesake on the other side
(unpaired by name), how many still have an unpaired region once content pairing ran, the changed lines
(inserted + deleted) both ways, the content pairs found, and checks that every other pass diffs exactly
as before. Skips with a line when ROOT is absent.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

from pypto_ir_trace import compare, structure
from pypto_ir_trace.dump import split_lines
from pypto_ir_trace.languages import PYTHON


def snapshots(dump: Path, table: dict[str, int]):
    """Each snapshot's (file name, line ids, structure), parsed once per distinct text."""
    parsed: dict[str, tuple[list[int], structure.Structure]] = {}
    for path in sorted(dump.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if source not in parsed:
            lines, _ = split_lines(source)
            found = PYTHON.analyze(structure.parse(lines, PYTHON), lines)
            parsed[source] = ([table.setdefault(line, len(table)) for line in lines], found)
        yield (path.name, *parsed[source])


def unpaired(old: structure.Structure, new: structure.Structure, pieces) -> int:
    """Regions of the pass in no pair: without a namesake and not paired by content, or a namesake's
    broken pair (a split's part that kept the name)."""
    renamed = {piece.before_key: piece.key for piece in pieces if piece.before_key is not None}
    b_keys, a_keys = {r.key for r in old.regions}, {r.key for r in new.regions}
    lone_before = [k for k in b_keys if k not in a_keys and k not in renamed]
    lone_after = [k for k in a_keys if (k not in b_keys or k in renamed) and k not in renamed.values()]
    return len(lone_before) + len(lone_after)


def measure(root: Path) -> Counter:
    totals: Counter = Counter()
    table: dict[str, int] = {}
    for dump in sorted(path / "passes_dump" for path in root.iterdir() if (path / "passes_dump").is_dir()):
        totals["dumps"] += 1
        found = list(snapshots(dump, table))
        for (_, b_ids, old), (name, a_ids, new) in pairwise(found):
            totals["passes"] += 1
            if b_ids == a_ids or not (old.trusted and new.trusted):
                continue
            totals["changed passes"] += 1
            by_name = compare.diff_pass(b_ids, old, a_ids, new, by_content=False)
            paired = compare.diff_pass(b_ids, old, a_ids, new)
            if not unpaired(old, new, by_name.pieces):
                assert paired == by_name, f"{dump.parent.name} {name}: a pass without unpaired regions changed"
                continue
            totals["passes with unpaired regions, by name"] += 1
            totals["passes with unpaired regions, by content"] += bool(unpaired(old, new, paired.pieces))
            totals["unpaired regions, by name"] += unpaired(old, new, by_name.pieces)
            totals["unpaired regions, by content"] += unpaired(old, new, paired.pieces)
            totals["changed lines there, by name"] += by_name.inserted + by_name.deleted
            totals["changed lines there, by content"] += paired.inserted + paired.deleted
            pairs = [p for p in paired.pieces if p.before_key is not None]
            totals["content pairs"] += len(pairs)
            totals["passes with a content pair"] += bool(pairs)
            if pairs:
                totals["changed lines of those, by name"] += by_name.inserted + by_name.deleted
                totals["changed lines of those, by content"] += paired.inserted + paired.deleted
            for piece in pairs:
                print(f"  {dump.parent.name} {name}: {piece.before_key} -> {piece.key}", file=sys.stderr)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path, nargs="?", default=Path("/tmp/real"), help="the unpacked real dumps")
    args = parser.parse_args()
    if not args.root.is_dir():
        print(f"skipped: {args.root} does not exist (unpack real-pypto-dumps.tar.xz there)")
        return
    totals = measure(args.root)
    for name in (
        "dumps",
        "passes",
        "changed passes",
        "passes with unpaired regions, by name",
        "passes with unpaired regions, by content",
        "unpaired regions, by name",
        "unpaired regions, by content",
        "passes with a content pair",
        "content pairs",
        "changed lines there, by name",
        "changed lines there, by content",
        "changed lines of those, by name",
        "changed lines of those, by content",
    ):
        print(f"{name:>42}: {totals[name]:,}")
    removed = totals["changed lines there, by name"] - totals["changed lines there, by content"]
    print(f"{'changed lines the pairing removes':>42}: {removed:,}")


if __name__ == "__main__":
    main()
