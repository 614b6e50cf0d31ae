"""The share of a report's time spent inside tree-sitter: what no work of this project's own can remove.

    python benchmarks/treesitter_share.py INPUT [--src SRC]

Renders INPUT in this process, timing every tree-sitter parse the incremental parser makes (incremental.py)
and every query walk of the new lines (highlight.walk: the cursor's captures, highlights and the other facts
of one walk). Prints the report's own time, the two tree-sitter figures and what is left. A text read in
pieces (chunked.py: 50,000 lines and more) is parsed in worker processes, which are not counted here.
benchmarks/versus_diff.py runs this beside GNU diff (--floor). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path


class _TimedParser:
    """A tree-sitter Parser whose parse calls are timed into `spent` (Parser is a C type: it cannot be patched)."""

    def __init__(self, parser, spent: dict[str, float]):
        self._parser, self._spent = parser, spent

    def parse(self, *args, **kwargs):
        start = time.process_time()
        try:
            return self._parser.parse(*args, **kwargs)
        finally:
            self._spent["parse"] += time.process_time() - start


def measure(dump: Path) -> dict[str, float]:
    from pypto_ir_trace import cli, highlight, incremental

    spent = {"parse": 0.0, "query": 0.0}
    walk, parse = highlight.walk, incremental.IncrementalParser.parse

    def timed_walk(*args):
        found = walk(*args)
        while True:
            start = time.process_time()
            item = next(found, None)
            spent["query"] += time.process_time() - start
            if item is None:
                return
            yield item

    def timed_parse(self, *args, **kwargs):
        if not isinstance(self._parser, _TimedParser):
            self._parser = _TimedParser(self._parser, spent)
        return parse(self, *args, **kwargs)

    highlight.walk, incremental.IncrementalParser.parse = timed_walk, timed_parse
    with tempfile.TemporaryDirectory() as folder:
        start = time.process_time()
        status = cli.main([str(dump), "-o", str(Path(folder) / "report.html"), "-q"])
        spent["report"] = time.process_time() - start
    if status:
        raise SystemExit(f"the report of {dump} failed ({status})")
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", type=Path)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--json", action="store_true", help="one JSON object (CPU seconds), for versus_diff.py")
    args = parser.parse_args()
    sys.path.insert(0, str(args.src))
    spent = measure(args.input)
    if args.json:
        print(json.dumps(spent))
        return
    rest = spent["report"] - spent["parse"] - spent["query"]
    print(
        f"report {spent['report']:.2f} CPU s (past the imports): tree-sitter parse {spent['parse']:.2f}, "
        f"query walks {spent['query']:.2f}, the rest {rest:.2f}"
    )


if __name__ == "__main__":
    main()
