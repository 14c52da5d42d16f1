"""No leaks at an Очко table, over random sessions of every profile and table size (RULES §20.8 item 4, §20.11
"Views"): what the group reads (the table, the announcements) never names a card the table may not see, and a
hand never names another seat's unsettled card, nor his own dark card.

Seen by the table in a round: the banker's cards, the marker and every hand settled (shown, a dark card too).
Hidden: the players' unsettled cards, the pack and the cards given back unplayed. The check looks for each
hidden card's label in the rendered text."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from bot.games.base import HandStory
from bot.games.ochko.cards import card_text
from bot.games.ochko.game import OCHKO
from bot.i18n import Translations, Translator
from bot.render.keyboard import buttons
from bot.table_settings import TableSettings
from engine.ochko.actions import Action, Leave
from engine.ochko.cards import Card
from engine.ochko.events import BankerDrew, Settled
from engine.ochko.match import Match
from engine.ochko.views import view

TRANSLATIONS = Translations()
NAMES = {seat: f"Игрок{seat}" for seat in range(8)}
CONFIGS = [
    ("ochko", 2, "ru"),
    ("ochko", 4, "ru"),
    ("ochko", 8, "en"),
    ("oczko", 3, "ru"),
    ("oczko", 6, "en"),
    ("ochko1", 3, "ru"),
    ("ochko1", 8, "ru"),
]
SESSIONS = 3
MAX_MOVES = 250


def named(text: str, cards: Iterable[Card], tr: Translator) -> list[Card]:
    return [card for card in cards if card_text(card, tr) in text]


def hidden(match: Match, seen: set[Card]) -> set[Card]:
    """The cards of the round the table has not seen: in the players' hands, the pack, the returned pile."""
    held = {card for hand in match.hands.values() for card in hand}
    return (held | set(match.pack) | set(match.returned)) - seen


def look(match: Match, seen: set[Card]) -> None:
    """What the table sees now joins what it saw this round."""
    seen.update(match.banker_hand)
    if match.marker is not None:
        seen.add(match.marker)
    for hand in match.shown.values():
        seen.update(hand)


@pytest.mark.parametrize(("profile", "players", "language"), CONFIGS)
def test_no_text_names_a_card_its_reader_may_not_see(profile: str, players: int, language: str) -> None:
    tr = TRANSLATIONS.get(language)
    settings = TableSettings(profile=profile, language=language)
    checked = 0
    for number in range(SESSIONS):
        rng = random.Random(f"{profile}-{players}-{number}")
        match = OCHKO.new_match(settings, players, f"leaks-{profile}-{players}-{number}")
        seen: set[Card] = set()
        round_no = match.round_no
        moves = 0
        while not match.finished and moves < MAX_MOVES:
            moves += 1
            seat = match.to_act()
            assert seat is not None
            before = OCHKO.before(match)
            action: Action
            if rng.random() < 0.01 and sum(match.present) > 2:
                action = Leave(rng.choice([s for s in range(players) if match.present[s]]))
            else:
                action = rng.choice(match.legal_actions(seat))
            events = match.apply(action)
            if match.round_no != round_no:
                seen, round_no = set(), match.round_no
            # What the move's announcements tell was seen when told: the settled hands and the banker's cards
            # of the duels it ended (their cards are back on the pile by now).
            told_seen = set(seen)
            for event in events:
                if isinstance(event, Settled):
                    told_seen.update((*event.cards, *event.banker_cards))
                elif isinstance(event, BankerDrew):
                    told_seen.add(event.card)
            look(match, seen)
            seen |= told_seen
            secret = hidden(match, seen)
            group = [OCHKO.table_text(match, NAMES, tr, title="T", settings=settings, deadline_text=None, ended=None)]
            group += OCHKO.announcements(match, events, NAMES, tr, settings=settings, before=before)
            group += OCHKO.deal_story(match, events, NAMES, tr, settings=settings, before=before)
            for text in group:
                assert named(text, secret, tr) == [], (moves, text)
            for each in range(players):
                own = set(view(match, each).seen)
                text, markup = OCHKO.hand(
                    match,
                    each,
                    NAMES,
                    tr,
                    table_id=1,
                    move=moves,
                    title="T",
                    selection="",
                    paused=False,
                    confirm=False,
                    story=HandStory(),
                )
                shown = text + " ".join(str(b["text"]) for b in buttons(markup))
                assert named(shown, secret - own, tr) == [], (moves, each, text)
                checked += 1
    assert checked > 100
