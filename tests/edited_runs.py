"""Two roots of real programs as a compiler change would leave them: the baseline is the archive's dumps, this run
the same dumps with an edit made from one pass on (every snapshot after it), in a subset of the programs, as if a
pass had been changed to print something else. What the index, the summaries and `merge` group by edit."""

from __future__ import annotations

import shutil
from pathlib import Path

# (pass from which the edit shows, old text, new text, programs): each a compiler change
EDITS = {
    "exp2": (
        "ConvertTensorToTileOps",
        "pl.tile.exp(",
        "pl.tile.exp2(",
        [
            "beginner_04_activation__01_silu_concise",
            "beginner_04_activation__02_gelu_explicit",
            "intermediate_02_softmax_concise",
            "models_03_flash_attention_explicit",
            "models_qwen3_decode_concise",
        ],
    ),
    "l1": (
        "ConvertTensorToTileOps",
        "pl.Mem.Mat",
        "pl.Mem.L1",
        [
            "advanced_01_split_k_explicit",
            "advanced_02_auto_tile_matmul__00_ddr_split_k_explicit",
            "advanced_02_auto_tile_matmul__03_mat_full_k_explicit",
        ],
    ),
    "relu": (
        "ConvertTensorToTileOps",
        "pl.tile.relu(",
        "pl.tile.relu_fast(",
        ["beginner_04_activation__00_fused_add_relu_concise"],
    ),
}
UNCHANGED = ["beginner_01_hello_world_concise", "beginner_02_elementwise__00_tile_add_128_explicit"]


def programs() -> list[str]:
    return sorted(UNCHANGED + [name for *_, names in EDITS.values() for name in names])


def write_roots(archive: Path, where: Path) -> tuple[Path, Path]:
    """this run's root and the baseline's under `where`, from the unpacked archive's program folders."""
    this, baseline = where / "this", where / "baseline"
    for name in programs():
        shutil.copytree(archive / name, baseline / name)
        shutil.copytree(archive / name, this / name)
    for first, old, new, names in EDITS.values():
        for name in names:
            dump = this / name / "passes_dump"
            snapshots = sorted(dump.glob("*.py"))
            start = next(k for k, path in enumerate(snapshots) if path.stem.endswith(f"_after_{first}"))
            for path in snapshots[start:]:
                text = path.read_text(encoding="utf-8")
                assert old in text or path != snapshots[start], (name, path.name, old)
                path.write_text(text.replace(old, new), encoding="utf-8")
    return this, baseline
