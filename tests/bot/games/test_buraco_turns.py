"""The group's Buraco table tells the deal's last round of turns (issue 37): a line a seat for its latest turn,
whatever edits of the table were coalesced away."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from bot.games.buraco.cards import card_text
from bot.games.buraco.game import BURACO
from bot.games.buraco.turns import turn_line
from bot.i18n import Translations, Translator
from bot.render.common import MAX_TEXT
from bot.table_settings import TableSettings
from engine.buraco.actions import Action, Discard, DrawStock, RejectDrawn, TakePile
from engine.buraco.ai import EasyPlayer
from engine.buraco.cards import Card
from engine.buraco.deal import Deal, Phase
from engine.buraco.match import Match
from engine.buraco.melds import Meld
from engine.buraco.turns import Placed, Turn, deal_turns, previous_deal_turns
from engine.buraco.views import seat_view
from engine.core.cards import Suit
from tests.engine.buraco.stack import position

NAMES = {0: "Аня", 1: "Борис2", 2: "Вика", 3: "Гена7"}  # names ending in digits stand apart from numbers
SETTINGS = TableSettings()


@pytest.fixture(scope="module")
def ru() -> Translator:
    return Translations().get("ru")


@pytest.fixture(scope="module")
def en() -> Translator:
    return Translations().get("en")


def computer(match: Match) -> Action:
    seat = match.to_act()
    assert seat is not None
    return EasyPlayer().choose(seat_view(match, seat))


def table(match: Match, tr: Translator) -> str:
    return BURACO.table_text(match, NAMES, tr, title="Стол", settings=SETTINGS, deadline_text=None, ended=None)


def play_turn_rest(match: Match, seat: int) -> None:
    while match.to_act() == seat and not match.finished and match.deal.phase is not Phase.DRAW:
        match.apply(computer(match))


def whole_turn(match: Match, first: Action | None = None) -> None:
    seat = match.to_act()
    assert seat is not None
    match.apply(first if first is not None else computer(match))
    play_turn_rest(match, seat)


def until(match: Match, done: Callable[[Match], bool], limit: int = 2000) -> None:
    for _ in range(limit):
        if done(match):
            return
        match.apply(computer(match))
    raise AssertionError("never came")


H = Suit.HEARTS


def card(code: str) -> Card:
    return Card.parse(code)


def test_a_turn_line_in_both_languages(ru: Translator, en: Translator) -> None:
    meld = Meld(H, 3, (card("3H"), card("JK"), card("5H")), wild_at=4)
    turn = Turn(
        seat=1,
        took=(card("7S"), card("8S")),
        laid=((2, meld),),
        added=((0, (Placed(card("9C")), Placed(card("2D"), wild_at=10))),),
        discarded=card("KD"),
        over=True,
    )
    assert turn_line(turn, NAMES, ru) == (
        "<b>Борис2</b>: забирает сброс (2 карты), выкладывает ряд 3: 3♥️ 🃏→4 5♥️, "
        "добавляет к ряду 1: 9♣️ 2♦️→10, сбрасывает К♦️"
    )
    assert turn_line(turn, NAMES, en) == (
        "<b>Борис2</b>: takes the pile (2 cards), lays run 3: 3♥️ 🃏→4 5♥️, adds to run 1: 9♣️ 2♦️→10, discards K♦️"
    )
    short = turn_line(turn, NAMES, ru, cards=False)
    assert short == (
        "<b>Борис2</b>: забирает сброс (2 карты), выкладывает ряд 3, добавляет 2 карты к ряду 1, сбрасывает К♦️"
    )
    under_way = Turn(seat=3, drew=True)
    assert turn_line(under_way, NAMES, ru) == "<b>Гена7</b>: берёт из колоды …"
    assert turn_line(under_way, NAMES, en) == "<b>Гена7</b>: draws from the stock …"
    opening = Turn(seat=0, drew=True, opening=80, laid=((0, meld),), morto=False, discarded=card("4C"), over=True)
    assert turn_line(opening, NAMES, ru) == (
        "<b>Аня</b>: берёт из колоды, первая выкладка на 80 очков, выкладывает ряд 1: 3♥️ 🃏→4 5♥️, "
        "сбрасывает 4♣️, берёт морто"
    )
    direta = Turn(seat=2, drew=True, morto=True, discarded=card("4C"), out=False, over=True)
    assert turn_line(direta, NAMES, en) == "<b>Вика</b>: draws from the stock, takes a morto, discards 4♣️"


def test_the_deals_first_turn_shows_the_card_refused(ru: Translator, en: Translator) -> None:
    match = Match(seed=11, first_dealer=3)
    assert deal_turns(match) == ()
    assert "берёт из колоды" not in table(match, ru)
    match.apply(DrawStock(0))
    assert "<b>Аня</b>: берёт из колоды …" in table(match, ru)  # the first choice is still to make
    refused = match.deal.drawn
    assert refused is not None
    match.apply(RejectDrawn(0))
    shown = f"<b>Аня</b>: берёт из колоды, открывает {card_text(refused, ru)} в сброс и берёт следующую …"
    assert shown in table(match, ru)
    assert f"turns {card_text(refused, en)} up onto the pile and draws the next …" in table(match, en)
    play_turn_rest(match, 0)
    (turn,) = deal_turns(match)
    assert turn.rejected is refused and turn.over and turn.discarded is not None
    assert turn_line(turn, NAMES, ru) in table(match, ru)


def test_a_computers_turn_in_one_commit_shows_whole(ru: Translator) -> None:
    match = Match(seed=5, first_dealer=0)
    until(match, lambda m: len(m.deal.runs[0]) + len(m.deal.runs[1]) >= 2 and m.deal.phase is Phase.DRAW)
    seat = match.to_act()
    whole_turn(match)  # one commit: the table is drawn only after it
    turn = deal_turns(match)[-1]
    assert turn.seat == seat and turn.over
    text = table(match, ru)
    line = turn_line(turn, NAMES, ru)
    assert line in text and line.endswith(card_text(turn.discarded, ru) if turn.discarded else "")
    # newest last, just above the hands and whose turn it is
    lines = text.split("\n")
    assert lines[lines.index(line) + 2].startswith("Карт на руках")


def test_a_persons_turn_over_several_commits_grows_line_by_line(ru: Translator) -> None:
    """A person's turn is a commit a tap: the draw, each run, the discard. Each picture shows the turn so far,
    under way («…»); the discard's shows it whole."""
    match = Match(seed=7, first_dealer=1)
    for _ in range(40):  # Аня's turns, until one that melds
        until(match, lambda m: m.deal.phase is Phase.DRAW and not m.deal.first_turn and m.to_act() == 0)
        trial = copy.deepcopy(match)
        whole_turn(trial, DrawStock(0))
        if len(trial.actions) - len(match.actions) > 2:
            break
        whole_turn(match)
    else:
        raise AssertionError("Аня never melded")
    lines = []
    match.apply(DrawStock(0))  # her first tap
    lines.append(next(line for line in table(match, ru).split("\n") if line.startswith("<b>Аня</b>: ")))
    while match.to_act() == 0:
        match.apply(computer(match))  # a tap, a commit, a picture
        (line,) = [line for line in table(match, ru).split("\n") if line.startswith("<b>Аня</b>: ")]
        lines.append(line)
    turn = deal_turns(match)[-1]
    assert turn.seat == 0 and turn.over and (turn.laid or turn.added)
    assert lines[0] == "<b>Аня</b>: берёт из колоды …"
    assert all(line.endswith(" …") for line in lines[:-1]) and lines[-1] == turn_line(turn, NAMES, ru)
    assert [len(line) for line in lines] == sorted(len(line) for line in lines)  # it grows, tap by tap
    assert len(set(lines)) > 2  # a run or an addition shows before the discard


