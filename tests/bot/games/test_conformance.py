"""One conformance test over every registered game: what the bot takes for granted of any game behind the seam
(``bot.games.base.GameAdapter`` and the engine's ``Match``), checked on seeded random games of each.

A game registered in ``bot.games.registry.GAMES`` is checked here with no new test code, once it supplies its
``Parts`` below (a test fails, naming the game, until it does): how to disguise what a seat cannot see, which
cards to mark for each of its moves, and which legal moves its hand may leave without a button, and why.

1. Random legal play (any seat that may act, out of turn too) ends; an action that is not legal now is refused
   with ``IllegalAction`` and changes nothing.
2. ``load(to_json())`` through JSON text stands where the match stands: the same snapshot, the same legal actions.
3. A seat's hand, the group's table and /score do not change when the cards the seat cannot see are shuffled
   among their places (the game's ``disguise``); most disguises do change the match, so the check says something.
4. Every button of a hand (as drawn, and with each card marked) parses back to its table, its move and an
   answer of the game: a move whose actions are legal and play through, a redraw or a refusal; every legal move
   of the seat has a button once its cards are marked (but for the game's allowances). Garbled button data is
   no button of ours (``ValueError``).
5. Every refusal reason a game may show has a text of its own in every language, within an alert's length.
Besides: the table, the hands waited for, /score, the announcements and the stats of every move render in every
language, and what the timer plays for a seat is told in a few words.

The costlier checks (3, 4) look at some moments of each game: the first moves, then ever more sparsely, and
wherever a kind of move is legal that they have seen little of. The whole file runs in about 15 s.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

import pytest

from bot.config import SUPPORTED_LANGUAGES
from bot.games.base import AnyGame, HandStory, Move, Redraw, Refused
from bot.games.bura.buttons import pack_cards
from bot.games.buraco.moves import BY_SUIT, Selection, display
from bot.games.registry import GAMES
from bot.i18n import Translations, Translator
from bot.render.keyboard import Keyboard
from bot.render.reasons import MAX_ALERT, reason_text
from bot.storage import Seat, Table, TableStatus
from bot.table_settings import TableSettings
from bot.telegram.callbacks import MAX_CALLBACK_BYTES, HandCb
from engine.bura.actions import Claim, Lead, RespondFaceDown, RespondOpen
from engine.bura.deal import Deal as BuraDeal
from engine.bura.deal import Phase as BuraPhase
from engine.bura.deal import Play, Trick
from engine.bura.views import view as bura_view
from engine.buraco.actions import AddToRun, Discard, NewRun
from engine.buraco.views import seen_in_hands
from engine.core.errors import IllegalAction
from engine.core.match import Match
from engine.ochko.actions import Bet, StakeBank
from tests.matches import bura_match, buraco_match, ochko_match

AnyMatch = Match[Any, Any]
TRANSLATIONS: Final = Translations()
LANGUAGES: Final = {language: TRANSLATIONS.get(language) for language in SUPPORTED_LANGUAGES}
NAMES: Final = {seat: f"Игрок {seat + 1}" for seat in range(8)}
TABLE_ID, MOVE = 2_000_000_000, 9_999_999  # long ids, as tests/bot/test_callbacks.py draws them
MAX_MOVES: Final = 20_000  # a random Бурако match to 3,000 takes about 4,000 moves, a random Бура far fewer
GAMES_EACH: Final = 2  # random games of each game at least: of each lobby entry and its fewest and most players


# -- what each game must supply -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Parts:
    """What this file is told of a game to check it.

    ``disguise(match, seat, rng)``: a match standing where ``match`` stands for ``seat`` (and for the group), the
    cards ``seat`` cannot see shuffled among their places; ``match`` is a copy (read back by ``load`` from
    ``to_json()``), which the disguise may share but not change. ``marks(match, seat, action)``: the selections
    (as ``HandCb`` carries them) to draw the hand with so that a button plays ``action``.
    ``unreachable(match, seat, action)``: why a legal action has no button, where the game means it to have none
    (None: it must have one)."""

    disguise: Callable[[AnyMatch, int, random.Random], AnyMatch]
    marks: Callable[[AnyMatch, int, Any], Sequence[str]]
    unreachable: Callable[[AnyMatch, int, Any], str | None]


def _reshuffled(rng: random.Random, places: Sequence[Sequence[Any]], kept: Sequence[Sequence[Any]]) -> list[list[Any]]:
    """``places`` (hands, a stock...) with their cards shuffled among them, each keeping its size; ``kept[i]``
    are cards of ``places[i]`` that stay where they are (public knowledge of where a card lies)."""
    layout: list[list[Any]] = []
    pool: list[Any] = []
    for cards, keep in zip(places, kept, strict=True):
        staying = Counter(keep)
        row: list[Any] = []
        for card in cards:
            if staying[card] > 0:
                staying[card] -= 1
                row.append(card)
            else:
                row.append(None)
                pool.append(card)
        layout.append(row)
    rng.shuffle(pool)
    dealt = iter(pool)
    return [[card if card is not None else next(dealt) for card in row] for row in layout]


def _bura_disguise(match: AnyMatch, seat: int, rng: random.Random) -> AnyMatch:
    """Бура (engine/bura/views.py): a seat sees his own hand only; the others' hands, the stock and the dead
    cards are hidden, but for the turned-up trump card (and who drew it) and the combos shown to the table. So
    are the others' face-down answers (RULES §6.6: his partner's too), but for a trick its taker peeks at, and
    where captured points are shown (they count those cards). Whose answer was face down, and how many cards,
    is public."""
    bura = bura_match(match)
    deal = bura.deal
    others = [other for other in deal.seats if other != seat]
    trump = deal.trump_card
    places: list[Sequence[Any]] = [*(deal.hands[other] for other in others), deal.stock, deal.dead]
    kept = [[card for card in deal.hands[other] if card is trump or _shown(deal, other, card)] for other in others]
    kept += [[trump], [trump]]
    answers = _hidden_answers(deal, seat) if deal.variant.hide_captured_points else []
    places += [play.cards for play in answers]
    kept += [[] for _ in answers]
    laid = _reshuffled(rng, places, kept)
    hands = {**deal.hands, **dict(zip(others, laid, strict=False))}
    stock, dead = laid[len(others)], laid[len(others) + 1]
    swapped = {
        old: new
        for play, cards in zip(answers, laid[len(others) + 2 :], strict=True)
        for old, new in zip(play.cards, cards, strict=True)
    }

    def swap(trick: Trick) -> Trick:
        plays = [Play(p.seat, tuple(swapped.get(c, c) for c in p.cards), p.face_down, p.beats) for p in trick.plays]
        return Trick(trick.number, trick.leader, trick.lead, plays, trick.best, trick.owner)

    history = [swap(trick) for trick in deal.history]
    trick = swap(deal.trick) if deal.trick is not None else None
    piles = [[entry._replace(card=swapped.get(entry.card, entry.card)) for entry in pile] for pile in deal.piles]
    if deal.phase is BuraPhase.OVER:  # the match is over: no play to derive, the cards only
        disguised = deal.copy()
        disguised.hands, disguised.stock, disguised.dead = hands, stock, dead
        disguised.history, disguised.trick, disguised.piles = history, trick, piles
    else:  # the hands decide who may say «Стоп!» and more: a deal built from the position works it out anew
        disguised = BuraDeal.from_position(
            deal.variant,
            deal.players,
            seats=deal.seats,
            dealer=deal.dealer,
            trump_card=trump,
            hands=hands,
            stock=stock,
            dead=dead,
            trump_card_holder=deal.trump_card_holder,
            history=history,
            trick=trick,
            piles=piles,
            tricks_won=deal.tricks_won,
            phase=deal.phase,
            rightful=deal.rightful,
            leader=deal.leader,
            forced_lead=deal.forced_lead,
            shown=deal.shown,
            standing=deal.standing,
            passed=deal.passed,
            number=deal.number,
        )
        disguised.deck_order = deal.deck_order  # the shuffle's record: in the snapshot, never shown
    twin = copy.copy(bura)
    twin.deal = disguised
    return twin


def _hidden_answers(deal: BuraDeal, seat: int) -> list[Play]:
    """The face-down answers of the deal (taken or on the table) that ``seat`` may not look at."""
    peeked = (
        deal.history[-1]
        if deal.variant.taker_peeks and deal.history and deal.trick is None and deal.phase is not BuraPhase.OVER
        else None
    )
    tricks = [*deal.history, *([deal.trick] if deal.trick is not None else [])]
    return [
        play
        for trick in tricks
        if not (trick is peeked and trick.owner == seat)
        for play in trick.plays
        if play.face_down and play.seat != seat
    ]


def _shown(deal: BuraDeal, seat: int, card: Any) -> bool:
    return any(held.seat == seat and card in held.cards for held in deal.shown)


def _bura_marks(match: AnyMatch, seat: int, action: Any) -> Sequence[str]:
    """A lead or an answer: its cards marked, exactly (RULES' moves name their cards); a call, a pass, a claim:
    nothing marked."""
    return [pack_cards(action.cards)] if isinstance(action, Lead | RespondOpen | RespondFaceDown) else [""]


def _bura_unreachable(match: AnyMatch, seat: int, action: Any) -> str | None:
    if isinstance(action, Claim):
        played = bura_view(bura_match(match), seat)
        if played.table.tricks_won[played.side] == 0:
            return "a claim with no trick taken can only be false: the hand offers none (bot/games/bura/hand.py)"
    return None


def _buraco_disguise(match: AnyMatch, seat: int, rng: random.Random) -> AnyMatch:
    """Бурако (engine/buraco/views.py): a seat sees his own hand (and, in his turn, his draft and the card he
    drew first); the others' hands, the stock and the mortos are hidden, but for the cards everyone saw going
    into a hand with the pile (``seen_in_hands``). The first card drawn stays with its drawer (the deal names
    it); the discard pile and the runs on the table are public. Another's draft of an opening (RULES §17.5) is
    as hidden as his hand (the table counts its cards in his hand): in the disguise he has not laid it yet."""
    buraco = buraco_match(match)
    deal = buraco.deal
    seen = seen_in_hands(buraco)
    hands = [list(hand) for hand in deal.hands]
    runs = (list(deal.runs[0]), list(deal.runs[1]))
    drafter = deal.turn
    drafting = deal.side_of(drafter)
    if seat != drafter and deal.drafting(drafting) and runs[drafting] and not deal.over:
        hands[drafter] += [card for meld in runs[drafting] for card in meld.cards]
        runs[drafting].clear()
    others = [other for other in range(4) if other != seat]
    places = [hands[other] for other in others] + [deal.stock, *deal.mortos]
    drawn = [deal.drawn] if deal.drawn is not None else []
    kept: list[list[Any]] = [[*seen[other], *(drawn if other == drafter else [])] for other in others]
    kept += [[] for _ in range(1 + len(deal.mortos))]
    laid = _reshuffled(rng, places, kept)
    disguised = deal.copy()
    for other, hand in zip(others, laid, strict=False):
        hands[other] = hand
    disguised.hands = hands
    disguised.runs = runs
    disguised.stock = laid[len(others)]
    disguised.mortos = laid[len(others) + 1 :]
    twin = copy.copy(buraco)
    twin.deal = disguised
    return twin


def _buraco_marks(match: AnyMatch, seat: int, action: Any) -> Sequence[str]:
    """A discard or an addition: its one card marked; a new run: its three cards; a draw, keep, reject or
    cancel: nothing marked (the hand shown suit by suit)."""
    if isinstance(action, Discard | AddToRun):
        cards: Sequence[Any] = [action.card]
    elif isinstance(action, NewRun):
        cards = action.laid
    else:
        return [""]
    shown = display(buraco_match(match).deal.hands[seat], BY_SUIT)
    places: set[int] = set()
    for card in cards:
        places.add(next(place for place, held in enumerate(shown) if held == card and place not in places))
    return [Selection(BY_SUIT, frozenset(places)).pack()]


def _nothing_unreachable(match: AnyMatch, seat: int, action: Any) -> str | None:
    return None


def _ochko_disguise(match: AnyMatch, seat: int, rng: random.Random) -> AnyMatch:
    """Очко (engine/ochko/views.py): a seat sees his own unsettled cards but a dark one (nobody sees it, he
    neither), the banker's cards, the marker and the hands settled this round; the other players' unsettled
    cards and the fresh pack's order are hidden. (The returned pile is only counted; a reshuffle sorts it.)"""
    twin = copy.deepcopy(ochko_match(match))
    others = [other for other in twin.dealt if other != seat and other in twin.hands]
    places: list[list[Any]] = [twin.hands[other] for other in others] + [twin.pack]
    kept: list[list[Any]] = [[] for _ in places]
    own = twin.hands.get(seat)
    if own and seat in twin.dark:
        places.append(own)
        kept.append(own[:-1])  # his dark card is as hidden from him as the pack
    laid = _reshuffled(rng, places, kept)
    for other, cards in zip(others, laid, strict=False):
        twin.hands[other] = cards
    twin.pack = laid[len(others)]
    if own and seat in twin.dark:
        twin.hands[seat] = laid[-1]
    return twin


def _ochko_marks(match: AnyMatch, seat: int, action: Any) -> Sequence[str]:
    """A bet or a stake: the stepper set to its amount («Ставка N»); the rest: nothing chosen."""
    return [str(action.amount)] if isinstance(action, Bet | StakeBank) else [""]


PARTS: Final[dict[str, Parts]] = {
    "bura": Parts(_bura_disguise, _bura_marks, _bura_unreachable),
    "buraco": Parts(_buraco_disguise, _buraco_marks, _nothing_unreachable),
    "ochko": Parts(_ochko_disguise, _ochko_marks, _nothing_unreachable),
}


def _parts(game: AnyGame) -> Parts:
    if game.key not in PARTS:
        pytest.fail(f"game {game.key!r} supplies no Parts (a disguise, marks, allowances) in {__name__}.PARTS")
    return PARTS[game.key]


# -- the random games ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Case:
    """A seeded random game: a game's lobby entry, a number of players it allows."""

    key: str
    settings: TableSettings
    players: int
    seed: int

    @property
    def game(self) -> AnyGame:
        return GAMES[self.key]

    def __str__(self) -> str:
        return f"{self.key}-{self.settings.profile}-{self.players}p-{self.seed}"


def _cases() -> list[Case]:
    cases: list[Case] = []
    for key, game in GAMES.items():
        entries: list[tuple[TableSettings, int]] = []
        for profile in game.profiles:
            settings = TableSettings(profile=profile)
            fixed = game.seats(settings)
            least, most = game.player_range(settings)
            for players in sorted({fixed} if fixed is not None else {least, most}):
                entries.append((settings, players))
        seeds = -(-GAMES_EACH // len(entries))  # a game of many entries plays each once
        cases += [Case(key, settings, players, seed) for settings, players in entries for seed in range(seeds)]
    return cases


CASES: Final = _cases()


@dataclass(frozen=True, slots=True)
class Played:
    """A moment of a random game: the match after move ``number`` (the same object plays on: use it at once),
    the action and the events of that move (the start's events at 0), the moment before it."""

    number: int
    match: AnyMatch
    action: Any
    events: Sequence[Any]
    before: Any


def _legal(match: AnyMatch) -> dict[int, list[Any]]:
    return {seat: list(match.legal_actions(seat)) for seat in range(match.players)}


def _played(case: Case) -> Iterator[Played]:
    """The seeded random game: any seat's legal action at random (one who may act out of turn races the one to
    act), to the end of the match."""
    game = case.game
    match = game.new_match(case.settings, case.players, f"conformance-{case.seed}")
    rng = random.Random(str(case))
    yield Played(0, match, None, game.start_events(match), None)
    number = 0
    while not match.finished:
        if number == MAX_MOVES:
            pytest.fail(f"{case}: the match did not end in {MAX_MOVES} random moves")
        number += 1
        legal = _legal(match)
        seat = match.to_act()
        assert seat is not None and legal[seat], f"move {number}: seat {seat} is to act with nothing to do"
        action = rng.choice([action for actions in legal.values() for action in actions])
        before = game.before(match)
        events = game.play(match, [action])
        yield Played(number, match, action, events, before)
    assert match.to_act() is None and not any(_legal(match).values()), "a finished match has nobody to act"


def _sampled(number: int) -> bool:
    """The moves after which the costlier checks look: the first few, then more and more sparsely."""
    return number < 4 or number in (9, 27, 81, 243, 729, 2187) or number % 1000 == 0


class _Moments:
    """The moves after which a costly check looks: ``_sampled`` ones, and those where a kind of action is legal
    (for any seat) that was legal at fewer than ``rare`` of the moments looked at (a «Стоп!», a pass, a draft to
    take back, a first card to keep or refuse come seldom in random play)."""

    def __init__(self, rare: int) -> None:
        self.rare = rare
        self.seen: Counter[type] = Counter()

    def looks_at(self, played: Played) -> bool:
        kinds = {type(action) for actions in _legal(played.match).values() for action in actions}
        if not (_sampled(played.number) or any(self.seen[kind] < self.rare for kind in kinds)):
            return False
        self.seen.update(kinds)
        return True


# -- 1. play -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=str)
def test_random_legal_play_ends_and_anything_else_is_refused(case: Case) -> None:
    """Play ends within the cap (``_played``); an action legal earlier, or another seat's, that no seat may take
    now is refused with ``IllegalAction`` and leaves the match as it was."""
    rng = random.Random(f"illegal/{case}")
    earlier: list[Any] = []
    refused = 0
    for played in _played(case):
        match = played.match
        legal = _legal(match)
        now = [action for actions in legal.values() for action in actions]
        if played.number % 3 == 0:
            stale = [action for action in earlier if action not in now]
            if stale:
                _assert_refused(match, rng.choice(stale), legal, whole=refused % 20 == 0)
                refused += 1
        earlier = (earlier + rng.sample(now, min(3, len(now))))[-40:]
    assert refused > 0


def _assert_refused(match: AnyMatch, action: Any, legal: dict[int, list[Any]], *, whole: bool) -> None:
    """``whole``: the action log too (``to_json`` costs as much as the log is long: not after every move)."""
    snapshot, stored = match.snapshot(), match.to_json() if whole else None
    with pytest.raises(IllegalAction):
        match.apply(action)
    assert match.snapshot() == snapshot, action
    assert _legal(match) == legal, action
    if whole:
        assert match.to_json() == stored, action


# -- 2. storage ----------------------------------------------------------------------------------------------


def _reloaded(game: AnyGame, match: AnyMatch) -> AnyMatch:
    loaded: AnyMatch = game.load(json.loads(json.dumps(match.to_json())))
    return loaded


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_match_read_back_from_json_stands_where_it_stood(case: Case) -> None:
    """At moves along the game and at its end: the same snapshot and legal actions; and the timer's turn there
    (``auto_action`` until the turn is over) is legal and told in a few words, in every language."""
    game = case.game
    checked = 0
    for played in _played(case):
        if not (_sampled(played.number) or played.match.finished):
            continue
        match = played.match
        loaded = _reloaded(game, match)
        assert loaded.snapshot() == match.snapshot()
        assert _legal(loaded) == _legal(match)
        checked += 1
        _assert_timer_turn(game, loaded)
    assert checked >= 3


def _assert_timer_turn(game: AnyGame, match: AnyMatch) -> None:
    """The timer's turn for the seat to act, played on ``match`` as the service plays it."""
    seat = match.to_act()
    if seat is None:
        return
    turn: list[Any] = []
    action = game.auto_action(match, seat)
    while action is not None and len(turn) < 50:
        assert action in match.legal_actions(seat), action
        game.play(match, [action])
        turn.append(action)
        if not game.continues(match, seat, action):
            break
        action = game.auto_action(match, seat)
    if turn:
        for tr in LANGUAGES.values():
            assert game.played_text(turn, tr).strip(), (turn, tr.language)


# -- 3. what a seat cannot see -------------------------------------------------------------------------------


def _hand(
    game: AnyGame, match: AnyMatch, seat: int, tr: Translator, selection: str = "", confirm: bool = False
) -> tuple[str, Keyboard]:
    text, markup = game.hand(
        match,
        seat,
        NAMES,
        tr,
        table_id=TABLE_ID,
        move=MOVE,
        title="Стол",
        selection=selection,
        paused=False,
        confirm=confirm,
        story=HandStory(),
    )
    return text, markup


def _table(game: AnyGame, match: AnyMatch, settings: TableSettings, tr: Translator) -> str:
    return game.table_text(match, NAMES, tr, title="Стол", settings=settings, deadline_text="1:00", ended=None)


def _buttons(markup: Keyboard) -> list[HandCb]:
    """Every button's callback data, unpacked: within Telegram's 64 bytes, naming the table and move drawn."""
    unpacked = []
    for row in markup["inline_keyboard"]:
        for button in row:
            data = button["callback_data"]
            assert len(data.encode()) <= MAX_CALLBACK_BYTES, data
            each = HandCb.unpack(data)
            assert (each.table, each.move) == (TABLE_ID, MOVE), data
            unpacked.append(each)
    return unpacked


@pytest.mark.parametrize("case", CASES, ids=str)
def test_a_seat_sees_nothing_of_the_cards_hidden_from_it(case: Case) -> None:
    """For every seat at moves along the game: its hand (text and buttons, unmarked and with a card marked),
    the group's table and /score are the same in the game's disguise of the match for that seat.

    The disguise is made of a copy: the match read back from JSON at the start, each move played on it too
    (reading back a long match at every moment would cost seconds); it must stand where the match stands."""
    game, parts = case.game, _parts(case.game)
    rng = random.Random(f"disguise/{case}")
    tr = LANGUAGES["ru"]
    disguised = changed = 0
    moments = _Moments(rare=4)
    match: AnyMatch | None = None
    for played in _played(case):
        if match is None:
            match = _reloaded(game, played.match)
        else:
            game.play(match, [played.action])
        if not moments.looks_at(played):
            continue
        assert match.snapshot() == played.match.snapshot(), "the copy, or a disguise of it, went astray"
        table = _table(game, match, case.settings, tr)
        score = game.score_lines(match, NAMES, case.settings, tr)
        for seat in range(match.players):
            twin = parts.disguise(match, seat, rng)
            disguised += 1
            changed += twin.snapshot() != match.snapshot()
            assert _table(game, twin, case.settings, tr) == table, (played.number, seat)
            assert game.score_lines(twin, NAMES, case.settings, tr) == score, (played.number, seat)
            shown = _hand(game, match, seat, tr)
            assert _hand(game, twin, seat, tr) == shown, (played.number, seat)
            marks = _redraws(game, match, seat, shown[1])
            for selection in rng.sample(marks, min(2, len(marks))):
                assert _hand(game, twin, seat, tr, selection) == _hand(game, match, seat, tr, selection), (
                    played.number,
                    seat,
                    selection,
                )
    assert changed > disguised / 2, f"only {changed} of {disguised} disguises changed the match: the check says little"


def _redraws(game: AnyGame, match: AnyMatch, seat: int, markup: Keyboard) -> list[str]:
    """The selections an unmarked hand's buttons redraw it with: its cards marked one by one (and sorted)."""
    tapped = [game.tap(match, seat, data.op, data.cards) for data in _buttons(markup)]
    return [each.selection for each in tapped if isinstance(each, Redraw) and each.selection and not each.confirm]


# -- 4. buttons ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_button_means_what_it_shows_and_every_move_has_one(case: Case) -> None:
    """For every seat at moves along the game, the buttons of its hand each parse and tap to a legal move, a
    redraw or a refusal: the hand as drawn and, for a seat that may act, with each card marked, with a random
    few marked, and with the marks of each legal action (a sample of them where there are many), where a button
    must play it, and those marks and one card more. A move of several actions plays through on a copy."""
    game, parts = case.game, _parts(case.game)
    rng = random.Random(f"buttons/{case}")
    tr = LANGUAGES["ru"]
    reached = 0
    moments = _Moments(rare=4)
    for played in _played(case):
        match = played.match
        if not moments.looks_at(played):
            continue
        for seat in range(match.players):
            tapper = _Tapper(game, match, seat, tr)
            marks = tapper.marks("")
            if not tapper.legal:
                continue  # a seat that may not act: its hand as drawn (marks would make no move)
            for selection in marks:
                tapper.moves(selection)
            if len(marks) > 2:
                tapper.moves(_marked_at_random(tapper, rng, len(marks)))
            grown: dict[type, list[str]] = {}  # marks of moves of each kind: one more card may make a bigger move
            for action in _sample(match.legal_actions(seat), rng):
                allowed = parts.unreachable(match, seat, action)
                marked = [selection for selection in parts.marks(match, seat, action) if selection]
                plays = [
                    actions for selection in parts.marks(match, seat, action) for actions in tapper.moves(selection)
                ]
                if allowed is None:
                    assert any(actions[0] == action for actions in plays), (played.number, seat, action, plays)
                    reached += 1
                grown.setdefault(type(action), []).extend(marked)
            kinds = [selections for selections in grown.values() if selections]
            if kinds:  # one kind's, at random (each redraw is a hand of taps)
                for selection in tapper.marks(rng.choice(rng.choice(kinds))):
                    tapper.moves(selection)
    assert reached > 0


def _sample(actions: Sequence[Any], rng: random.Random, each: int = 8) -> list[Any]:
    """Up to ``each`` legal actions of every kind (a hand of Бурако may make hundreds of runs)."""
    kinds: dict[type, list[Any]] = {}
    for action in actions:
        kinds.setdefault(type(action), []).append(action)
    return [chosen for same in kinds.values() for chosen in rng.sample(same, min(each, len(same)))]


def _marked_at_random(tapper: _Tapper, rng: random.Random, cards: int) -> str:
    """A selection of several cards, made as a player makes it: tapping card buttons one after another."""
    selection = ""
    for _ in range(rng.randint(2, min(cards, 6))):
        selection = rng.choice(tapper.marks(selection))
    return selection


class _Tapper:
    """One seat's hand at one moment: drawn with marks, its buttons tapped and checked."""

    def __init__(self, game: AnyGame, match: AnyMatch, seat: int, tr: Translator) -> None:
        self.game, self.match, self.seat, self.tr = game, match, seat, tr
        self.legal = list(match.legal_actions(seat))
        self.reasons = tuple(game.reasons)
        self._plays: dict[tuple[str, bool], list[tuple[Any, ...]]] = {}
        self._buttons: dict[tuple[str, bool], list[HandCb]] = {}
        self._marks: dict[tuple[str, bool], list[str]] = {}
        self._played_through: set[str] = set()

    def buttons(self, selection: str, confirm: bool = False) -> list[HandCb]:
        """The buttons of the hand so marked (each parsed and checked once)."""
        key = (selection, confirm)
        if key not in self._buttons:
            self._buttons[key] = _buttons(_hand(self.game, self.match, self.seat, self.tr, selection, confirm)[1])
        return self._buttons[key]

    def marks(self, selection: str) -> list[str]:
        """The selections the buttons of the hand so marked redraw it with (a card marked or unmarked, the hand
        sorted otherwise), each tapped and checked."""
        self.moves(selection)
        return self._marks[(selection, False)]

    def moves(self, selection: str, confirm: bool = False) -> list[tuple[Any, ...]]:
        """The actions the buttons of the hand so marked play (a redraw that asks to confirm, followed)."""
        key = (selection, confirm)
        if key in self._plays:
            return self._plays[key]
        plays: list[tuple[Any, ...]] = []
        self._plays[key] = plays
        marks = self._marks[key] = []
        redrawn = 0
        for data in self.buttons(selection, confirm):
            tapped = self.game.tap(self.match, self.seat, data.op, data.cards)  # never raises for a button of ours
            if isinstance(tapped, Move):
                self._check_move(tapped.actions, data)
                plays.append(tapped.actions)
            elif isinstance(tapped, Redraw):
                assert tapped.refusal is None or isinstance(tapped.refusal, self.reasons), (data, tapped)
                # The hand redrawn: its buttons parse too. Every redraw of the unmarked hand (its cards marked
                # one by one), a few of each other hand's (a marked hand of N cards redraws to N more).
                if not selection or redrawn < 2 or tapped.confirm:
                    assert self.buttons(tapped.selection, tapped.confirm)
                    redrawn += (tapped.selection, tapped.confirm) != key
                if tapped.confirm and not confirm:
                    plays.extend(self.moves(tapped.selection, confirm=True))
                elif not tapped.confirm and tapped.selection != selection:
                    marks.append(tapped.selection)
            else:
                assert isinstance(tapped, Refused), (data, tapped)
                assert isinstance(tapped.reason, self.reasons), (data, tapped)
        return plays

    def _check_move(self, actions: tuple[Any, ...], data: HandCb) -> None:
        assert actions and actions[0] in self.legal, (data, actions)
        if len(actions) > 1 and repr(actions) not in self._played_through:
            trial = _reloaded(self.game, self.match)  # a plan plays through in full (checked on a copy)
            self.game.play(trial, actions)
            self._played_through.add(repr(actions))


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_button_with_its_data_garbled_is_no_button_of_ours(key: str) -> None:
    """``tap`` answers data no button carries (a button's, a character added) with ``ValueError``, nothing else:
    the service answers it as a stale button. Every seat's hand at the first moves of a game."""
    case = next(case for case in CASES if case.key == key)
    garbled = []
    for played in _played(case):
        if played.number > 3:
            break
        for seat in range(played.match.players):
            for data in _buttons(_hand(case.game, played.match, seat, LANGUAGES["ru"])[1]):
                try:
                    case.game.tap(played.match, seat, data.op, data.cards + "~")
                except ValueError:
                    continue
                garbled.append(f"{data.op}:{data.cards}~")
    assert garbled == []


# -- 5. refusals ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_refusal_reason_has_a_text_of_its_own_in_every_language(key: str) -> None:
    """Each reason of ``game.reasons`` is ``reason-<value>`` in each language's own files (not only by the
    fallback to the default language), and fits an alert untruncated."""
    game = GAMES[key]
    assert game.reasons, key
    for language in SUPPORTED_LANGUAGES:
        alone = Translations(default_language=language, languages=(language,)).get(language)  # no fallback
        for reasons in game.reasons:
            for reason in reasons:
                assert alone.has(f"reason-{reason.value}"), (language, reason)
                text = alone.t(f"reason-{reason.value}")
                assert len(text) <= MAX_ALERT, (language, reason, text)
                assert reason_text(reason, LANGUAGES[language]) == text


# -- the messages of every move -------------------------------------------------------------------------------


def _seated(players: int) -> Table:
    seats = tuple(
        Seat(seat=seat, user_id=100 + seat if seat % 2 == 0 else None, name=NAMES[seat]) for seat in range(players)
    )
    return Table(
        table_id=TABLE_ID,
        chat_id=-1,
        status=TableStatus.PLAYING,
        creator_id=100,
        settings={},
        state=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        seats=seats,
    )


@pytest.mark.parametrize("case", CASES, ids=str)
def test_every_move_renders_in_every_language(case: Case) -> None:
    """After every move: the group's table, the hands of the seats the game waits for (with the move's story),
    /score, the move's announcements and the stats it earned."""
    game = case.game
    table = _seated(case.players)
    for played in _played(case):
        match = played.match
        for tr in LANGUAGES.values():
            assert _table(game, match, case.settings, tr)
            assert game.score_lines(match, NAMES, case.settings, tr)
            notes = game.announcements(match, played.events, NAMES, tr, settings=case.settings, before=played.before)
            story = game.deal_story(match, played.events, NAMES, tr, settings=case.settings, before=played.before)
            assert all(isinstance(note, str) and note for note in [*notes, *story])
            for seat in sorted({seat for seat, _ in game.waiting_for(match)}):
                text, markup = game.hand(
                    match,
                    seat,
                    NAMES,
                    tr,
                    table_id=TABLE_ID,
                    move=MOVE,
                    title="Стол",
                    selection="",
                    paused=False,
                    confirm=False,
                    story=HandStory(notes=story),
                )
                assert text and markup["inline_keyboard"]
        game.stats(table, match, played.events)


# -- the parts this file is told ------------------------------------------------------------------------------


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_supplies_its_parts(key: str) -> None:
    """A game added to the registry is checked above once it says how to hide, mark and allow (``PARTS``)."""
    assert key in PARTS, f"game {key!r}: add its Parts (disguise, marks, unreachable) to PARTS in {__file__}"
    assert [case for case in CASES if case.key == key], f"game {key!r}: no lobby entry to play it"


def test_the_reasons_are_enums() -> None:
    assert all(issubclass(reasons, Enum) for game in GAMES.values() for reasons in game.reasons)
