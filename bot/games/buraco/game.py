"""Buraco Aberto's adapter: what the services ask of a table that plays it (RULES §17)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.base import Decision, HandStory, Moment, Redraw, Setting
from bot.games.buraco import events as texts
from bot.games.buraco.cards import card_text
from bot.games.buraco.computer import decide
from bot.games.buraco.hand import (
    ADD,
    CANCEL,
    DISCARD,
    KEEP,
    MELD,
    PILE,
    REJECT,
    SORT,
    STOCK,
    TOGGLE,
    render_hand,
)
from bot.games.buraco.moves import BY_SUIT, Selection, addition_plans, new_run_plans
from bot.games.buraco.table import render_table
from bot.games.stats import seat_stats
from bot.i18n import Translator
from bot.render.common import name_of, side_name
from bot.render.keyboard import Keyboard
from bot.storage import StatsDelta, Table
from bot.table_settings import ComputerLevel, TableSettings
from bot.telegram.callbacks import REFRESH, parse_id
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
from engine.buraco.events import DealScored, Discarded, MatchEnded, RunExtended
from engine.buraco.match import Match
from engine.buraco.melds import CANASTRA
from engine.buraco.views import hand_view, seat_view, table_view
from engine.core.game import Game

Plan = tuple[Action, ...]


def buraco_match(match: Game) -> Match:
    """A table's match as the Buraco engine's own (the services hold it as any game's)."""
    assert isinstance(match, Match), match
    return match


@dataclass(frozen=True, slots=True)
class Before:
    waiting: frozenset[tuple[int, str]]
    deal_number: int

    def new_deal(self, match: Game) -> bool:
        return buraco_match(match).deal_number != self.deal_number


class BuracoGame:
    key = "buraco"
    profiles: tuple[str, ...] = ("buraco",)
    players = 4  # RULES §17.1: two partnerships

    def seats(self, settings: TableSettings) -> int | None:
        return self.players  # computers take the seats nobody takes

    def player_range(self, settings: TableSettings) -> tuple[int, int]:
        return 1, self.players  # one to four people

    def own_settings(self, settings: TableSettings) -> tuple[Setting, ...]:
        return ()  # one set of rules (RULES §17), a match to 3,000

    def rules_parts(self, settings: TableSettings, tr: Translator) -> list[str]:
        return [tr.t("setting-profile-buraco"), tr.t("rules-buraco")]

    def help_text(self, settings: TableSettings, tr: Translator) -> str:
        return tr.t("flow-help-buraco")

    def new_match(self, settings: TableSettings, players: int, seed: str) -> Match:
        if players != self.players:
            raise ValueError("Buraco is for four players")
        return Match(seed)

    def load(self, data: dict[str, Any]) -> Match:
        return Match.from_json(data)

    def start_events(self, match: Game) -> Sequence[Any]:
        return buraco_match(match).start_events

    def before(self, match: Game) -> Before:
        played = buraco_match(match)
        return Before(self.waiting_for(played), played.deal_number)

    def waiting_for(self, match: Game) -> frozenset[tuple[int, str]]:
        seat = match.to_act()
        return frozenset() if seat is None else frozenset({(seat, "move")})

    def table_text(
        self,
        match: Game,
        names: Mapping[int, str],
        tr: Translator,
        *,
        title: str,
        settings: TableSettings,
        deadline_text: str | None,
        ended: str | None,
    ) -> str:
        view = table_view(buraco_match(match))
        return render_table(view, names, tr, title=title, deadline_text=deadline_text, ended=ended)

    def hand(
        self,
        match: Game,
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
        played = buraco_match(match)
        hand = played.deal.hands[seat]
        try:
            chosen = Selection.unpack(selection, len(hand))
        except ValueError:
            chosen = Selection()
        return render_hand(
            hand_view(played, seat),
            played.deal,
            names,
            tr,
            table_id=table_id,
            move=move,
            title=title,
            selection=chosen,
            paused=paused,
            story=story,
        )

    def announcements(
        self,
        match: Game,
        events: Sequence[Any],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Moment | None,
    ) -> list[str]:
        return texts.render_announcements(events, names, tr)

    def deal_story(
        self,
        match: Game,
        events: Sequence[Any],
        names: Mapping[int, str],
        tr: Translator,
        *,
        settings: TableSettings,
        before: Moment | None,
    ) -> list[str]:
        return texts.deal_story(events, names, tr)

    def score_lines(self, match: Game, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        played = buraco_match(match)
        lines = [tr.t("flow-score-title", deal=played.deal_number + 1)]
        tally = tr.t("tally-separator").join(f"{side_name(s, True, names, tr)} {played.totals[s]}" for s in (0, 1))
        lines.append(tr.t("buraco-totals", tally=tally))
        seat = played.to_act()
        if seat is not None:
            lines.append(tr.t("hand-waiting", name=name_of(seat, names, tr)))
        return lines

    def tap(self, match: Game, seat: int, op: str, cards: str) -> Any:
        played = buraco_match(match)
        deal = played.deal
        hand = deal.hands[seat]
        if op in (TOGGLE, REFRESH):
            return Redraw(selection=Selection.unpack(cards, len(hand)).pack(), resend=op == REFRESH)
        if op == SORT:
            order = cards if cards else BY_SUIT
            return Redraw(selection=Selection.unpack(order, len(hand)).pack())
        simple: dict[str, Action] = {
            STOCK: DrawStock(seat),
            PILE: TakePile(seat),
            KEEP: KeepDrawn(seat),
            REJECT: RejectDrawn(seat),
            CANCEL: CancelDraft(seat),
        }
        if op in simple:
            return simple[op]
        if op not in (MELD, ADD, DISCARD):
            raise ValueError(f"no Buraco button {op!r}")
        if op == DISCARD:
            marked = Selection.unpack(cards, len(hand)).cards(hand)
            if len(marked) != 1:
                raise ValueError("a discard button carries one card")
            return Discard(seat, marked[0])
        # MELD: "<arrangement>.<selection>"; ADD: "<run>.<plan>.<selection>", or "<run>.<selection>" on a keyboard
        # drawn before a run's plans had buttons of their own: the default plan, 0
        head, _, packed = cards.partition(".")
        choice = "0"
        if op == ADD and "." in packed:
            choice, _, packed = packed.partition(".")
        number, index = parse_id(head), parse_id(choice)
        if number is None or index is None:
            raise ValueError("not a run or a plan of ours")
        marked = Selection.unpack(packed, len(hand)).cards(hand)
        if op == ADD:
            plans = addition_plans(deal, seat, number, marked)
        else:
            plans, index = new_run_plans(deal, seat, marked), number
        if isinstance(plans, Reason):
            return plans
        if index >= len(plans):
            raise ValueError("no such plan")  # no button of ours: answered as a stale one
        return tuple(plans[index][1])

    def auto_action(self, match: Game, seat: int) -> Any | None:
        """The timer's move (the easy computer's); the service asks again until the turn is over."""
        return auto_action(buraco_match(match), seat)

    def continues(self, match: Game, seat: int, action: Any) -> bool:
        return match.to_act() == seat  # draw, melds and discard: a turn is one commit

    def forfeit(self, match: Game, seat: int) -> Sequence[Any] | None:
        return None  # Buraco has no such ruling: the timer goes on playing for an absent player

    def played_text(self, action: Any, tr: Translator) -> str:
        moves = action if isinstance(action, tuple) else (action,)
        parts = []
        for move in moves:
            if isinstance(move, DrawStock):
                parts.append(tr.t("buraco-played-stock"))
            elif isinstance(move, TakePile):
                parts.append(tr.t("buraco-played-pile"))
            elif isinstance(move, NewRun | AddToRun):
                if not parts or parts[-1] != tr.t("buraco-played-meld"):
                    parts.append(tr.t("buraco-played-meld"))
            elif isinstance(move, Discard):
                parts.append(tr.t("buraco-played-discard", card=card_text(move.card, tr)))
        return tr.t("list-separator").join(parts)

    def out_of_turn_caller(self, match: Game, computers: frozenset[int]) -> int | None:
        return None  # nobody acts out of turn in Buraco

    def decision(self, match: Game, seat: int, level: ComputerLevel, seed: str) -> Decision:
        view = seat_view(buraco_match(match), seat)
        return Decision(decide, (view, level, seed), heavy=level is ComputerLevel.HARD)

    def stats(self, table: Table, match: Game, events: Sequence[Any]) -> list[StatsDelta]:
        """Deals played and won (the higher deal score), matches played and won, per person; the canastras a
        player completed and the deals he went out of."""
        earned: list[tuple[int, str]] = []
        last_discard: int | None = None
        for event in events:
            if isinstance(event, RunExtended) and len(event.meld.cards) == CANASTRA:
                # A run is laid with three cards and grows a card at a time: at seven it became a canastra.
                earned.append((event.seat, "canastras"))
            elif isinstance(event, Discarded):
                last_discard = event.seat
            elif isinstance(event, DealScored):
                if event.closer is not None and last_discard is not None:
                    earned.append((last_discard, "outs"))  # going out is the last card discarded (§17.6)
                totals = [score.total for score in event.scores]
                for seat in range(4):
                    earned.append((seat, "deals_played"))
                    if totals[seat % 2] > totals[1 - seat % 2]:
                        earned.append((seat, "deals_won"))
            elif isinstance(event, MatchEnded):
                for seat in range(4):
                    earned.append((seat, "matches_played"))
                    if seat % 2 == event.winner:
                        earned.append((seat, "matches_won"))
        return seat_stats(table, self.key, earned)


BURACO = BuracoGame()
