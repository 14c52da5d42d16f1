"""Buraco Aberto's adapter: what the services ask of a table that plays it (RULES §17)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum

from bot.games.base import (
    Decision,
    FairlyDealt,
    HandStory,
    Move,
    Redraw,
    Refused,
    Setting,
    Standing,
    Tap,
    Waiting,
    Waits,
    apply_all,
    reveal_line,
    with_reveal,
)
from bot.games.buraco import events as texts
from bot.games.buraco.buttons import HandButton, Op
from bot.games.buraco.cards import card_text
from bot.games.buraco.computer import decide
from bot.games.buraco.hand import Hint, render_hand
from bot.games.buraco.moves import Selection, addition_plans, new_run_plans
from bot.games.buraco.replay import buraco_replay
from bot.games.buraco.table import render_table, score_lines, totals_text
from bot.games.buraco.web import board as buraco_board
from bot.games.stats import seat_stats
from bot.i18n import Translator
from bot.render.keyboard import Keyboard
from bot.storage import Counter, JsonObject, StatsDelta, Table
from bot.table_settings import SHARED_CHOICES, TIMER_KEY, ComputerLevel, TableSettings
from engine.buraco.actions import (
    Action,
    AddToRun,
    CancelDraft,
    Discard,
    DrawStock,
    KeepDrawn,
    NewRun,
    RejectDrawn,
    TakePile,
)
from engine.buraco.ai import auto_action
from engine.buraco.errors import Reason
from engine.buraco.events import DealScored, Discarded, Event, MatchEnded, RunExtended
from engine.buraco.match import Match
from engine.buraco.melds import CANASTRA
from engine.buraco.turns import deal_turns, previous_deal_turns
from engine.buraco.views import hand_view, seat_view, table_view
from engine.core.fair import FairShuffle

TURN_SECONDS = "120"  # the move timer's default: a whole turn


class BuracoCounter(StrEnum):
    """Buraco's own counters in the chat's tally (``stats-<name>`` in the locales)."""

    CANASTRAS = "canastras"  # runs a player made seven long
    OUTS = "outs"  # deals he went out of


@dataclass(frozen=True, slots=True)
class Before:
    """Who the game waited for and which deal it was, before a move."""

    waiting: Waits
    deal_number: int


class BuracoGame(FairlyDealt):
    """``GameAdapter[Match, Action, Event, Before]``: Buraco Aberto."""

    key = "buraco"
    reasons: tuple[type[Enum], ...] = (Reason, Hint)
    profiles: tuple[str, ...] = ("buraco",)
    players = 4  # RULES §17.1: two partnerships

    def seats(self, settings: TableSettings) -> int | None:
        return self.players  # computers take the seats nobody takes

    def player_range(self, settings: TableSettings) -> tuple[int, int]:
        return 1, self.players  # one to four people

    def own_settings(self, settings: TableSettings) -> tuple[Setting, ...]:
        # One set of rules (RULES §17), a match to 3,000. A turn is a draw, melds and a discard: the move timer's
        # default is two minutes (issue 37: one minute ran out mid-turn); a table may still choose any.
        return (Setting(TIMER_KEY, SHARED_CHOICES[TIMER_KEY], TURN_SECONDS),)

    def rules_parts(self, settings: TableSettings, tr: Translator) -> list[str]:
        return [tr.t("setting-profile-buraco"), tr.t("rules-buraco")]

    def help_text(self, settings: TableSettings, tr: Translator) -> str:
        return tr.t("flow-help-buraco")

    def new_match(self, settings: TableSettings, players: int, seed: str, fair: FairShuffle | None = None) -> Match:
        if players != self.players:
            raise ValueError("Buraco is for four players")
        return Match(seed, fair=fair)

    def load(self, data: JsonObject) -> Match:
        return Match.from_json(data)

    def start_events(self, match: Match) -> Sequence[Event]:
        return match.start_events

    def before(self, match: Match) -> Before:
        return Before(self.waiting_for(match), match.deal_number)

    def new_deal(self, before: Before, match: Match) -> bool:
        return match.deal_number != before.deal_number

    def deal_number(self, match: Match) -> int:
        return match.deal_number if match.finished else match.deal_number + 1  # the engine counts deals scored

    def waiting_for(self, match: Match) -> Waits:
        seat = match.to_act()
        return frozenset() if seat is None else frozenset({(seat, Waiting.MOVE)})

    def play(self, match: Match, actions: Sequence[Action]) -> list[Event]:
        return apply_all(match, actions)

    def table_text(
        self,
        match: Match,
        names: Mapping[int, str],
        tr: Translator,
        *,
        title: str,
        settings: TableSettings,
        deadline_text: str | None,
        ended: str | None,
    ) -> str:
        view = table_view(match)
        turns = deal_turns(match)
        # the deal before is dealt and replayed again only while a seat has not played in this one (a few ms)
        earlier = previous_deal_turns(match) if len({turn.seat for turn in turns}) < self.players else ()
        return render_table(
            view, names, tr, title=title, deadline_text=deadline_text, ended=ended, turns=turns, earlier=earlier
        )

    def hand(
        self,
        match: Match,
        seat: int,
        names: Mapping[int, str],
        tr: Translator,
        *,
        table_id: int,
        move: int,
        title: str,
        selection: str,
        paused: bool,
        confirm: bool,
        story: HandStory,
    ) -> tuple[str, Keyboard]:
        hand = match.deal.hands[seat]
        try:
            chosen = Selection.unpack(selection, len(hand))
        except ValueError:
            chosen = Selection()
        return render_hand(
            hand_view(match, seat),
            match.deal,
            names,
            tr,
            table_id=table_id,
            move=move,
            title=title,
            selection=chosen,
            paused=paused,
            story=story,
        )

    board = staticmethod(buraco_board)  # the table as the Mini App draws it (bot/games/buraco/web.py)

    def announcements(
        self,
        match: Match,
        events: Sequence[Event],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Before | None,
    ) -> list[str]:
        ended = any(isinstance(event, DealScored) for event in events)
        # the deal just scored: the current one if the match ended with it, else the one before the new deal
        played = (deal_turns(match) if match.finished else previous_deal_turns(match)) if ended else ()
        told = texts.render_announcements(events, names, tr, last_round=played)
        return with_reveal(told, reveal_line(self, match, before, tr))

    def deal_story(
        self,
        match: Match,
        events: Sequence[Event],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Before | None,
    ) -> list[str]:
        return texts.deal_story(events, names, tr)

    def stale_reason(self, match: Match, seat: int, names: Mapping[int, str], tr: Translator) -> str | None:
        return None  # no call of one seat takes another's turn away: Buraco is played in turn

    def score_lines(self, match: Match, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        return score_lines(match.deal_number + 1, match.totals, match.to_act(), names, tr)

    def summary(self, match: Match) -> JsonObject:
        return {"totals": list(match.totals)}

    def summary_text(
        self, summary: JsonObject, names: Mapping[int, str], settings: TableSettings, tr: Translator
    ) -> str:
        return totals_text([int(n) for n in summary["totals"]], names, tr)

    def tap(self, match: Match, seat: int, op: str, payload: str) -> Tap[Action]:
        deal = match.deal
        hand = deal.hands[seat]
        tapped = HandButton.read(op, payload, len(hand))  # ValueError: no button of ours
        if tapped.op in (Op.TOGGLE, Op.REFRESH, Op.SORT):
            return Redraw(selection=tapped.selection.pack(), resend=tapped.op is Op.REFRESH)
        simple: dict[Op, Action] = {
            Op.STOCK: DrawStock(seat),
            Op.PILE: TakePile(seat),
            Op.KEEP: KeepDrawn(seat),
            Op.REJECT: RejectDrawn(seat),
            Op.CANCEL: CancelDraft(seat),
        }
        if tapped.op in simple:
            return Move((simple[tapped.op],))
        marked = tapped.selection.cards(hand)
        if tapped.op is Op.DISCARD:
            if len(marked) != 1:
                raise ValueError("a discard button carries one card")
            return Move((Discard(seat, marked[0]),))
        if tapped.op is Op.ADD and tapped.run is not None:
            plans = addition_plans(deal, seat, tapped.run, marked)
        else:
            plans = new_run_plans(deal, seat, marked)
        if isinstance(plans, Reason):
            return Refused(plans)
        if tapped.plan >= len(plans):
            raise ValueError("no such plan")  # no button of ours: answered as a stale one
        return Move(tuple(plans[tapped.plan][1]))

    def auto_action(self, match: Match, seat: int) -> Action | None:
        """The timer's move (the easy computer's); the service asks again until the turn is over."""
        return auto_action(match, seat)

    def continues(self, match: Match, seat: int, action: Action) -> bool:
        return match.to_act() == seat  # draw, melds and discard: a turn is one commit

    def forfeit(self, match: Match, seat: int) -> Sequence[Event] | None:
        return None  # Buraco has no such ruling: the timer goes on playing for an absent player

    def played_text(self, actions: Sequence[Action], tr: Translator) -> str:
        """«взял из колоды, выложил 2 ряда, сбросил 7♥️»: what the bot did, after «бот»."""
        parts: list[str] = []
        runs = additions = 0  # melds in a row, said as one part with their count

        def melded() -> None:
            nonlocal runs, additions
            if runs:
                parts.append(tr.t("buraco-played-meld", count=runs))
            if additions:
                parts.append(tr.t("buraco-played-add", count=additions))
            runs = additions = 0

        previous: Action | None = None
        for move in actions:
            if isinstance(move, NewRun):
                runs += 1
            elif isinstance(move, AddToRun):
                # a run laid card by card (RULES §17.7a-9) is one meld; cards added to one run, one addition
                grows = isinstance(previous, AddToRun) and previous.run == move.run
                if not (isinstance(previous, NewRun) or grows):
                    additions += 1
            else:
                melded()
                if isinstance(move, DrawStock):
                    parts.append(tr.t("buraco-played-stock"))
                elif isinstance(move, TakePile):
                    parts.append(tr.t("buraco-played-pile"))
                elif isinstance(move, Discard):
                    parts.append(tr.t("buraco-played-discard", card=card_text(move.card, tr)))
            previous = move
        melded()
        return tr.t("list-separator").join(parts)

    def out_of_turn_caller(self, match: Match, computers: frozenset[int]) -> int | None:
        return None  # nobody acts out of turn in Buraco

    def decision(self, match: Match, seat: int, level: ComputerLevel, seed: str) -> Decision[Action]:
        view = seat_view(match, seat)
        return Decision(decide, (view, level, seed), heavy=level is ComputerLevel.HARD)

    def stats(self, table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
        """Deals played and won (the higher deal score), matches played and won, per person; the canastras a
        player completed and the deals he went out of."""
        earned: list[tuple[int, Counter | BuracoCounter]] = []
        last_discard: int | None = None
        for event in events:
            if isinstance(event, RunExtended) and len(event.meld.cards) == CANASTRA:
                # A run is laid with three cards and grows a card at a time: at seven it became a canastra.
                earned.append((event.seat, BuracoCounter.CANASTRAS))
            elif isinstance(event, Discarded):
                last_discard = event.seat
            elif isinstance(event, DealScored):
                if event.closer is not None and last_discard is not None:
                    earned.append((last_discard, BuracoCounter.OUTS))  # going out is the last card discarded (§17.6)
                totals = [score.total for score in event.scores]
                for seat in range(4):
                    earned.append((seat, Counter.DEALS_PLAYED))
                    if totals[seat % 2] > totals[1 - seat % 2]:
                        earned.append((seat, Counter.DEALS_WON))
            elif isinstance(event, MatchEnded):
                for seat in range(4):
                    earned.append((seat, Counter.MATCHES_PLAYED))
                    if seat % 2 == event.winner:
                        earned.append((seat, Counter.MATCHES_WON))
        return seat_stats(table, self.key, earned)

    def standing(self, match: Match) -> Standing | None:
        if not match.finished or match.winner is None:
            return None
        sides = tuple(tuple(s for s in range(match.players) if match.side_of(s) == side) for side in (0, 1))
        return Standing(sides, tuple(1 if side == match.winner else 2 for side in (0, 1)))

    def replay(self, match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
        return buraco_replay(match, deal, seat, names, tr)


BURACO = BuracoGame()
