"""No leaks, over many random games of every profile: what the group reads never names a hidden card, and a
hand message never names another player's cards.

Hidden, for the group: every card in a hand, in the stock or dead, and every face-down card until the deal's end
reveals it -- except the turned-up trump card and combos shown to the table, which are public. The check looks
for each hidden card's label (without the trump mark, so a marked trump is caught too) in the rendered text.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest

from bot.games.bura import card_button, card_text, cards_text, render_announcements, render_hand, render_table
from bot.games.bura.buttons import HandOp, unpack_cards
from bot.games.bura.moments import Before
from bot.games.bura.settings import Profile, variant
from bot.i18n import Translations, Translator
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.bura.actions import Action, Lead, RespondOpen
from engine.bura.cards import Card
from engine.bura.deal import Deal
from engine.bura.events import ComboShown, DealEnded, DealStarted, Event, Redealt
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.views import TrickView, public_view, view

NAMES = {seat: f"Игрок{seat}" for seat in range(6)}
CONFIGS = [
    (Profile.BURA, 2, "ru"),
    (Profile.BURA, 4, "en"),
    (Profile.BURA_PAGAT, 3, "ru"),
    (Profile.BURA_RU_WIKI, 3, "ru"),
    (Profile.BURKOZEL, 3, "ru"),
    (Profile.BURKOZEL, 4, "en"),
    (Profile.KOZEL, 5, "ru"),
    (Profile.BURA_5, 2, "ru"),
    (Profile.KOZEL_POINTS, 4, "ru"),
]
GAMES = 4
MAX_ACTIONS = 150


def leaked(text: str, hidden: Iterable[Card], tr: Translator) -> list[Card]:
    return [card for card in hidden if card_text(card, tr) in text]


def public(deal: Deal) -> set[Card]:
    """The cards anyone may name: the turned-up trump card and the combos shown in this window."""
    return {deal.trump_card, *(card for held in deal.shown for card in held.cards)}


def face_down(deal: Deal, but_seat: int | None = None) -> set[Card]:
    """Face-down cards in the piles and on the table (those played by ``but_seat`` excepted)."""
    cards = {entry.card for pile in deal.piles for entry in pile if entry.face_down and entry.played_by != but_seat}
    if deal.trick is not None:
        for play in deal.trick.plays:
            if play.face_down and play.seat != but_seat:
                cards.update(play.cards)
    return cards


def hidden_from_group(deal: Deal) -> set[Card]:
    held = {card for hand in deal.hands.values() for card in hand}
    return (held | set(deal.stock) | set(deal.dead) | face_down(deal)) - public(deal)


def hidden_from_seat(deal: Deal, seat: int) -> set[Card]:
    others = {card for other, hand in deal.hands.items() if other != seat for card in hand}
    return (others | set(deal.stock) | set(deal.dead) | face_down(deal, but_seat=seat)) - public(deal)


def segments(events: Sequence[Event]) -> list[list[Event]]:
    """The events cut where a new deal is dealt: the first part belongs to the deal the move was made in."""
    parts: list[list[Event]] = [[]]
    for event in events:
        if isinstance(event, DealStarted | Redealt) and parts[-1]:
            parts.append([])
        parts[-1].append(event)
    return parts


def revealed(part: Sequence[Event]) -> set[Card]:
    """Cards that these events show to everybody: shown combos, and every pile at the end of the deal."""
    cards: set[Card] = set()
    for event in part:
        if isinstance(event, ComboShown):
            cards.update(event.cards)
        elif isinstance(event, DealEnded):
            cards.update(entry.card for pile in event.piles for entry in pile)
    return cards


def opened_by(action: Action) -> set[Card]:
    return set(action.cards) if isinstance(action, Lead | RespondOpen) else set()


def check_table(match: Match, tr: Translator, settings: TableSettings) -> None:
    text = render_table(public_view(match), NAMES, tr, title="t", settings=settings, deadline_text="0:30")
    assert not leaked(text, hidden_from_group(match.deal), tr), text


def check_hands(match: Match, tr: Translator) -> None:
    for seat in match.deal.seats:
        seat_view = view(match, seat)
        # Select the whole hand, so that every card shows in its marked form too.
        text, markup = render_hand(seat_view, NAMES, tr, table_id=1, move=1, title="t", selection=seat_view.hand)
        assert not leaked(text, hidden_from_seat(match.deal, seat), tr), (seat, text)
        own = set(match.deal.hands[seat])
        for row in markup["inline_keyboard"]:
            for button in row:
                assert not leaked(button["text"], hidden_from_seat(match.deal, seat), tr)
                callback = HandCb.unpack(button["callback_data"])
                assert set(unpack_cards(callback.cards)) <= own
                if callback.op == HandOp.TOGGLE:
                    assert any(card_text(card, tr) in button["text"] for card in own)


def check_announcements(
    events: Sequence[Event],
    hidden_before: set[Card],
    match: Match,
    tr: Translator,
    settings: TableSettings,
    final_trick: TrickView | None = None,
) -> None:
    parts = segments(events)
    for index, part in enumerate(parts):
        if index == 0 and not isinstance(part[0], DealStarted | Redealt):
            hidden = hidden_before - revealed(part)
            trick = final_trick  # the trick that ended the deal is told with its result
        elif index == len(parts) - 1 and any(isinstance(event, DealStarted) for event in part):
            hidden = hidden_from_group(match.deal) - revealed(part)  # the deal now on the table
            trick = None
        else:
            continue  # a deal that began and ended within this move (a dealt combo): its hands are gone
        texts = render_announcements(part, NAMES, tr, teams=match.teams, settings=settings, final_trick=trick)
        for text in texts:
            assert not leaked(text, hidden, tr), (part, text)


@pytest.mark.parametrize(("profile", "players", "language"), CONFIGS)
def test_no_group_text_and_no_hand_shows_a_hidden_card(profile: Profile, players: int, language: str) -> None:
    tr = Translations().get(language)
    settings = TableSettings(profile=profile, language=language)
    rng = random.Random(f"leaks/{profile}/{players}")
    checked = 0
    for game in range(GAMES):
        match = Match(variant(settings), players, f"leaks/{profile}/{players}/{game}")
        check_announcements(match.start_events, set(), match, tr, settings)
        for _ in range(MAX_ACTIONS):
            if match.finished:
                break
            check_table(match, tr, settings)
            check_hands(match, tr)
            deal = match.deal
            hidden_before = hidden_from_group(deal)
            before = Before.of(match)
            action = random_step(match, rng)
            events = match.apply(action)
            final_trick = before.final_trick(match)
            check_announcements(events, hidden_before - opened_by(action), match, tr, settings, final_trick)
            checked += 1
        check_table(match, tr, settings)
    assert checked > 100


def test_the_leak_check_catches_a_leak() -> None:
    """The checks above must be able to fail: a hand's cards, marked as trumps or not, are caught."""
    tr = Translations().get("ru")
    match = Match(variant(TableSettings()), 2, "catch")
    deal = match.deal
    other = deal.hands[1]
    hidden = hidden_from_group(deal)
    assert set(other) - public(deal) <= hidden
    assert leaked(" ".join(card_button(card, tr, deal.trump) for card in other), hidden, tr)
    assert leaked(cards_text(other, tr), hidden_from_seat(deal, 0), tr)
    assert not leaked(cards_text(other, tr), hidden_from_seat(deal, 1), tr)
