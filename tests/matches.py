"""Tests read a stored table's match as its own game's: a checked downcast (the bot never needs one; a test
that asks a Bura table for its deal does)."""

from __future__ import annotations

from engine.bura.match import Match as BuraMatch
from engine.buraco.match import Match as BuracoMatch
from engine.ochko.match import Match as OchkoMatch


def bura_match(match: object) -> BuraMatch:
    assert isinstance(match, BuraMatch), match
    return match


def buraco_match(match: object) -> BuracoMatch:
    assert isinstance(match, BuracoMatch), match
    return match


def ochko_match(match: object) -> OchkoMatch:
    assert isinstance(match, OchkoMatch), match
    return match