def test_a_turn_that_took_the_pile_says_how_many_cards(ru: Translator, en: Translator) -> None:
    match = Match(seed=3, first_dealer=2)
    until(match, lambda m: m.deal.phase is Phase.DRAW and len(m.deal.pile) >= 3 and not m.deal.first_turn)
    seat = match.to_act()
    assert seat is not None
    count = len(match.deal.pile)
    whole_turn(match, TakePile(seat))
    turn = next(t for t in reversed(deal_turns(match)) if t.seat == seat)
    assert len(turn.took) == count and not turn.drew
    assert f"<b>{NAMES[seat]}</b>: забирает сброс ({count} карт" in table(match, ru)
    assert f"<b>{NAMES[seat]}</b>: takes the pile ({count} cards)" in table(match, en)


def going_out_match() -> Match:
    """A match to a single deal that a pair ends by going out (the table then keeps the deal's turns)."""
    for seed in range(40):
        match = Match(seed=seed, target=1)
        until(match, lambda m: m.deal_number >= 1 or m.finished, limit=5000)
        if match.finished and match.deal.closer is not None:
            return match
    raise AssertionError("no deal went out")


def test_a_turn_that_went_out(ru: Translator, en: Translator) -> None:
    match = going_out_match()
    turn = deal_turns(match)[-1]
    assert turn.out and turn.over and turn.discarded is not None
    card_ru = card_text(turn.discarded, ru)
    assert turn_line(turn, NAMES, ru).endswith(f"сбрасывает {card_ru} и выходит")
    assert turn_line(turn, NAMES, ru) in table(match, ru)
    assert f"discards {card_text(turn.discarded, en)} and goes out" in table(match, en)
    # the round before the going out is still there, one line a seat
    text = table(match, ru)
    assert sum(f"<b>{name}</b>: " in text for name in NAMES.values()) == 4


