"""Read a report model back the way the viewer does (the data contract in static/model.js)."""

from __future__ import annotations


def runs(segments):
    for segment in segments:
        b, a = segment[0], segment[1]
        for at in range(2, len(segment), 3):
            eq, deleted, inserted = segment[at : at + 3]
            yield b, a, eq, deleted, inserted
            b += eq + deleted
            a += eq + inserted


def text_ids(model: dict, t: int, cache: dict | None = None) -> list[int]:
    cache = {} if cache is None else cache
    if t not in cache:
        entry = model["texts"][t]
        if "ids" in entry:
            cache[t] = entry["ids"]
        else:
            p = model["passes"][entry["pass"]]
            before = text_ids(model, p["before"], cache)
            after, inserted = [], iter(p["inserted"])
            for _, _, _, segments in p["pieces"]:
                for b, _, eq, _, ins in runs(segments):
                    after += before[b : b + eq]
                    after += [next(inserted) for _ in range(ins)]
            cache[t] = after
    return cache[t]


def source(model: dict, t: int, cache: dict | None = None) -> str:
    entry = model["texts"][t]
    ids = text_ids(model, t, cache)
    parts = []
    for i, line_id in enumerate(ids):
        if "eols" in entry:
            ending = entry["eols"][i]
        else:
            ending = entry["eol"] if i < len(ids) - 1 or entry["final"] else ""
        parts.append(model["lines"][line_id] + ending)
    return "".join(parts)
