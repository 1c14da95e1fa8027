"""Neutralise text for a terminal: database values are data, never terminal commands.

A card name (or any value) holding ``ESC ] 0 ; title BEL`` would retitle the window, ``ESC [ 2 J``
clear the screen, a carriage return overwrite the line, a bidi override reorder what follows.
Every C0/C1 control character (except the line breaks :func:`safe_text` keeps), DEL and the
Unicode bidi embedding/override/isolate controls are shown as visible escapes (``\\x1b``, ``\\u202e``).
"""

from __future__ import annotations

import re

_CONTROLS = "\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
_TEXT_UNSAFE = re.compile(f"[{_CONTROLS}]")
_CELL_UNSAFE = re.compile(f"[{_CONTROLS}\t\n]")


def _visible(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def safe_text(text: str) -> str:
    """``text`` with every control character but newline and tab made visible (multi-line output)."""
    return _TEXT_UNSAFE.sub(_visible, text.replace("\r\n", "\n"))


def safe_cell(text: str) -> str:
    """``text`` for one table cell: every control character, newlines and tabs included, made visible."""
    return _CELL_UNSAFE.sub(_visible, text)