def test_a_draft_shows_only_when_the_opening_is_made(ru: Translator) -> None:
    """RULES §17.5: a vulnerable pair's runs are not on the table until the discard makes the opening."""
    for seed in range(40):
        match = Match(seed=seed, first_dealer=3)
        match.deal = Deal(3, match.deal.order, (True, False))  # Аня and Вика are vulnerable
        while not match.finished and match.deal_number == 0:
            match.apply(computer(match))
            deal = match.deal
            if deal.drafting(0) and deal.runs[0]:
                line = turn_line(deal_turns(match)[-1], NAMES, ru)
                assert "выкладывает" not in line and "добавляет" not in line, line
                assert line in table(match, ru)
            elif deal.opened[0]:
                turn = next(t for t in deal_turns(match) if t.opening is not None)
                assert turn.opening is not None
                assert turn.seat in (0, 2) and turn.opening >= 75 and turn.laid
                assert sum(meld.value for _, meld in turn.laid) >= turn.opening
                assert turn_line(turn, NAMES, ru) in table(match, ru)
                assert "первая выкладка на" in table(match, ru)
                return
    pytest.fail("no vulnerable pair opened in these deals")


def random_deals(count: int) -> list[Match]:
    return [Match(seed=f"turns/{number}") for number in range(count)]


def test_every_turn_shows_until_its_seat_plays_again(ru: Translator) -> None:
    """Whatever pictures of the table are skipped, each turn is in every picture from its end to its seat's next
    turn, across a deal's end too: a picture arriving at least once a round shows them all."""
    heads = tuple(f"<b>{name}</b>: " for name in NAMES.values())
    for match in random_deals(3):
        told: dict[int, str] = {}  # each seat's last turn, as the table wrote it after that turn
        while not match.finished and match.deal_number < 2:
            seat = match.to_act()
            deal = match.deal_number
            whole_turn(match)  # a turn is a commit: one picture after it (if it is not skipped)
            new_deal = match.deal_number != deal and not match.finished  # a finished match keeps its last deal
            ended = previous_deal_turns(match) if new_deal else deal_turns(match)
            turn = ended[-1]
            assert turn.seat == seat and turn.over
            told[seat] = turn_line(turn, NAMES, ru)
            text = table(match, ru)
            for line in told.values():
                assert line in text, (line, text)
            # one line a seat: its latest turn, no older one
            shown = [line for line in text.split("\n") if line.startswith(heads)]
            assert sorted(shown) == sorted(told.values()), text
            if new_deal:  # the new deal's first picture tells how the last one ended
                head = f"Конец сдачи {match.deal_number}:"
                assert head in text and text.index(head) < text.index(told[seat])


