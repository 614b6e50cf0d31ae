"""What reaches a terminal or a log: dump text and file names are untrusted (CI artifacts, bug reports), so
every control character that could drive a terminal (C0, DEL, C1) and every bidirectional override that
could reorder what is read is shown as a visible escape (`\\x1b`, `\\u202e`) instead.

A file name is bytes on Linux; one that is not UTF-8 reaches Python with each such byte as a lone surrogate
(PEP 383), which no UTF-8 output can hold. Such a byte is shown as `\\xe9` wherever the name is shown: on the
terminal (visible), in the reports, the index and the summaries (decodable), the same way every time.
"""

from __future__ import annotations

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_CONTROLS = (*range(0x20), *range(0x7F, 0xA0))
_ESCAPES = {code: (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}") for code in (*_CONTROLS, *_BIDI)}
UNSAFE = frozenset(map(chr, _ESCAPES))  # what never reaches the terminal raw
# a byte of a name that is not UTF-8 (U+DC80-U+DCFF for 0x80-0xFF), and any other lone surrogate
_UNDECODABLE = {
    code: f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}" for code in range(0xD800, 0xE000)
}
_UNDECODABLE_IN_JSON = {code: escape.replace("\\", "\\\\") for code, escape in _UNDECODABLE.items()}
_VISIBLE = {**_ESCAPES, **_UNDECODABLE}


def visible(text: str) -> str:
    """text with each unsafe character replaced by its escape, and each byte of a name that is not UTF-8 shown
    as `\\xNN`; anything else (any script, any symbol) kept."""
    return text.translate(_VISIBLE)


def decodable(text: str) -> str:
    """text as UTF-8 can hold it: each byte of a name that is not UTF-8 shown as `\\xNN`, the rest as it is."""
    return text if text.isascii() else text.translate(_UNDECODABLE)


def decodable_json(json_text: str) -> str:
    """JSON text (ensure_ascii=False) as UTF-8 can hold it: in each string, the value decodable() gives."""
    return json_text if json_text.isascii() else json_text.translate(_UNDECODABLE_IN_JSON)
