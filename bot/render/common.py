"""Pieces shared by every game's renderers: names, sides, tallies and Telegram's length limit."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Final

from bot.i18n import Translator

MAX_TEXT: Final = 4096  # Telegram's limit for a message text
MAX_ALERT: Final = 200  # Telegram's limit for a tap's answer (a toast or an alert)
ELLIPSIS: Final = "…"


NAMES_KEPT: Final = 4096  # names kept escaped (a picture of a table names its players a dozen times and more)


def name_of(seat: int, names: Mapping[int, str], tr: Translator) -> str:
    """The seat's player name, HTML-escaped (names are user input); «Игрок 3» if the caller has none."""
    name = names.get(seat)
    return _escaped(name) if name else tr.t("seat-name", number=seat + 1)


_escaped = lru_cache(maxsize=NAMES_KEPT)(html.escape)


@lru_cache(maxsize=64)
def separator(tr: Translator, key: str = "tally-separator") -> str:
    """`` · `` (or ``key``'s text, a list's «, »): looked up once per language, as a picture joins its parts with
    it a dozen times."""
    return tr.t(key)


def side_of(seat: int, teams: bool) -> int:
    """A seat's side: in 2x2 play partners sit across the table, 0+2 against 1+3 (RULES §4)."""
    return seat % 2 if teams else seat


def side_seats(side: int, players: int, teams: bool) -> tuple[int, ...]:
    """The seats of a side (see :func:`side_of`)."""
    return tuple(seat for seat in range(players) if side_of(seat, teams) == side)


def side_name(side: int, teams: bool, names: Mapping[int, str], tr: Translator) -> str:
    """A player's name, or in 2x2 play the pair of partners ("Аня и Вика"): seats side and side + 2 (RULES §4)."""
    if teams:
        return tr.t("pair-names", first=name_of(side, names, tr), second=name_of(side + 2, names, tr))
    return name_of(side, names, tr)


def sides_names(sides: Sequence[int], teams: bool, names: Mapping[int, str], tr: Translator) -> tuple[str, int]:
    """The names of several sides ("Аня, Вика") and how many people they are (for the verb's number)."""
    people = len(sides) * (2 if teams else 1)
    return separator(tr, "list-separator").join(side_name(side, teams, names, tr) for side in sides), people


def tally(entries: Sequence[tuple[str, str]], tr: Translator) -> str:
    """``Аня 2 · Борис 1`` from (label, value) pairs."""
    return separator(tr).join(f"{label} {value}" for label, value in entries)


def signed_number(value: int) -> str:
    """``+2``, ``0``, ``−1`` (a true minus sign)."""
    return f"{value:+d}".replace("-", "−") if value else "0"


def clip(text: str, limit: int = MAX_TEXT) -> str:
    """Keep a text within Telegram's limit by dropping its oldest (first) lines; tags never span lines here."""
    if len(text) <= limit:
        return text
    lines = text.split("\n")
    while lines and len(ELLIPSIS) + 1 + sum(len(line) + 1 for line in lines) - 1 > limit:
        lines.pop(0)
    if not lines:  # one enormous line: cut it at a space, which never falls inside a tag here
        return ELLIPSIS + text[-(limit - 1) :].split(" ", 1)[-1]
    return "\n".join([ELLIPSIS, *lines])


_TAG = re.compile(r"<[^<>]*>")


def plain(text: str) -> str:
    """A message text (Telegram HTML) as plain text, for a page that sets it as text (the Mini App's board): tags
    dropped, entities unescaped. Data in a message is escaped (``name_of``), so every ``<`` left is a tag's."""
    return html.unescape(_TAG.sub("", text))


def fit_alert(text: str | None) -> str | None:
    """A tap's answer within Telegram's 200 characters (past them the answer is refused, and the tapper's client
    spins): the texts are written to fit, lists are shortened where they are built (`names_list`), and this
    is the last guard, for a translation that grew."""
    if text is None or len(text) <= MAX_ALERT:
        return text
    return text[: MAX_ALERT - len(ELLIPSIS)].rstrip() + ELLIPSIS


def split_messages(title: str, lines: list[str], more: str) -> list[str]:
    """``title`` and ``lines`` in one message, or in several (each opening with ``more``) where one would pass
    Telegram's limit; a line never splits (no tag spans two lines here)."""
    messages: list[list[str]] = [[title]]
    size = len(title)
    for line in lines:
        line = clip(line, MAX_TEXT - len(more) - 1)
        if size + 1 + len(line) > MAX_TEXT:
            messages.append([more])
            size = len(more)
        messages[-1].append(line)
        size += 1 + len(line)
    return ["\n".join(message) for message in messages]