def test_a_new_deal_tells_the_last_turns_of_the_deal_before(ru: Translator, en: Translator) -> None:
    match = Match(seed="p1")  # its first deal ends with Борис2 going out
    until(match, lambda m: m.deal_number == 1)
    closing = previous_deal_turns(match)[-1]
    assert closing.out and closing.seat == 1 and not deal_turns(match)
    text = table(match, ru)
    block = text.split("\n\n")[-2].split("\n")
    assert block[0] == "Конец сдачи 1:" and block[-1] == turn_line(closing, NAMES, ru), text
    assert len(block) == 5 and block[-1].endswith("и выходит")
    assert "End of deal 1:" in table(match, en)
    whole_turn(match)  # Вика, the first of the new deal: her line of deal 1 gives way to her first of deal 2
    block = table(match, ru).split("\n\n")[-2].split("\n")
    assert block[0] == "Конец сдачи 1:" and block[4] == "Сдача 2:" and block[5].startswith("<b>Вика</b>: ")
    assert not any(line.startswith("<b>Вика</b>: ") for line in block[1:4])
    for _ in range(3):
        whole_turn(match)
    text = table(match, ru)
    assert "Конец сдачи 1" not in text and "Сдача 2:" not in text  # a full round of the new deal: it alone


def test_the_longest_deal_stays_well_within_a_message(ru: Translator, en: Translator) -> None:
    longest = 0
    for number in range(4):
        match = Match(seed=f"long/{number}")
        for _ in range(400):
            if match.finished or match.deal_number:
                break
            seat = match.to_act()
            assert seat is not None
            # take every pile of some size: the longest hands, the most runs, the longest turn lines (every pile
            # would pass a card or two round the table for ever)
            take = len(match.deal.pile) >= 4 and TakePile(seat) in match.legal_actions(seat)
            whole_turn(match, TakePile(seat) if take else None)
            for tr in (ru, en):
                longest = max(longest, len(table(match, tr)))
    assert longest < MAX_TEXT * 3 // 4, longest


def test_a_stacked_position_without_its_actions_shows_no_turns(ru: Translator) -> None:
    match = Match(seed=3, first_dealer=3)
    position(match.deal, 0, "3H 4H 5H 9C")
    assert deal_turns(match) == ()
    match.apply(Discard(0, card("9C")))
    assert deal_turns(match) == ()
    assert "сбрасывает" not in table(match, ru)


def test_a_deals_result_tells_its_last_round(ru: Translator) -> None:
    """Issue 37: the commit that ends a deal deals the next, whose turns soon push the ended deal's last lines out
    of the table (and the table's pictures are coalesced): the deal's result, the message sure to arrive, tells
    the ended deal's last round, a line a seat, the closing turn last."""
    match = Match(seed="last-round")
    while True:
        number = match.deal_number
        events = match.apply(computer(match))
        if match.deal_number != number or match.finished:
            break
    [text] = BURACO.announcements(match, events, NAMES, ru, settings=SETTINGS, before=None)
    ended = deal_turns(match) if match.finished else previous_deal_turns(match)
    assert ended and ended[-1].over, "the closing turn is over"
    latest = {turn.seat: turn for turn in ended}
    lines = [turn_line(turn, NAMES, ru) for turn in sorted(latest.values(), key=ended.index)]
    result = text.split("\n")
    start = result.index(lines[0])
    assert result[start : start + len(lines)] == lines, text
    assert start == 1 or result[0].startswith("🃏"), "after the line that says how the deal ended"
