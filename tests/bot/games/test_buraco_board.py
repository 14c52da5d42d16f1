"""Buraco's table as the Mini App draws it (bot/games/buraco/web.py, issue 40): the keyboard's own buttons, the
whole pile, the runs with their wild cards, the engine's refusals, and no card a viewer may not see."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games.board import Board
from bot.games.buraco.buttons import Op
from bot.games.buraco.cards import card_text
from bot.games.buraco.game import BURACO
from bot.games.buraco.moves import BY_RANK, Selection, display
from bot.i18n import Translations, Translator
from bot.render.keyboard import buttons
from bot.render.reasons import reason_text
from bot.telegram.callbacks import HandCb
from engine.buraco.actions import AddToRun, DrawStock, NewRun
from engine.buraco.cards import KINDS, Card
from engine.buraco.deal import Phase
from engine.buraco.errors import Reason
from engine.buraco.match import Match
from engine.core.cards import Suit
from tests.bot.games.boards import board_of, keyboard_of
from tests.engine.buraco.stack import lay, position, run

NAMES = {0: "Аня", 1: "<b>Борис</b>", 2: "Вика & Ко", 3: "Гена"}


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


def draw(match: Match, seat: int | None, tr: Translator, selection: str = "", **options: Any) -> Board:
    return board_of(BURACO, match, seat, NAMES, tr, selection=selection, **options)


def keyboard_buttons(match: Match, seat: int, tr: Translator, selection: str = "") -> list[tuple[str, str]]:
    markup = keyboard_of(BURACO, match, seat, NAMES, tr, selection=selection)
    return [(str(each["text"]), str(each["callback_data"])) for each in buttons(markup)]


def assert_the_keyboards(match: Match, seat: int, tr: Translator, selection: str = "") -> Board:
    """The board's hand and moves are the keyboard's buttons: its card toggles, and its other buttons but 🔄."""
    board = draw(match, seat, tr, selection)
    keys = keyboard_buttons(match, seat, tr, selection)
    toggles = [(text, data) for text, data in keys if HandCb.unpack(data).op == Op.TOGGLE]
    others = [(text, data) for text, data in keys if HandCb.unpack(data).op not in (Op.TOGGLE, Op.REFRESH)]
    assert [card.data for card in board.hand] == [data for _, data in toggles]
    assert [(action.text, action.data) for action in board.actions] == others
    order = selection[:1] if selection[:1] == BY_RANK else "s"
    shown = display(match.deal.hands[seat], order)
    assert [card.face.code for card in board.hand] == [card.code for card in shown]
    assert [card.marked for card in board.hand] == [text.startswith("✅") for text, _ in toggles]
    return board


def at_meld(hand: str, seat: int = 0, pile: str = "", phase: Phase = Phase.MELD) -> Match:
    match = Match(seed=3, first_dealer=3)
    position(match.deal, seat, hand, phase=phase, pile=pile)
    return match


def marking(match: Match, seat: int, *codes: str, order: str = "s") -> str:
    shown = display(match.deal.hands[seat], order)
    places: set[int] = set()
    for code in codes:
        places.add(next(i for i, c in enumerate(shown) if c.code == code and i not in places))
    return Selection(order, frozenset(places)).pack()


def pile_of(board: Board, key: str) -> Any:
    return next(pile for section in board.sections for pile in section.piles if pile.key == key)


def test_the_hand_and_the_moves_are_the_keyboards_buttons(ru: Translator) -> None:
    match = at_meld("3H 4H 5H 6H 9C KD JK")
    lay(match.deal, 0, run("TC JC QC", Suit.CLUBS, 10))
    board = assert_the_keyboards(match, 0, ru)
    assert not any(HandCb.unpack(action.data).op == Op.MELD for action in board.actions)
    assert [HandCb.unpack(action.data).op for action in board.actions] == [Op.SORT]
    # marking cards that make a run: a meld appears, as on the keyboard
    selection = marking(match, 0, "3H", "4H", "5H")
    board = assert_the_keyboards(match, 0, ru, selection)
    melds = [action for action in board.actions if HandCb.unpack(action.data).op == Op.MELD]
    assert len(melds) == 1 and "3♥️ 4♥️ 5♥️" in melds[0].text
    assert [card.face.code for card in board.hand if card.marked] == ["3H", "4H", "5H"]
    # a joker: two ways to lay it, an addition to the pair's run, a discard of one card; by rank too
    assert_the_keyboards(match, 0, ru, marking(match, 0, "3H", "4H", "JK"))
    assert_the_keyboards(match, 0, ru, marking(match, 0, "9C"))
    added = assert_the_keyboards(match, 0, ru, marking(match, 0, "KD", "9C"))
    assert not any(HandCb.unpack(action.data).op == Op.ADD for action in added.actions)
    assert_the_keyboards(match, 0, ru, marking(match, 0, "6H", "JK", order=BY_RANK))
    assert_the_keyboards(match, 0, ru, "garbage")  # a selection no button carries: none marked, as the hand


def test_the_draw_and_the_first_card_are_the_keyboards_buttons(ru: Translator) -> None:
    match = at_meld("3H 9D", seat=1, pile="KS 7H", phase=Phase.DRAW)
    board = assert_the_keyboards(match, 1, ru)
    assert {HandCb.unpack(action.data).op for action in board.actions} == {Op.STOCK, Op.PILE, Op.SORT}
    # RULES §17.7a-1: the deal's first card, seen by the one who drew it, kept or rejected
    first = Match(seed=11)
    seat = first.to_act()
    assert seat is not None
    first.apply(DrawStock(seat))
    board = assert_the_keyboards(first, seat, ru)
    drawn = first.deal.drawn
    assert drawn is not None
    assert pile_of(board, "drawn").cards[0].code == drawn.code
    assert {HandCb.unpack(action.data).op for action in board.actions} == {Op.KEEP, Op.REJECT, Op.SORT}
    for other in (None, *(s for s in range(4) if s != seat)):
        assert all(pile.key != "drawn" for section in draw(first, other, ru).sections for pile in section.piles)


def test_the_pile_shows_all_its_cards_top_last(ru: Translator) -> None:
    codes = "KS 7H 2C 9D 9D TS JK 3C 4C 5C AH QD QH 8S 6D"  # longer than the hand's text shows
    match = at_meld("3H 4H", pile=codes)
    for seat in (None, 0, 1):
        pile = pile_of(draw(match, seat, ru), "pile")
        assert [face.code for face in pile.cards] == codes.split()
        assert pile.layout == "fan"
    joker = pile_of(draw(match, None, ru), "pile").cards[6]
    assert (joker.rank, joker.suit, joker.wild) == ("🃏", "", False)
    stock = pile_of(draw(match, None, ru), "stock")
    assert stock.count == len(match.deal.stock) and stock.cards == ()


def test_runs_show_their_wild_cards(ru: Translator) -> None:
    match = at_meld("9C KD")
    lay(match.deal, 0, run("3H 4H JK 6H 7H 8H 9H", Suit.HEARTS, 3), run("AS 2S 3S", Suit.SPADES, 1))
    lay(match.deal, 1, run("2D 5C 6C", Suit.CLUBS, 4))
    board = draw(match, None, ru)
    dirty = pile_of(board, "run-0-0")
    assert [face.code for face in dirty.cards] == ["3H", "4H", "JK", "6H", "7H", "8H", "9H"]
    assert [face.wild for face in dirty.cards] == [False, False, True, False, False, False, False]
    assert dirty.cards[2].note == "→5" and dirty.layout == "run"
    assert dirty.note == "грязная канастра · +100"
    natural = pile_of(board, "run-0-1")  # a two in its own place is no substitute (RULES §17.4)
    assert [face.wild for face in natural.cards] == [False, False, False] and natural.note is None
    assert [(face.rank, face.suit) for face in natural.cards] == [("Т", "S"), ("2", "S"), ("3", "S")]
    wild_two = pile_of(board, "run-1-0")
    assert [face.wild for face in wild_two.cards] == [True, False, False] and wild_two.cards[0].note == "→4"
    titles = {section.key: section.title for section in board.sections}
    assert titles["runs-0"] == "Аня и Вика & Ко" and titles["runs-1"] == "<b>Борис</b> и Гена"  # plain: as typed
    english = draw(match, None, Translations().get("en"))
    assert pile_of(english, "run-0-0").note == "dirty canastra · +100"
    assert english.title == "Buraco · deal 1"


def test_a_refusal_is_said_in_the_status(ru: Translator) -> None:
    match = at_meld("3H 4H 5H 6H 9C KD")
    why = "Так нельзя: " + reason_text(Reason.NOT_SAME_SUIT, ru)
    selection = marking(match, 0, "3H", "9C", "KD")
    board = draw(match, 0, ru, selection, refusal=Reason.NOT_SAME_SUIT)
    assert board.status.count(why) == 1
    assert all("<" not in line and "&" not in line for line in board.status)
    waiting = draw(match, 1, ru, refusal=Reason.NOT_YOUR_TURN)  # said at any moment, not only at the melds
    assert "Так нельзя: " + reason_text(Reason.NOT_YOUR_TURN, ru) in waiting.status
    assert "Ходит Аня." in waiting.status
    # marks that make no move say why, as the hand's text says it
    said = draw(match, 0, ru, marking(match, 0, "9C", "KD", "3H"))
    assert any(line.startswith("Так нельзя: ") for line in said.status)


def test_an_opening_draft_is_shown_to_the_one_laying_it_alone(ru: Translator) -> None:
    # RULES §17.5: a vulnerable pair's first melds are a draft, not on the table until they reach 75.
    match = at_meld("8C 9C KD QS")
    match.deal.vulnerable = (True, False)
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))
    match.deal.opened[0] = False  # laid this turn: a draft of 15 points
    match.deal._legal = None
    board = assert_the_keyboards(match, 0, ru, marking(match, 0, "KD"))
    draft = pile_of(board, "run-0-0")
    assert [face.code for face in draft.cards] == ["3H", "4H", "5H"] and draft.note == "выкладка, ещё не на столе"
    assert ru.t("buraco-draft", points=15, needed=75) in board.status
    assert any(HandCb.unpack(action.data).op == Op.CANCEL for action in board.actions)
    assert board.seats[0].lines[1] == "Очки пары: 0 · уязвимы"
    for other in (None, 1, 2, 3):
        runs = next(section for section in draw(match, other, ru).sections if section.key == "runs-0")
        assert runs.piles == ()


def test_the_seats_the_title_the_score_and_a_pause(ru: Translator) -> None:
    match = at_meld("3H 4H 5H 6H 9C KD", seat=2)
    board = draw(match, 2, ru)
    assert board.game == "buraco" and board.title == "Бурако · сдача 1"
    assert [seat.name for seat in board.seats] == ["Аня", "<b>Борис</b>", "Вика & Ко", "Гена"]
    assert [seat.you for seat in board.seats] == [False, False, True, False]
    assert [seat.acting for seat in board.seats] == [False, False, True, False]
    assert [seat.cards for seat in board.seats] == [len(hand) for hand in match.deal.hands]
    assert board.seats[0].lines[0] == "Партнёр: Вика & Ко"
    assert board.score[1] == "Счёт: Аня и Вика & Ко 0 · <b>Борис</b> и Гена 0"
    mortos = [pile_of(board, f"morto-{side}") for side in (0, 1)]
    assert [(morto.layout, morto.count, morto.cards) for morto in mortos] == [("stack", 11, ())] * 2
    paused = draw(match, 2, ru, paused=True)
    assert paused.hand == () and paused.actions == () and paused.status
    spectator = draw(match, None, ru)
    assert spectator.hand == () and spectator.actions == () and not any(seat.you for seat in spectator.seats)
    assert spectator.status == ("Ходит Вика & Ко.",)
    json.dumps(board.to_json())


# -- what a viewer may see -------------------------------------------------------------------------------------


def codes_in(data: object) -> Iterator[str]:
    """Every card code a board's JSON names."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "code" and isinstance(value, str):
                yield value
            else:
                yield from codes_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from codes_in(value)


