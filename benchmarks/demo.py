"""A demo report from a bundled fixture, to work on the viewer alone: `python benchmarks/demo.py OUT.html`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # the working tree's package, installed or not
from pypto_ir_trace import cli  # noqa: E402

FIXTURES = ROOT / "fixtures"


def main(argv: list[str] | None = None) -> int:
    cases = sorted(p.parent.relative_to(FIXTURES).as_posix() for p in FIXTURES.glob("*/*/passes_dump"))
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("output", type=Path, help="where to write the report")
    parser.add_argument(
        "--fixture",
        default="viewer/functions",
        choices=cases,
        metavar="CASE",
        help="a folder of fixtures/ (default: viewer/functions; real/... for bigger ones)",
    )
    parser.add_argument("--context", default="3", help="unchanged lines kept around changes")
    args = parser.parse_args(argv)
    status = cli.main([str(FIXTURES / args.fixture / "passes_dump"), "-o", str(args.output), "--context", args.context])
    if status == 0:
        print(args.output.resolve().as_uri())
    return status


if __name__ == "__main__":
    raise SystemExit(main())
