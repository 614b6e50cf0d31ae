"""The viewer's pure scripts run unchanged under Node, without a browser: a harness (tests/*_harness.js) loads
them and answers one JSON line with one JSON line. One process serves a whole test module."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources
from pathlib import Path

from dumptools import missing


class Harness:
    def __init__(self, harness: Path, scripts: tuple[str, ...]):
        static = resources.files("pypto_ir_trace").joinpath("static")
        self.process = subprocess.Popen(
            [node_executable(), str(harness), *(str(static.joinpath(name)) for name in scripts)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def ask(self, message: object) -> dict:
        """The harness's reply to one message: {"result": ...} or {"error": ..., "message": ...}."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        assert line, f"node exited ({self.process.poll()}) before answering"
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


def node_executable() -> str:
    """Node on PATH (Debian's is /usr/bin/node); missing, the tests that need it skip, or fail under CI=true."""
    found = shutil.which("node")
    if found is None:
        missing("the viewer's scripts are tested under Node: no node on PATH (apt-get install nodejs)")
    return found
