"""Buraco at the table (bot/games/buraco): the hand keyboard and what it plays, the table, the announcements."""

from __future__ import annotations

import json
import random

import pytest

from bot.games.base import HandStory, Move, Redraw, Refused
from bot.games.buraco.buttons import Op
from bot.games.buraco.game import BURACO
from bot.games.buraco.moves import BY_RANK, Selection, display
from bot.i18n import Translations, Translator
from bot.render.keyboard import Keyboard, buttons
from bot.services.state import TableState
from bot.storage import MAX_ID
from bot.table_settings import TableSettings
from bot.telegram.callbacks import MAX_CALLBACK_BYTES, HandCb, PlayCb
from engine.buraco.actions import AddToRun, Discard, DrawStock, NewRun, TakePile
from engine.buraco.cards import cards
from engine.buraco.deal import Phase
from engine.buraco.errors import Reason
from engine.buraco.events import DealScored, SideScore
from engine.buraco.match import Match
from engine.core.cards import Suit
from tests.bot.render.conftest import assert_keyboard_limits
from tests.engine.buraco.stack import lay, position, run

NAMES = {0: "Аня", 1: "Борис", 2: "Вика", 3: "Гена"}


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


def at_meld(hand: str, seat: int = 0) -> Match:
    match = Match(seed=3, first_dealer=3)
    position(match.deal, seat, hand)
    return match


def hand_message(
    match: Match,
    seat: int,
    tr: Translator,
    selection: str = "",
    move: int = 99999,
    story: HandStory | None = None,
) -> tuple[str, Keyboard]:
    text, markup = BURACO.hand(
        match,
        seat,
        NAMES,
        tr,
        table_id=MAX_ID,
        move=move,
        title="Стол <b>",
        selection=selection,
        paused=False,
        confirm=False,
        story=story or HandStory(),
    )
    assert_keyboard_limits(markup)
    return text, markup


def hand(match: Match, seat: int, tr: Translator, selection: str = "", move: int = 99999) -> tuple[str, list[HandCb]]:
    text, markup = hand_message(match, seat, tr, selection, move)
    datas = [str(b["callback_data"]) for b in buttons(markup)]
    assert all(len(d.encode()) <= MAX_CALLBACK_BYTES for d in datas)
    return text, [HandCb.unpack(d) for d in datas]


def add_buttons(markup: Keyboard) -> list[tuple[str, HandCb]]:
    labelled = [(str(b["text"]), HandCb.unpack(str(b["callback_data"]))) for b in buttons(markup)]
    return [(label, data) for label, data in labelled if data.op == Op.ADD]


def marking(match: Match, seat: int, *codes: str) -> str:
    shown = display(match.deal.hands[seat], "s")
    places: set[int] = set()
    for code in codes:
        places.add(next(i for i, c in enumerate(shown) if c.code == code and i not in places))
    return Selection("s", frozenset(places)).pack()


def test_a_selection_travels_in_the_button_and_stays_within_64_bytes() -> None:
    selection = Selection(BY_RANK, frozenset({0, 5, 29, 44}))
    assert Selection.unpack(selection.pack(), 45) == selection
    with pytest.raises(ValueError):
        Selection.unpack(selection.pack(), 30)  # a mark beyond the hand: no button of ours
    with pytest.raises(ValueError):
        Selection.unpack("z", 10)
    data = HandCb.data(MAX_ID, 99999, Op.ADD, f"99.9.{Selection('s', frozenset(range(60))).pack()}")
    assert len(data.encode()) <= MAX_CALLBACK_BYTES


def test_the_draw_offers_the_stock_and_the_whole_pile(ru: Translator) -> None:
    # RULES §17.3: take the top of the stock or the whole pile.
    match = Match(seed=3, first_dealer=3)
    position(match.deal, 1, "3H 9D", phase=Phase.DRAW, pile="KS 7H")
    text, datas = hand(match, 1, ru)
    ops = {d.op for d in datas}
    assert Op.STOCK in ops and "p" in ops
    assert "Стол «Стол &lt;b&gt;»" in text  # a chat's title is the user's: escaped
    assert BURACO.tap(match, 1, Op.STOCK, "") == Move((DrawStock(1),))


