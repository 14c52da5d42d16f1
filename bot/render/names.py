"""People's names as the bot shows them: what a user typed into his profile, made safe to show to others.

A display name is anyone's input. Shown raw, a right-to-left override turns the line around it backwards
(«Аня 3 · Борис 1» read as something else), zero-width characters make two names look alike, and a name of a
thousand characters pushes the table out of a message or an alert past Telegram's 200. So a name is cleaned once,
where it enters the bot (`safe_name`), and every text and alert shows the cleaned one:

- format and control characters go (bidi overrides and embeddings, zero-width spaces and joiners, BOM, soft
  hyphens), and so do characters that draw nothing (the Hangul fillers, the Braille blank); runs of spaces become
  one; a pile of combining marks is cut to two;
- a name with right-to-left letters is isolated (FSI ... PDI), so it cannot reorder the text around it;
- it is at most `MAX_NAME` characters (then «…»); a name with nothing left is «👤» and the end of the user's id.

HTML escaping is the renderer's job, as before (`html.escape` at output).
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME: Final = 32
FSI: Final = "\u2068"  # FIRST STRONG ISOLATE
PDI: Final = "\u2069"  # POP DIRECTIONAL ISOLATE
ZWJ: Final = "\u200d"  # ZERO WIDTH JOINER
_BLANK: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
_DROPPED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_RTL_CLASSES: Final = frozenset({"R", "AL", "AN"})
MAX_MARKS: Final = 2  # combining marks in a row ("Zalgo" text stacks hundreds)


def _kept(char: str) -> bool:
    if char in _BLANK:
        return False
    return unicodedata.category(char) not in _DROPPED_CATEGORIES


def clean_text(raw: str) -> str:
    """Drop what draws nothing or reorders text, fold whitespace, cut stacks of combining marks."""
    out: list[str] = []
    marks = 0
    for char in unicodedata.normalize("NFC", raw):
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        if char == ZWJ:
            # The joiner makes one emoji of several (👨‍👩‍👧); between letters it only hides a difference.
            if out and (unicodedata.category(out[-1]) in ("So", "Sk") or out[-1] == "\ufe0f"):
                out.append(char)
            continue
        if not _kept(char):
            continue
        if unicodedata.category(char) in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(char)
    return "".join(out).strip(" \u200d")


def safe_name(raw: str, user_id: int | None = None) -> str:
    """A display name fit to be shown to others (see the module's docstring)."""
    name = clean_text(raw)
    if len(name) > MAX_NAME:
        name = name[: MAX_NAME - 1].rstrip() + "…"
    if not name:
        return f"👤{str(user_id)[-4:]}" if user_id is not None else "👤"
    if any(unicodedata.bidirectional(char) in _RTL_CLASSES for char in name):
        return f"{FSI}{name}{PDI}"
    return name
