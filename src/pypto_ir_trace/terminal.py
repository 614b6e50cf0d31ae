"""What reaches a terminal or a log: dump text and file names are untrusted (CI artifacts, bug reports), so
every control character that could drive a terminal (C0, DEL, C1) and every bidirectional override that
could reorder what is read is shown as a visible escape (`\\x1b`, `\\u202e`) instead."""

from __future__ import annotations

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROLS = (*range(0x20), *range(0x7F, 0xA0))
_ESCAPES = {code: (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}") for code in (*_CONTROLS, *_BIDI)}
UNSAFE = frozenset(map(chr, _ESCAPES))  # what never reaches the terminal raw


def visible(text: str) -> str:
    """text with each unsafe character replaced by its escape; anything else (any script, any symbol) kept."""
    return text.translate(_ESCAPES)