def test_marked_cards_lay_a_run_in_one_tap(ru: Translator) -> None:
    # RULES §17.4: the marked cards as a run; the engine's atomic moves played as one plan.
    match = at_meld("3H 4H 5H 6H 9C KD")
    selection = marking(match, 0, "3H", "4H", "5H", "6H")
    _, datas = hand(match, 0, ru, selection)
    melds = [d for d in datas if d.op == Op.MELD]
    assert len(melds) == 1
    plan = BURACO.tap(match, 0, Op.MELD, melds[0].cards)
    assert isinstance(plan, Move) and isinstance(plan.actions[0], NewRun) and isinstance(plan.actions[-1], AddToRun)
    for action in plan.actions:
        match.apply(action)
    assert match.deal.runs[0][0].cards == cards("3H 4H 5H 6H")


def test_a_joker_run_offers_both_places(ru: Translator) -> None:
    # RULES §17.7a-10: where the substitute stands is the player's choice.
    match = at_meld("5H 6H JK 9C KD")
    _, datas = hand(match, 0, ru, marking(match, 0, "5H", "6H", "JK"))
    assert len([d for d in datas if d.op == Op.MELD]) == 2


def test_marks_that_make_no_move_say_why(ru: Translator) -> None:
    # RULES §17.4: no sets of one rank; the engine's reason in the player's language.
    match = at_meld("7H 7S 7C 9C")
    text, datas = hand(match, 0, ru, marking(match, 0, "7H", "7S", "7C"))
    assert "одного ранга" in text and not [d for d in datas if d.op == Op.MELD]
    assert BURACO.tap(match, 0, Op.MELD, f"0.{marking(match, 0, '7H', '7S', '7C')}") == Refused(Reason.SETS_NOT_ALLOWED)


def test_marks_that_fit_no_run_of_the_pairs_say_why(ru: Translator) -> None:
    """RULES §17.3-§17.4: one or two cards join only a run of one's own pair, of their suit; three make a new one."""
    match = at_meld("6H 9H 9C KD QS")
    lay(match.deal, 1, run("3H 4H 5H", Suit.HEARTS, 3))  # the other pair's hearts: not ours to add to
    text, datas = hand(match, 0, ru, marking(match, 0, "6H", "9H"))
    assert "К рядам вашей пары эти карты не подходят, а новый ряд — от трёх карт." in text
    assert not [d for d in datas if d.op in (Op.ADD, Op.MELD, Op.DISCARD)]
    text, _ = hand(match, 0, ru, marking(match, 0, "9C", "KD"))
    assert "Ряд — карты одной масти." in text
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))  # now a run of ours: 6♥ joins it, 9♥ does not
    text, datas = hand(match, 0, ru, marking(match, 0, "6H", "9H"))
    assert "Эти карты к ряду не подходят." in text and not [d for d in datas if d.op == Op.ADD]
    text, datas = hand(match, 0, ru, marking(match, 0, "6H"))
    assert [d for d in datas if d.op == Op.ADD] and "Эти карты" not in text


def test_adding_to_a_run_and_discarding_one_card(ru: Translator) -> None:
    match = at_meld("6H 7H 9C KD")
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))
    _, datas = hand(match, 0, ru, marking(match, 0, "6H", "7H"))
    adds = [d for d in datas if d.op == Op.ADD]
    assert adds and BURACO.tap(match, 0, Op.ADD, adds[0].cards) == Move(
        (
            AddToRun(0, 0, 0, cards("6H")[0], 6),
            AddToRun(0, 0, 0, cards("7H")[0], 7),
        )
    )
    one = marking(match, 0, "KD")
    _, datas = hand(match, 0, ru, one)
    assert [d for d in datas if d.op == Op.DISCARD] and BURACO.tap(match, 0, Op.DISCARD, one) == Move(
        (Discard(0, cards("KD")[0]),)
    )


