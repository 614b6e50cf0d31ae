"""Generated pipelines whose every line's history is known by construction: the oracle of the line history.

A pipeline is a program of functions, each line unique. Each pass edits it with operations whose diff cannot
be read two ways (each function takes at most one line edit per pass, so edits never share a block; changed
lines keep all but one token, inserted lines next to a change share none with it; a line moves at least four
lines away). What each operation does to a line's history, as README.md's "Line history" defines it:

- change a line (one, or two adjacent ones): a new form, changed by this pass, whose earlier form is the old
  line; a comment inserted beside a changed line is inserted by this pass;
- insert a line: inserted by this pass; delete a line: gone;
- move a line: inserted by this pass (the diff deletes it in one place and inserts it in another: no partner);
- move a function, or rename it (its header changes, its body stays: paired by content): its lines keep their
  history; the renamed header is changed by this pass;
- add a function: every line inserted by this pass; remove one: gone.

history: newest first, [(pass index, how, text)], how "changed" / "inserted" / "input" (pass -1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

HEADER = ["import pypto.language as pl", "", "", "@pl.program", "class Gen:"]
OPS = ["exp", "add", "mul", "max", "sub", "load", "store", "cast", "neg", "sqrt", "relu", "copy"]


@dataclass
class Line:
    text: str
    history: list[tuple[int, str, str]]


@dataclass
class Function:
    name: str
    decorator: Line  # unique per function (its name in a comment): regions hold their decorators
    header: Line
    body: list[Line] = field(default_factory=list)


class Pipeline:
    """A program edited pass by pass; snapshots() gives its files, truth() every line's history."""

    def __init__(self, seed: int, functions: int = 4, lines: int = 10, passes: int = 12):
        self.random = random.Random(seed)
        self.uid = 0
        self.fixed = [Line(text, [(-1, "input", text)]) for text in HEADER]
        self.functions = [self.new_function(-1, lines) for _ in range(functions)]
        self.snapshots = [self.lines()]
        for p in range(passes):
            self.edit(p)
            self.snapshots.append(self.lines())

    def fresh(self) -> int:
        self.uid += 1
        return self.uid

    def line(self, p: int, text: str) -> Line:
        how = "input" if p < 0 else "inserted"
        return Line(text, [(p, how, text)])

    def statement(self, p: int) -> Line:
        n = self.fresh()
        return self.line(p, f"        t_{n} = pl.{self.random.choice(OPS)}(x, c_{n})")

    def new_function(self, p: int, lines: int) -> Function:
        name = f"fn_{self.fresh()}"
        header = self.line(p, f"    def {name}(self, x: pl.Tensor) -> pl.Tensor:")
        function = Function(name, self.line(p, f"    @pl.function  # {name}"), header)
        function.body = [self.statement(p) for _ in range(lines)] + [self.line(p, f"        return x  # {name}")]
        return function

    def lines(self) -> list[Line]:
        out = list(self.fixed)
        for function in self.functions:
            out += [function.decorator, function.header, *function.body]  # no blank lines: each line is unique
        return out

    def changed(self, p: int, line: Line) -> Line:
        """The line with one token replaced (a statement's operation, a comment's last word), the others kept."""
        if " = pl." in line.text:
            target, call = line.text.split(" = pl.", 1)
            text = f"{target} = pl.{call.split('(', 1)[0]}_v{self.fresh()}({call.split('(', 1)[1]}"
        else:
            text = f"{line.text.rsplit(' ', 1)[0]} v{self.fresh()}"
        return Line(text, [(p, "changed", text), *line.history])

    def edit(self, p: int) -> None:
        for function in list(self.functions):
            self.random.choice(
                [
                    self.keep,
                    self.keep,
                    self.change,
                    self.change_two,
                    self.change_beside,
                    self.insert,
                    self.delete,
                    self.move_line,
                ]
            )(p, function)
        self.random.choice(
            [self.keep, self.keep, self.move_function, self.add_function, self.remove_function, self.rename]
        )(p, None)

    def keep(self, p, function):
        pass

    def spot(self, function: Function, width: int = 1) -> int | None:
        """An index of `width` statements in the body (never the return line), or None."""
        room = len(function.body) - 1 - width
        return None if room < 0 else self.random.randint(0, room)

    def change(self, p, function):
        at = self.spot(function)
        if at is not None:
            function.body[at] = self.changed(p, function.body[at])

    def change_two(self, p, function):
        at = self.spot(function, 2)
        if at is not None:
            function.body[at : at + 2] = [self.changed(p, line) for line in function.body[at : at + 2]]

    def change_beside(self, p, function):
        """A changed line with a comment inserted just before or after it: the comment pairs with nothing."""
        at = self.spot(function)
        if at is not None:
            comment = self.line(p, f"        # note {self.fresh()} written by pass {p}")
            pair = [self.changed(p, function.body[at])]
            function.body[at : at + 1] = [comment, *pair] if self.random.random() < 0.5 else [*pair, comment]

    def insert(self, p, function):
        at = self.spot(function, 0)
        if at is not None:
            function.body.insert(at, self.statement(p))

    def delete(self, p, function):
        at = self.spot(function)
        if at is not None and len(function.body) > 3:
            del function.body[at]

    def move_line(self, p, function):
        """One statement moved at least four lines away: deleted there, inserted here."""
        if len(function.body) < 7:
            return
        at = self.random.randint(0, len(function.body) - 2)
        places = [i for i in range(len(function.body) - 1) if abs(i - at) >= 4]  # after the pop: before the return
        if places:
            line = function.body.pop(at)
            function.body.insert(self.random.choice(places), self.line(p, line.text))

    def move_function(self, p, _):
        if len(self.functions) > 2:
            self.functions.append(self.functions.pop(self.random.randrange(len(self.functions) - 1)))

    def add_function(self, p, _):
        self.functions.insert(
            self.random.randint(0, len(self.functions)), self.new_function(p, self.random.randint(3, 8))
        )

    def remove_function(self, p, _):
        if len(self.functions) > 2:
            del self.functions[self.random.randrange(len(self.functions))]

    def rename(self, p, _):
        """A function renamed: paired by content, its header line changed, its body kept."""
        function = self.random.choice(self.functions)
        old = function.header
        function.name = f"{function.name}_r{self.fresh()}"
        text = old.text.replace(old.text.split("def ")[1].split("(")[0], function.name)
        function.header = Line(text, [(p, "changed", text), *old.history])

    def files(self) -> dict[str, str]:
        """The passes_dump/ files: the input, then one snapshot per pass."""
        texts = ["\n".join(line.text for line in lines) + "\n" for lines in self.snapshots]
        out = {"00_frontend.py": texts[0]}
        for p, text in enumerate(texts[1:], 1):
            out[f"{p:02d}_after_Pass{p}.py"] = text
        return out

    def truth(self) -> list[list[list[tuple[int, str, str]]]]:
        """For every snapshot, every line's history."""
        return [[line.history for line in lines] for lines in self.snapshots]