def texts_in(data: object) -> Iterator[str]:
    """Every text a board's JSON carries but the card codes and the buttons' data."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key not in ("code", "data"):
                yield from texts_in(value)
    elif isinstance(data, list):
        for value in data:
            yield from texts_in(value)
    elif isinstance(data, str):
        yield data


def visible(match: Match, seat: int | None) -> Counter[Card]:
    """What ``seat`` may see of the deal (RULES §17.2), read from the deal itself, not from a view: the pile and
    the runs on the table; a seat his own hand, his pair's draft on his turn and the first card he drew."""
    deal = match.deal
    seen = Counter(deal.pile)
    for side in (0, 1):
        seen.update(card for meld in deal.table_runs(side) for card in meld.cards)
    if seat is not None:
        seen.update(deal.hands[seat])
        side = deal.side_of(seat)
        if seat == deal.turn and deal.drafting(side):
            seen.update(card for meld in deal.runs[side] for card in meld.cards)
        if seat == deal.turn and deal.drawn is not None:
            seen[deal.drawn] += 1  # in his hand and shown apart as the first card (§17.7a-1)
    return seen


def assert_shows_only_what_it_may(match: Match, seat: int | None, tr: Translator, selection: str = "") -> None:
    board = draw(match, seat, tr, selection)
    data = board.to_json()
    json.loads(json.dumps(data))
    seen = visible(match, seat)
    named = Counter(Card.parse(code) for code in codes_in(data))
    assert named <= seen, (seat, named - seen)
    kinds = set(seen)
    words = "\n".join(texts_in(data))
    for kind in KINDS:
        if card_text(kind, tr) in words:
            assert kind in kinds, (seat, kind)
    for section in board.sections:
        for pile in section.piles:
            if pile.key == "stock" or pile.key.startswith("morto-"):
                assert pile.cards == ()