def test_a_toggle_redraws_and_stale_marks_are_refused() -> None:
    match = at_meld("6H 7H 9C KD")
    assert isinstance(BURACO.tap(match, 0, Op.TOGGLE, Selection("s", frozenset({1})).pack()), Redraw)
    with pytest.raises(ValueError):
        BURACO.tap(match, 0, Op.TOGGLE, Selection("s", frozenset({7})).pack())
    with pytest.raises(ValueError):
        BURACO.tap(match, 0, "q", "")
    with pytest.raises(ValueError):  # a run number no button of ours carries
        BURACO.tap(match, 0, Op.ADD, f"٣.{Selection('s', frozenset({0})).pack()}")
    with pytest.raises(ValueError):  # a discard button carries one card
        BURACO.tap(match, 0, Op.DISCARD, Selection("s", frozenset({0, 1})).pack())


def test_no_message_shows_a_hand_but_its_own(ru: Translator) -> None:
    # RULES §17.2: hands are closed, the partner's too; mortos unseen. Shuffling what a seat cannot see
    # changes neither its hand message nor the table.
    rng = random.Random(4)
    match = Match(seed=9)
    for _ in range(120):
        seat = match.to_act()
        assert seat is not None
        match.apply(rng.choice(match.legal_actions(seat)))
    seat = 1
    text, _ = hand(match, seat, ru)
    table = BURACO.table_text(match, NAMES, ru, title="T", settings=None, deadline_text=None, ended=None)  # type: ignore[arg-type]
    hidden = [c for s in (0, 2, 3) for c in match.deal.hands[s]] + match.deal.stock
    hidden += [c for morto in match.deal.mortos for c in morto]
    rng.shuffle(hidden)
    for s in (0, 2, 3):
        size = len(match.deal.hands[s])
        match.deal.hands[s], hidden = hidden[:size], hidden[size:]
    match.deal.stock, hidden = hidden[: len(match.deal.stock)], hidden[len(match.deal.stock) :]
    for morto in match.deal.mortos:
        morto[:], hidden = hidden[:11], hidden[11:]
    match.deal._legal = None
    assert hand(match, seat, ru)[0] == text
    assert BURACO.table_text(match, NAMES, ru, title="T", settings=None, deadline_text=None, ended=None) == table  # type: ignore[arg-type]


def test_the_table_numbers_each_sides_runs_and_marks_canastras(ru: Translator) -> None:
    match = at_meld("9C KD")
    lay(match.deal, 0, run("3H 4H 5H 6H 7H 8H 9H", Suit.HEARTS, 3), run("JS QS KS", Suit.SPADES, 11))
    table = BURACO.table_text(match, NAMES, ru, title="T", settings=None, deadline_text="1:00", ended=None)  # type: ignore[arg-type]
    assert "1. 3♥️ 4♥️ 5♥️ 6♥️ 7♥️ 8♥️ 9♥️ — чистая канастра" in table
    assert "2. В♠️ Д♠️ К♠️" in table and "Аня и Вика" in table and "⏳ 1:00" in table


def test_the_deals_score_term_by_term(ru: Translator) -> None:
    # RULES §17.7 worked example: 180 + 200 + 100 - 15 = 465.
    event = DealScored(1, 0, (SideScore(180, 200, 100, 15, 0), SideScore(120, 0, 0, 40, 100)), (465, -20))
    texts = BURACO.announcements(Match(seed=1), [event], NAMES, ru, settings=None, before=None)  # type: ignore[arg-type]
    assert "карты 180 + канастры 200 + выход 100 − на руках 15 − морто 0 = +465" in texts[0]
    assert "вышли Аня и Вика" in texts[0]


def test_marks_that_fit_no_run_of_the_side_say_why(ru: Translator) -> None:
    # RULES §17.4: a card joins a run at its ends (or the substitute's place); the engine's reason otherwise.
    match = at_meld("9H TH 9C KD")
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))
    text, datas = hand(match, 0, ru, marking(match, 0, "9H", "TH"))
    assert "к ряду не подходят" in text and not [d for d in datas if d.op in (Op.ADD, Op.MELD)]


