"""Test helpers: small inline dumps written to a temporary directory."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
REAL = FIXTURES / "real"


def write_dump(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write {file name: text or bytes} as a passes_dump/ directory under root and return it."""
    dump = root / "passes_dump"
    dump.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = dump / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return dump


PROGRAM = """\
# pypto.program: demo
import pypto.language as pl

@pl.program
class demo:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        t: pl.Tile[[64], pl.FP32] = pl.tile.load(x, [0], [64])
        y: pl.Tensor[[64], pl.FP32] = pl.tile.store(t, [0], x)
        return y
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[64], pl.FP32]) -> pl.Tensor[[64], pl.FP32]:
        y: pl.Tensor[[64], pl.FP32] = self.kernel(x)
        return y
"""