def play(seed: int) -> Iterator[Match]:
    """A random one-deal match, melds played more often than chance would (so runs, canastras and mortos come),
    stopping at every step."""
    rng = random.Random(seed)
    match = Match(seed=seed, target=1)
    while not match.finished:
        yield match
        seat = match.to_act()
        assert seat is not None
        legal = match.legal_actions(seat)
        melds = [a for a in legal if isinstance(a, (NewRun, AddToRun))]
        match.apply(rng.choice(melds) if melds and rng.random() < 0.8 else rng.choice(legal))
    yield match


def test_no_board_names_a_card_its_viewer_may_not_see(ru: Translator) -> None:
    rng = random.Random(40)
    moments = 0
    for seed in range(6):
        for step, match in enumerate(play(seed)):
            if step > 6 and step % 9 and not match.finished:
                continue
            moments += 1
            for seat in (None, 0, 1, 2, 3):
                assert_shows_only_what_it_may(match, seat, ru)
            seat = match.to_act()
            if seat is not None:
                hand = match.deal.hands[seat]
                marks = frozenset(rng.sample(range(len(hand)), min(len(hand), rng.randint(1, 4))))
                selection = Selection(rng.choice("sr"), marks).pack()
                assert_shows_only_what_it_may(match, seat, ru, selection)
                assert_the_keyboards(match, seat, ru, selection)
    assert moments > 150