def test_a_lone_pile_card_marked_says_it_cannot_go_back(ru: Translator) -> None:
    # RULES §17.7a-5: the lone card taken from the pile is not discarded that turn.
    match = Match(seed=3, first_dealer=3)
    position(match.deal, 1, "7H 9D", phase=Phase.DRAW, pile="7H")
    match.apply(TakePile(1))
    text, datas = hand(match, 1, ru, marking(match, 1, "7H"))
    assert "в этот ход её не сбросить" in text and not [d for d in datas if d.op == Op.DISCARD]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_an_empty_stock_is_renewed_by_the_draw_and_the_hand_says_so(language: str) -> None:
    # RULES §17.7a-15: after the stock's last card the next player is told a draw turns a morto into the stock
    # and the pile leaves it a morto; the group hears of the renewal with that draw.
    tr = Translations().get(language)
    match = Match(seed=3, first_dealer=3)
    deal = match.deal
    position(deal, 1, "3H 9D", phase=Phase.DRAW, pile="KS 7H")
    full, _ = hand(match, 1, tr)
    deal.hands[3].extend(deal.stock)
    deal.stock = []
    deal._legal = None
    empty, datas = hand(match, 1, tr)
    assert empty != full and tr.t("buraco-your-draw-morto") in empty and tr.t("buraco-your-draw") in full
    assert {Op.STOCK, "p"} <= {d.op for d in datas}
    drawn = BURACO.tap(match, 1, Op.STOCK, "")
    assert isinstance(drawn, Move)
    events = BURACO.play(match, drawn.actions)
    texts = BURACO.announcements(match, events, NAMES, tr, settings=None, before=None)  # type: ignore[arg-type]
    assert texts == [tr.t("buraco-stock-renewed", count=11)] and len(deal.stock) == 10


def test_cards_added_where_a_joker_can_end_at_two_places_offer_a_button_for_each(ru: Translator) -> None:
    # RULES §17.7a-9: 6♥ and 8♥ added at once to 5♥ 🃏 7♥ move the joker to 9 or to 4, the player's choice as
    # with one card: two buttons, each naming the run it makes and playing that run's plan.
    match = at_meld("6H 8H 9C KD")
    lay(match.deal, 0, run("5H JK 7H", Suit.HEARTS, 5))
    _, markup = hand_message(match, 0, ru, marking(match, 0, "6H", "8H"), move=MAX_ID)
    adds = add_buttons(markup)
    assert [label for label, _ in adds] == ["Добавить → 5♥️ 6♥️ 7♥️ 8♥️ 🃏→9", "Добавить → 🃏→4 5♥️ 6♥️ 7♥️ 8♥️"]
    made: list[object] = []
    for _, data in adds:
        played = Match(seed=3, first_dealer=3)
        played.deal = match.deal.copy()
        plan = BURACO.tap(played, 0, Op.ADD, data.cards)
        assert isinstance(plan, Move)
        for action in plan.actions:
            played.apply(action)
        made.append(played.deal.runs[0][0])
    assert made == [run("5H 6H 7H 8H JK", Suit.HEARTS, 5), run("JK 5H 6H 7H 8H", Suit.HEARTS, 4)]


def test_an_add_button_drawn_before_plans_plays_the_default_and_a_forged_plan_is_refused() -> None:
    # An older keyboard's "<run>.<selection>" means the default plan; a plan no button of ours names is a stale
    # button (ValueError, answered as such by the service), never a traceback.
    match = at_meld("6H 8H 9C KD")
    lay(match.deal, 0, run("5H JK 7H", Suit.HEARTS, 5))
    selection = marking(match, 0, "6H", "8H")
    assert BURACO.tap(match, 0, Op.ADD, f"0.{selection}") == BURACO.tap(match, 0, Op.ADD, f"0.0.{selection}")
    assert BURACO.tap(match, 0, Op.ADD, f"0.{selection}") != BURACO.tap(match, 0, Op.ADD, f"0.1.{selection}")
    for forged in ("2", "01", "-1", "x", "٣", str(10**40), ""):
        with pytest.raises(ValueError):
            BURACO.tap(match, 0, Op.ADD, f"0.{forged}.{selection}")
    assert BURACO.tap(match, 0, Op.ADD, f"5.0.{selection}") == Refused(Reason.NO_SUCH_MELD)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_one_plan_keeps_the_plain_add_button(language: str) -> None:
    # One run the cards can make: the button names the run they join, by its cards (not «К ряду 1»).
    tr = Translations().get(language)
    match = at_meld("6H 7H 9C KD")
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))
    _, markup = hand_message(match, 0, tr, marking(match, 0, "6H", "7H"))
    assert [label for label, _ in add_buttons(markup)] == [tr.t("buraco-button-add", run="3♥️ 4♥️ 5♥️")]


