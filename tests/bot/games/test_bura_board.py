"""The Bura family's board (issue 40): the Mini App's table, built from the seat's view only, its cards and moves
the private hand keyboard's own buttons (the same ``HandCb`` data), its texts plain."""

from __future__ import annotations

import html
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games.board import Action, Board, Face
from bot.games.bura.buttons import HandOp, unpack_cards
from bot.games.bura.cards import card_text
from bot.games.bura.game import BURA
from bot.games.bura.settings import Profile, variant
from bot.i18n import Translations, Translator
from bot.render.common import plain
from bot.render.keyboard import Keyboard, buttons
from bot.table_settings import TableSettings
from bot.telegram.callbacks import HandCb
from engine.bura.actions import DeclareCombo, Lead, RespondFaceDown
from engine.bura.cards import Card, cards, deck
from engine.bura.combos import Combo
from engine.bura.errors import Reason
from engine.bura.match import Match
from engine.bura.players import random_step
from engine.bura.variant import BURA_STANDARD, Discards
from engine.bura.views import PublicView, SeatView, public_view, view
from tests.bot.games.boards import MOVE, TABLE_ID, board_of, keyboard_of
from tests.bot.render.conftest import claim_match, molodka_match, worked_match
from tests.bot.test_render_leaks import CONFIGS, hidden_from_group
from tests.engine.bura.stack import stacked_match

NAMES = {0: "Аня", 1: "Борис <b>&", 2: "Вика", 3: "Гена"}  # a name is user input: the board shows it as typed
GAMES = 2
MAX_ACTIONS = 150


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


@pytest.fixture(scope="module")
def en() -> Translator:
    return Translations().get("en")


def draw(match: Match, seat: int | None, tr: Translator, selection: str = "", **options: Any) -> Board:
    return board_of(BURA, match, seat, NAMES, tr, selection=selection, **options)


def keyboard(match: Match, seat: int, tr: Translator, selection: str = "", **options: Any) -> Keyboard:
    return keyboard_of(BURA, match, seat, NAMES, tr, selection=selection, **options)


def data(op: HandOp, codes: str = "") -> str:
    return HandCb.data(TABLE_ID, MOVE, op, codes)


def assert_like_the_keyboard(match: Match, seat: int, tr: Translator, selection: str = "", **options: Any) -> Board:
    """The board's card taps are the keyboard's card buttons (a toggle naming its card), in order; its actions are
    the keyboard's other buttons but 🔄, with the same text and data."""
    board = draw(match, seat, tr, selection, **options)
    markup = keyboard(match, seat, tr, selection, **options)
    hand = view(match, seat).hand
    if options.get("paused"):
        assert (board.hand, board.actions) == ((), ())
        return board
    assert sorted(card.face.code or "" for card in board.hand) == sorted(card.code for card in hand)
    pressed = [(each["text"], each["callback_data"]) for each in buttons(markup)]
    cards_pressed = [
        (text, tap)
        for text, tap in pressed
        if HandCb.unpack(tap).op == HandOp.TOGGLE and any(card_text(card, tr) in text for card in hand)
    ]
    assert [card.data for card in board.hand if card.data is not None] == [tap for _, tap in cards_pressed]
    for card in board.hand:  # a card's tap is its own button (the card's label on it)
        if card.data is not None:
            label = next(text for text, tap in cards_pressed if tap == card.data)
            assert card_text(Card.parse(card.face.code or ""), tr) in label
    others = [
        Action(text, tap)
        for text, tap in pressed
        if (text, tap) not in cards_pressed and HandCb.unpack(tap).op != HandOp.REFRESH
    ]
    assert list(board.actions) == others
    assert {card.face.code for card in board.hand if card.marked} == {
        card.code for card in unpack_cards(selection) if card in hand
    }
    return board


