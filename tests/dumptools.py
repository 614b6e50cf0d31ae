"""Test helpers: small inline dumps written to a temporary directory."""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

import pypto_ir_trace

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
REAL = FIXTURES / "real"


def subprocess_env(**extra: str) -> dict[str, str]:
    """os.environ for a subprocess that must import the code under test, also from another working directory
    (a relative PYTHONPATH=src would miss it there and fall back to whatever copy is installed)."""
    package_root = str(Path(pypto_ir_trace.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_root, os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **extra}


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"  # as the CI that runs .ci/run sets it


def missing(reason: str) -> NoReturn:
    """Something a test needs is not here: the test skips with the reason, except under CI=true, where it fails
    with it (one line, no traceback): in CI a skip would let the test pass unseen."""
    if in_ci():
        pytest.fail(f"CI: {reason}", pytrace=False)
    pytest.skip(reason)


def outcome(call) -> tuple[str, str]:
    """("skip" or "fail", the reason) when call() calls `missing`, else ("ok", str of its result); caught here,
    so that a wrong skip cannot skip the test that checks it."""
    try:
        return "ok", str(call())
    except pytest.skip.Exception as skip:
        return "skip", str(skip)
    except pytest.fail.Exception as failure:
        assert not failure.pytrace  # the reason alone, without a traceback
        return "fail", str(failure)


def made_once(tmp_path_factory, name: str, make: Callable[[Path], object]) -> Path:
    """A path under the run's temporary directory, made by make(path) once for the whole run: under pytest-xdist
    the workers share it (the first makes it while the others wait on a lock), so an archive is unpacked and a
    report built once, not once per worker. Callers only read what it holds."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker's directory lies in the run's own
        root = root.parent
    path, done = root / "shared" / name, root / "shared" / f"{name}.done"
    path.parent.mkdir(exist_ok=True)
    with open(root / "shared" / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():  # a worker that failed half-way left no mark: the next one makes it again
            make(path)
            done.touch()
    return path


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


INSERTED_OP = "%0 = arith.constant 12345 : i32"  # a constant no fixture holds: never a renamed line
NUMBERED = re.compile(r"%(\d+)\b")  # a numbered SSA value (not %arg0, %c0, %cst)


def insert_op_at_top(mlir: str) -> str:
    """MLIR text as if a pass had put one op at the top of every function body: the op becomes %0, and
    every numbered value after it shifts by one (%0 -> %1, ...), as MLIR's printer numbers them."""
    out = []
    for line in mlir.splitlines(keepends=True):
        out.append(NUMBERED.sub(lambda m: f"%{int(m.group(1)) + 1}", line))
        if re.match(r"\s*(func\.func|llvm\.func) .*\{$", line):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}  {INSERTED_OP}\n")
    return "".join(out)


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

# A CONCISE dump (a tile type, no layout printed): pass 01 changes a tensor line only, pass 02 the tile's type.
CONCISE = {
    "00_frontend.py": PROGRAM,
    "01_after_NameCall.py": PROGRAM.replace("self.kernel(x)", "self.kernel(x)  # calls kernel"),
    "02_after_InferTileMemorySpace.py": PROGRAM.replace("self.kernel(x)", "self.kernel(x)  # calls kernel").replace(
        "pl.Tile[[64], pl.FP32] = pl.tile.load(x, [0], [64])",
        "pl.Tile[[64], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0], [64], target_memory=pl.Mem.Vec)",
    ),
}