def test_a_table_stored_before_the_stock_ruling_loads_with_its_old_timing() -> None:
    # RULES §17.7a-15: a stored table's match is its seed and log; one stored before the ruling has no
    # "stock_renewal" and replays with the old timing; one stored now says "draw".
    match = Match(seed="table")
    for _ in range(3):
        seat = match.to_act()
        assert seat is not None
        match.apply(match.legal_actions(seat)[0])
    state = TableState(match=match, settings=TableSettings(), title="T", game=BURACO)
    stored = json.loads(state.to_json())
    assert stored["stock_renewal"] == "draw" and stored["game"] == "buraco"
    loaded = TableState.from_json(state.to_json()).match
    assert isinstance(loaded, Match) and not loaded.renew_at_discard
    del stored["stock_renewal"]
    old = TableState.from_json(json.dumps(stored)).match
    assert isinstance(old, Match) and old.renew_at_discard and old.actions == match.actions


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_group_hand_shows_the_pile_both_pairs_runs_and_the_card_drawn(language: str) -> None:
    """Issue 37, 5: the table is in the group among many messages, so the hand carries what the turn needs: the
    pile's cards, both pairs' runs (substitutes marked with the rank they stand for, RULES §17.4), the card just
    drawn; an add button names its run by its cards."""
    tr = Translations().get(language)
    match = Match(seed=3, first_dealer=3)
    position(match.deal, 0, "TH 9C KD", phase=Phase.DRAW, pile="KS 7D 4C")
    lay(match.deal, 0, run("3H 4H 5H 6H 7H 8H 9H", Suit.HEARTS, 3))
    lay(match.deal, 1, run("5S JK 7S", Suit.SPADES, 5))
    match.deal.stock.append(cards("QC")[0])  # the next draw
    match.apply(DrawStock(0))
    text, markup = hand_message(match, 0, tr, marking(match, 0, "TH"))
    pile = tr.t("buraco-hand-pile", count=3, cards="К♠️ 7♦️ 4♣️" if language == "ru" else "K♠️ 7♦️ 4♣️")
    assert pile in text
    assert "1. 3♥️ 4♥️ 5♥️ 6♥️ 7♥️ 8♥️ 9♥️" in text and "1. 5♠️ 🃏→6 7♠️" in text
    assert text.index("3♥️ 4♥️") < text.index("5♠️ 🃏→6")  # his pair's runs first
    queen = "Д♣️" if language == "ru" else "Q♣️"
    assert tr.t("buraco-fresh", card=queen) in text
    labels = [label for label, _ in add_buttons(markup)]
    assert labels == [tr.t("buraco-button-add", run="3♥️–9♥️")]


def test_a_long_pile_shows_its_top_cards_and_its_size(ru: Translator) -> None:
    match = Match(seed=3, first_dealer=3)
    pile = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AC 3C 4C"
    position(match.deal, 1, "3H 9D", phase=Phase.DRAW, pile=pile)
    text, _ = hand(match, 1, ru)
    assert "Сброс (16), сверху: … 5♠️ 6♠️ 7♠️ 8♠️ 9♠️ 10♠️ В♠️ Д♠️ К♠️ Т♣️ 3♣️ 4♣️" in text
    assert "Т♠️ 2♠️" not in text
    in_private, _ = hand_message(match, 1, ru, story=HandStory(table_text="СТОЛ"))
    assert "Сброс (16)" not in in_private  # a private game's hand carries the table itself
    waiting, _ = hand(match, 2, ru)
    assert "Сброс (16)" not in waiting  # not his turn: his hand is not edited at every move of the others


