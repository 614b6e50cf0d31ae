"""Streams printed only before each pass (`--mlir-print-ir-before-all` or LLVM's `-print-before-all` without their
after-all twin; Triton's MLIR_ENABLE_DUMP): a dump is the IR as the passes before it left it. The change it shows
against the dump it is diffed against was made by that dump's pass, not by the pass it was printed before, so it
is listed as that pass's result. The last pass ran after the last dump: what it did is not printed.

With only some passes printed (`--mlir-print-ir-before=canonicalize`), the passes that ran unprinted between two
dumps are charged to the first of them, as its detail says.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .dump import Snapshot

BEFORE = "Before"  # how a snapshot's detail says it was printed before its pass (", Before" after the op)


@dataclass(frozen=True)
class Pass:
    """A pass as a snapshot names it: its name, what it ran on (its detail, not said to be Before) and its header."""

    name: str
    detail: str
    header: str = ""

    @classmethod
    def printed(cls, name: str, detail: str, header: str = "") -> Pass:
        """The pass a Before dump names (its detail's and its header's Before left out: the pass, its options)."""
        return cls(name, detail.replace(f", {BEFORE}", "", 1), header.removeprefix(f"IR Dump {BEFORE} "))


def charged(snapshots: list[Snapshot], first: Pass | None) -> tuple[list[Snapshot], str | None]:
    """The snapshots with each one listed as the result of the pass printed before the text it is diffed against,
    and the note that says so; the snapshots as they are (and None) unless every pass snapshot is a Before dump.
    `first`: the pass the input (snapshot 0) was printed before; None when the input is not dumped (a dump diffed
    against it shows as added, under its own name)."""
    if len(snapshots) < 2 or not all(snapshot.printed_before for snapshot in snapshots[1:]):
        return snapshots, None
    passes = [first, *(Pass.printed(s.name, s.detail, s.header) for s in snapshots[1:])]
    made = [snapshots[0]]
    for snapshot in snapshots[1:]:
        ran = passes[snapshot.index - 1 if snapshot.base is None else snapshot.base]
        if ran is None:
            made.append(snapshot)
            continue
        detail = f"{ran.detail}: its result as printed before {snapshot.name} (with any pass not printed between)"
        made.append(replace(snapshot, name=ran.name, detail=detail, header=ran.header, printed_before=False))
    last = passes[-1]
    assert last is not None, "a pass snapshot names its pass"
    note = (
        f"the dumps are printed before their pass only: each shows what the pass printed before the text it is "
        f"diffed against did, and is listed as that pass; the last pass, {last.name}, ran after the last dump, "
        "which does not show what it did"
    )
    return made, note