def test_a_seats_cards_and_moves_are_the_keyboards(ru: Translator) -> None:
    match = worked_match()
    board = assert_like_the_keyboard(match, 0, ru)
    assert board.actions == ()  # nothing marked: no move yet (and no 🔄: the page has no need of it)
    assert [card.data for card in board.hand] == [data(HandOp.TOGGLE, code) for code in ("7S", "QS", "AH")]
    assert not any(card.marked for card in board.hand)
    board = assert_like_the_keyboard(match, 0, ru, "QS7S")  # a legal lead marked: its button appears
    assert [card.marked for card in board.hand] == [True, True, False]
    assert board.actions == (Action("Ходить (2)", data(HandOp.PLAY, "7SQS")),)
    assert [card.data for card in board.hand] == [
        data(HandOp.TOGGLE, "QS"),  # a tap unmarks the card: the selection after it
        data(HandOp.TOGGLE, "7S"),
        data(HandOp.TOGGLE, "7SQSAH"),
    ]
    board = assert_like_the_keyboard(match, 0, ru, "QS")
    assert board.actions == (Action("Ходить (1)", data(HandOp.PLAY, "QS")),)
    assert "Можно отметить ещё 1 карту — или ходите отмеченными." in board.status


def test_an_answer_a_combo_a_forced_lead_and_a_claim_are_the_keyboards(ru: Translator, en: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    board = assert_like_the_keyboard(match, 1, ru, "9DJS")
    assert [action.text for action in board.actions] == ["Бить (2 из 2)", "Сбросить втёмную"]
    assert_like_the_keyboard(match, 1, en, "6H")
    assert_like_the_keyboard(match, 2, ru)  # waiting: cards to mark, no move

    match = molodka_match()
    board = assert_like_the_keyboard(match, 1, ru)
    assert board.actions == (
        Action("Стоп! (молодка)", data(HandOp.COMBO)),
        Action("Не объявлять", data(HandOp.PASS)),
    )
    match.apply(DeclareCombo(1, Combo.MOLODKA))
    board = assert_like_the_keyboard(match, 1, ru)
    assert [card.data for card in board.hand] == [None, None, None]  # a forced lead marks nothing
    assert board.actions == (Action("Зайти молодкой 6♥️ 7♥️ 8♥️", data(HandOp.PLAY, "6H7H8H")),)
    shown = next(pile for pile in board.sections[0].piles if pile.key == "shown-1")
    assert [face.code for face in shown.cards] == ["6H", "7H", "8H"]

    match = claim_match()
    board = assert_like_the_keyboard(match, 0, ru)
    assert board.actions[-1] == Action("Вскрываюсь!", data(HandOp.CLAIM_ASK))
    marked = view(match, 0).hand[0].code
    board = assert_like_the_keyboard(match, 0, ru, marked, confirm=True)
    assert board.actions == (
        Action("✅ Вскрываюсь", data(HandOp.CLAIM)),
        Action("Отмена", data(HandOp.TOGGLE, marked)),  # back to the marks
    )
    assert all(card.data is None for card in board.hand)  # the question first
    assert board.status == ("Вскрыться? Взяток: 1. Если в них меньше 31 очка, сдача проиграна.",)
    assert_like_the_keyboard(match, 0, ru, paused=True)


def test_a_refusal_shows_its_reason(ru: Translator, en: Translator) -> None:
    match = worked_match()
    board = draw(match, 0, ru, "QSAH")
    assert "Эти карты так не сыграть." in board.status
    board = draw(match, 0, ru, "QSAH", refusal=Reason.MIXED_SUITS)
    assert "Заходить можно только картами одной масти." in board.status
    assert board.actions == ()
    board = draw(match, 0, en, "QSAH", refusal=Reason.MIXED_SUITS)
    assert "A lead must be of one suit." in board.status


def test_a_paused_table_and_a_spectator_get_no_hand_and_no_move(ru: Translator) -> None:
    match = worked_match()
    board = draw(match, 0, ru, "QS7S", paused=True)
    assert (board.hand, board.actions) == ((), ())
    assert board.status == ("⏸ Игра на паузе: бот не может писать в группе.",)
    spectator = draw(match, None, ru)
    assert (spectator.hand, spectator.actions) == ((), ())
    assert spectator.status == ("Ходит Аня.",)
    assert not any(box.you for box in spectator.seats)
    assert [box.acting for box in spectator.seats] == [True, False, False]
    assert [box.you for box in draw(match, 1, ru).seats] == [False, True, False]


def test_the_table_its_seats_and_lines(ru: Translator, en: Translator) -> None:
    match = worked_match()
    match.apply(Lead(0, cards("QS 7S")))
    board = draw(match, 2, ru)
    assert board.game == "bura"
    assert board.title == "Бура · сдача 1 · матч до 21 победы"
    assert [box.name for box in board.seats] == ["Аня", "Борис <b>&", "Вика"]  # plain: as typed
    assert [box.cards for box in board.seats] == [1, 3, 3]
    assert board.seats[2].lines == ("сдаёт", "взяток: 0", "счёт матча: 0")
    assert board.seats[1].acting
    table = board.sections[0]
    assert (table.key, table.title) == ("table", "На столе")
    trump, stock, trick = table.piles
    assert (trump.key, trump.title, trump.cards, trump.note) == (
        "trump",
        "Козырь — бубны ♦️",
        (Face("7D", "7", "D"),),
        None,
    )
    stock_size = 36 - 3 * 3  # the trump card under the stock is of it
    assert (stock.key, stock.layout, stock.count, stock.cards) == ("stock", "stack", stock_size, ())
    assert trick.key == "trick"
    assert trick.title == "Взятка 1"
    assert trick.cards == (Face("QS", "Д", "S", note="Аня"), Face("7S", "7", "S", note="Аня"))
    assert trick.note == "отвечает Борис <b>& · пока берёт Аня"
    assert board.status == ("Отвечает Борис <b>&.",)
    assert board.score == ("Взятки: Аня 0 · Борис <b>& 0 · Вика 0", "Матч: Аня 0 · Борис <b>& 0 · Вика 0")
    english = draw(match, 0, en)
    assert english.title == "Bura · deal 1 · match to 21 wins"
    assert english.sections[0].piles[2].cards[0] == Face("QS", "Q", "S", note="Аня")
    for text in _texts(board.to_json()):
        assert "<b>" not in text or "Борис <b>&" in text
        assert "&lt;" not in text and "&amp;" not in text


def test_a_face_down_answer_is_hidden_but_from_its_player(ru: Translator) -> None:
    match = stacked_match(BURA_STANDARD, [{"hands": {0: "AS TS KS", 1: "TC 7H 8C"}, "trump": "9D"}], dealer=1)
    match.apply(Lead(0, cards("AS TS KS")))
    match.apply(RespondFaceDown(1, cards("TC 7H 8C")))
    history = {seat: _pile(draw(match, seat, ru), "history", "trick-1") for seat in (None, 0, 1)}
    assert history[None].cards[3:] == (Face(None, note="Борис <b>&"),) * 3
    assert history[None].note == "берёт Аня"
    assert history[0].cards == history[None].cards  # the taker may not look (RULES §6.6)
    assert history[1].cards[3:] == tuple(
        Face(code, rank, "C" if code.endswith("C") else "H", note="Борис <b>&, втёмную")
        for code, rank in (("TC", "10"), ("7H", "7"), ("8C", "8"))
    )
    assert history[1].layout == "row"
    board = draw(match, 0, ru)
    assert board.seats[0].lines == ("взяток: 1", "счёт матча: 0")
    assert board.seats[1].lines == ("сдаёт", "взяток: 0", "счёт матча: 0")


def test_a_drawn_trump_card_says_who_holds_it(ru: Translator) -> None:
    rng = random.Random(3)
    match = Match(BURA_STANDARD, 2, "trump-drawn")
    while not match.finished and public_view(match).trump_card_holder is None and match.deal_number == 1:
        match.apply(random_step(match, rng))
    table = public_view(match)
    assert table.trump_card_holder is not None, "a deal of Бура draws its stock out"
    trump = _pile(draw(match, None, ru), "table", "trump")
    assert trump.note == f"у игрока {NAMES[table.trump_card_holder]}"
    assert trump.cards[0].code == table.trump_card.code


def test_plain_text_drops_the_tags_and_keeps_a_name_as_typed() -> None:
    assert plain("<b>Взятка 3</b> · " + html.escape("Борис <b>&")) == "Взятка 3 · Борис <b>&"
    assert plain('🃏 <a href="https://t.me/x">стол</a>') == "🃏 стол"


def _pile(board: Board, section: str, key: str) -> Any:
    return next(pile for each in board.sections if each.key == section for pile in each.piles if pile.key == key)


def _texts(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for each in value.values():
            yield from _texts(each)
    elif isinstance(value, list | tuple):
        for each in value:
            yield from _texts(each)


def _codes(value: object) -> set[str]:
    """Every card the board's JSON names: faces' codes and the cards a tap would send."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, each in value.items():
            if key == "code" and isinstance(each, str):
                found.add(each)
            elif key == "data" and isinstance(each, str):
                found.update(card.code for card in unpack_cards(HandCb.unpack(each).cards))
            else:
                found |= _codes(each)
    elif isinstance(value, list | tuple):
        for each in value:
            found |= _codes(each)
    return found


def visible(table: PublicView, seat_view: SeatView | None = None) -> set[str]:
    """The cards a view shows: the turned-up trump card, combos shown, open (or seen) cards of the tricks, and
    the seat's own hand."""
    seen: set[Card] = {table.trump_card, *(card for shown in table.shown for card in shown.cards)}
    for trick in (*table.history, *([table.trick] if table.trick is not None else [])):
        seen.update(trick.lead)
        for play in trick.plays:
            seen.update(play.cards)
    if table.forced_lead is not None:
        seen.update(table.forced_lead)
    if seat_view is not None:
        seen.update(seat_view.hand)
    return {card.code for card in seen}


def check(match: Match, tr: Translator, rng: random.Random) -> int:
    """Checks the boards of the table now; returns how many face-down cards the spectator's shows."""
    spectator = draw(match, None, tr).to_json()
    json.dumps(spectator)
    hidden = hidden_from_group(match.deal)
    assert not _codes(spectator) & {card.code for card in hidden}, spectator
    assert _codes(spectator) <= visible(public_view(match))
    dumped = json.dumps(spectator, ensure_ascii=False)
    assert not [card for card in hidden if card_text(card, tr) in dumped]
    for seat in match.deal.seats:
        seat_view = view(match, seat)
        marks = "".join(card.code for card in seat_view.hand if rng.random() < 0.5)
        board = draw(match, seat, tr, marks)
        mine = board.to_json()
        json.dumps(mine)
        shown = visible(seat_view.table, seat_view)
        assert _codes(mine) <= shown, (seat, _codes(mine) - shown)
        dumped = json.dumps(mine, ensure_ascii=False)
        unseen = [card for card in deck(match.variant.deck_size) if card.code not in shown]
        assert not [card for card in unseen if card_text(card, tr) in dumped]
        if rng.random() < 0.2:
            assert_like_the_keyboard(match, seat, tr, marks)
    return json.dumps(spectator).count('"code": null')


@pytest.mark.parametrize(("profile", "players", "language"), CONFIGS)
def test_no_board_names_a_card_its_viewer_may_not_see(profile: Profile, players: int, language: str) -> None:
    """Over random games of every profile: a spectator's board names no card of a hand, the stock or a face-down
    answer (but the public ones: the trump card, combos shown); a seat's only the cards his view shows. Every board
    is JSON, and the boards agree with the keyboard at random marks."""
    tr = Translations().get(language)
    settings = TableSettings(profile=profile, language=language)
    rng = random.Random(f"board/{profile}/{players}")
    checked = downs = 0
    for game in range(GAMES):
        match = Match(variant(settings), players, f"board/{profile}/{players}/{game}")
        for _ in range(MAX_ACTIONS):
            if match.finished:
                break
            downs += check(match, tr, rng)
            match.apply(random_step(match, rng))
            checked += 1
        check(match, tr, rng)
    assert checked > 100
    assert downs or match.variant.discards is Discards.OPEN, "face-down answers were drawn and checked"


def test_the_leak_check_catches_a_leak(ru: Translator) -> None:
    """The check above must be able to fail: another seat's hand, in a face or in a tap's data."""
    match = worked_match()
    board = json.loads(json.dumps(draw(match, 0, ru).to_json()))
    others = {card.code for card in view(match, 1).hand}
    board["sections"][0]["piles"][0]["cards"].append({"code": next(iter(others))})
    assert not _codes(board) <= visible(public_view(match), view(match, 0))
    board = json.loads(json.dumps(draw(match, 0, ru).to_json()))
    board["hand"][0]["data"] = data(HandOp.TOGGLE, "9D")
    assert "9D" in _codes(board) - visible(public_view(match), view(match, 0))