def test_the_table_marks_a_substitute_with_the_rank_it_stands_for(ru: Translator) -> None:
    match = at_meld("9C KD")
    lay(match.deal, 0, run("3H 4H 2S 6H", Suit.HEARTS, 3), run("JK QD KD AD", Suit.DIAMONDS, 11))
    table = BURACO.table_text(match, NAMES, ru, title="T", settings=None, deadline_text=None, ended=None)  # type: ignore[arg-type]
    assert "1. 3♥️ 4♥️ 2♠️→5 6♥️" in table and "2. 🃏→В Д♦️ К♦️ Т♦️" in table


def test_a_run_being_built_is_not_refused_until_no_mark_can_make_it(ru: Translator) -> None:
    """Issue 37, 5: two cards on the way to a run of three are no mistake; a hint only where no more marks help."""
    match = at_meld("5H 6H 7H 9C QS")
    text, datas = hand(match, 0, ru, marking(match, 0, "5H", "6H"))
    assert "Так нельзя" not in text and ru.t("buraco-mark-more") in text
    assert not [d for d in datas if d.op in (Op.MELD, Op.ADD, Op.DISCARD)]
    text, _ = hand(match, 0, ru, marking(match, 0, "5H", "7H"))  # 6♥ still in the hand: fills the gap
    assert "Так нельзя" not in text
    text, _ = hand(match, 0, ru, marking(match, 0, "5H", "9C"))
    assert "Так нельзя: Ряд — карты одной масти." in text
    text, _ = hand(match, 0, ru, marking(match, 0, "9C", "QS"))
    assert "Так нельзя" in text and ru.t("buraco-mark-more") not in text
    joker = at_meld("5H 7H JK 9C")
    text, _ = hand(joker, 0, ru, marking(joker, 0, "5H", "7H"))  # the joker in the hand stands for 6♥
    assert "Так нельзя" not in text


@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_short_opening_draft_says_once_that_the_discard_waits(language: str) -> None:
    """RULES §17.5: a vulnerable pair's first melds are a draft until they reach 75; the hand says so in its
    instruction, and a card marked to discard is not refused on top of it (issue 37, 5)."""
    tr = Translations().get(language)
    match = at_meld("8C 9C KD QS")
    match.deal.vulnerable = (True, False)
    lay(match.deal, 0, run("3H 4H 5H", Suit.HEARTS, 3))
    match.deal.opened[0] = False  # laid this turn: a draft of 15 points
    match.deal._legal = None
    text, datas = hand(match, 0, tr, marking(match, 0, "KD"))
    assert tr.t("buraco-draft", points=15, needed=75) in text
    assert tr.t("buraco-your-melds-draft", needed=75) in text and tr.t("buraco-your-melds") not in text
    assert tr.t("reason-opening_below_minimum") not in text
    assert not [d for d in datas if d.op == Op.DISCARD] and [d for d in datas if d.op == Op.CANCEL]


def test_a_name_ending_in_digits_stays_apart_from_its_number(ru: Translator) -> None:
    """Issue 37: «Вика2 12» read as Вика with 212; the name is bold where a number follows it."""
    match = at_meld("9C KD")
    names = {**NAMES, 2: "Вика2"}
    table = BURACO.table_text(match, names, ru, title="T", settings=None, deadline_text=None, ended=None)  # type: ignore[arg-type]
    assert "<b>Вика2</b> 11" in table
    event = DealScored(1, 0, (SideScore(180, 200, 100, 15, 0), SideScore(120, 0, 0, 40, 100)), (465, -20))
    (text,) = BURACO.announcements(match, [event], names, ru, settings=None, before=None)  # type: ignore[arg-type]
    assert "Счёт: <b>Аня и Вика2</b> 465" in text


def test_a_private_games_end_offers_another_game_and_no_card(ru: Translator) -> None:
    """Issue 37, 6: a game against the computer ends in one last word, with no dead card buttons."""
    match = at_meld("9C KD")
    match.finished = True
    match.winner = 0
    _, markup = hand_message(match, 0, ru, story=HandStory(table_text="СТОЛ"))
    assert markup == {"inline_keyboard": [[{"text": "🔁 Сыграть ещё", "callback_data": PlayCb().pack()}]]}