def disguised(match: Match, seat: int | None, rng: random.Random) -> Match:
    """The match with the cards ``seat`` cannot see (the others' hands, the stock, the mortos) shuffled among
    their places."""
    twin = copy.deepcopy(match)
    deal = twin.deal
    hidden_hands = [s for s in range(4) if s != seat]
    hidden = [card for s in hidden_hands for card in deal.hands[s]] + deal.stock
    hidden += [card for morto in deal.mortos for card in morto]
    rng.shuffle(hidden)
    for s in hidden_hands:
        size = len(deal.hands[s])
        deal.hands[s], hidden = hidden[:size], hidden[size:]
    deal.stock, hidden = hidden[: len(deal.stock)], hidden[len(deal.stock) :]
    for morto in deal.mortos:
        morto[:], hidden = hidden[: len(morto)], hidden[len(morto) :]
    deal._legal = None
    return twin


def test_a_board_is_the_same_whatever_its_viewer_cannot_see(ru: Translator) -> None:
    rng = random.Random(7)
    changed = 0
    for seed in range(3):
        for step, match in enumerate(play(100 + seed)):
            if step % 23 or match.deal.phase is Phase.FIRST_CHOICE:
                continue
            for seat in (None, 0, 1, 2, 3):
                twin = disguised(match, seat, rng)
                changed += twin.deal.hands != match.deal.hands
                assert draw(twin, seat, ru).to_json() == draw(match, seat, ru).to_json()
    assert changed > 10
