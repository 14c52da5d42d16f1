"""Очко's adapter: what the services ask of a table that plays it (RULES §20), a banking game for chips only."""

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
from bot.games.ochko import events as texts
from bot.games.ochko.buttons import HandButton, Op, read_selection
from bot.games.ochko.computer import decide
from bot.games.ochko.hand import render_hand
from bot.games.ochko.moves import auto_action, played_texts
from bot.games.ochko.replay import ochko_replay
from bot.games.ochko.settings import PROFILE_OPTIONS, Profile, chosen, options_for, own_settings, profile_of
from bot.games.ochko.table import places, render_table, standings_text
from bot.games.ochko.web import ochko_board
from bot.games.stats import seat_stats
from bot.i18n import Translator
from bot.render.common import name_of
from bot.render.keyboard import Keyboard
from bot.storage import Counter, JsonObject, StatsDelta, Table
from bot.table_settings import ComputerLevel, TableSettings
from engine.core.fair import FairShuffle
from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand
from engine.ochko.errors import Reason
from engine.ochko.events import BankClosed, BankEnd, Event, SessionEnded, Settled
from engine.ochko.match import MAX_PLAYERS, MIN_PLAYERS, Match
from engine.ochko.views import table_view, view

_SIMPLE: dict[Op, type[Knock | Deal | Hit | Stand | Dark]] = {
    Op.KNOCK: Knock,
    Op.DEAL: Deal,
    Op.HIT: Hit,
    Op.STAND: Stand,
    Op.DARK: Dark,
}


RULED = ("draw", "aces", "dark", "knock")  # own settings that change a rule: the lobby's line names a change


class OchkoCounter(StrEnum):
    """Очко's own counters in the chat's tally (``stats-<name>`` in the locales)."""

    CHIPS = "chips_won"  # chips won in duels as a player (a settlement paid to him)
    BROKEN = "banks_broken"  # banks he broke


@dataclass(frozen=True, slots=True)
class Before:
    """Who the game waited for, which round it was and who banked, before a move."""

    waiting: Waits
    round_no: int
    banker: int


class OchkoGame(FairlyDealt):
    """``GameAdapter[Match, Action, Event, Before]``: Очко."""

    key = "ochko"
    reasons: tuple[type[Enum], ...] = (Reason,)
    profiles: tuple[str, ...] = tuple(profile.value for profile in Profile)

    # -- the lobby -------------------------------------------------------------------------------------------

    def seats(self, settings: TableSettings) -> int | None:
        return None  # whoever sits plays; computers may be added

    def player_range(self, settings: TableSettings) -> tuple[int, int]:
        return MIN_PLAYERS, MAX_PLAYERS  # RULES §20.3, Ruling 1

    def own_settings(self, settings: TableSettings) -> tuple[Setting, ...]:
        return own_settings(settings)

    def rules_parts(self, settings: TableSettings, tr: Translator) -> list[str]:
        codes = chosen(settings)
        base = PROFILE_OPTIONS[profile_of(settings)]
        game = [tr.t(f"setting-profile-{profile_of(settings).value}")]
        game.append(tr.t("ochko-rules-chips", stack=int(codes["stack"]), bank_min=base.bank_min))
        game.append(tr.t(f"ochko-rules-banks-{codes['banks']}"))
        for own in self.own_settings(settings):  # the rules the table changed from its profile's
            if own.key in RULED and codes[own.key] != own.default:
                game.append(tr.t(f"ochko-rules-{own.key}-{codes[own.key]}"))
        return [tr.t("list-separator").join(game), tr.t("ochko-rules-no-money")]

    def help_text(self, settings: TableSettings, tr: Translator) -> str:
        codes = chosen(settings)
        base = PROFILE_OPTIONS[profile_of(settings)]
        return tr.t(
            "flow-help-ochko",
            stack=int(codes["stack"]),
            bank_min=base.bank_min,
            multiple=base.knock_multiple,
            dark="yes" if codes["dark"] == "1" else "no",
            draw=tr.t(f"setting-draw-{codes['draw']}"),
            aces=tr.t(f"setting-aces-{codes['aces']}"),
        )

    def new_match(self, settings: TableSettings, players: int, seed: str, fair: FairShuffle | None = None) -> Match:
        return Match(options_for(settings, players), players, seed, fair=fair)

    def load(self, data: JsonObject) -> Match:
        return Match.from_json(data)

    def start_events(self, match: Match) -> Sequence[Event]:
        return match.start_events

    # -- what the messages of a move need ---------------------------------------------------------------------

    def before(self, match: Match) -> Before:
        return Before(self.waiting_for(match), self.deal_number(match), match.banker)

    def new_deal(self, before: Before, match: Match) -> bool:
        return self.deal_number(match) != before.round_no

    def deal_number(self, match: Match) -> int:
        """The round being played; between rounds the next one (a move that ends a round without dealing the
        next, as a bank's end does, ends a deal all the same: its result carries «Как это было»); at the end the
        last one."""
        return match.round_no if match.in_round or match.finished else match.round_no + 1

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
        return render_table(table_view(match), names, tr, title=title, deadline_text=deadline_text, ended=ended)

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
        return render_hand(
            view(match, seat),
            names,
            tr,
            table_id=table_id,
            move=move,
            title=title,
            chosen=read_selection(selection),
            paused=paused,
            story=story,
        )

    board = staticmethod(ochko_board)  # the table as the Mini App draws it (bot/games/ochko/web.py)

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
        banker = before.banker if before is not None else match.banker
        told = texts.render_announcements(events, banker, match.options, names, tr)
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
        return texts.story_lines(events, names, tr)

    def stale_reason(self, match: Match, seat: int, names: Mapping[int, str], tr: Translator) -> str | None:
        return None  # nobody acts out of turn: a turn is never taken away

    def score_lines(self, match: Match, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        lines = [
            tr.t("ochko-score-title", round=self.deal_number(match)),
            self.summary_text(self.summary(match), names, settings, tr),
        ]
        seat = match.to_act()
        if seat is not None:
            lines.append(tr.t("hand-waiting", name=name_of(seat, names, tr)))
        return lines

    def summary(self, match: Match) -> JsonObject:
        return {"chips": list(match.chips), "rounds": match.round_no, "banks": match.banks_held}

    def summary_text(
        self, summary: JsonObject, names: Mapping[int, str], settings: TableSettings, tr: Translator
    ) -> str:
        chips = [int(n) for n in summary["chips"]]
        return tr.t("ochko-chips", standings=standings_text(chips, names, tr))

    # -- the verifiable shuffle -------------------------------------------------------------------------------

    def fair_over(self, match: Match) -> int:  # type: ignore[override]
        # A round may reshuffle its returned pile (RULES §20.7 item 8): the shuffles made in a round are revealed
        # only when it is over, not merely those before the latest (FairlyDealt's rule for one shuffle a deal).
        return match.fair_over

    # -- moves ------------------------------------------------------------------------------------------------

    def tap(self, match: Match, seat: int, op: str, payload: str) -> Tap[Action]:
        tapped = HandButton.read(op, payload)  # ValueError: no button of ours
        if tapped.op is Op.REFRESH:
            return Redraw(resend=True)
        if tapped.op is Op.STEP:
            return Redraw(selection=tapped.payload())
        action: Action
        if tapped.op is Op.STAKE:
            action = StakeBank(seat, tapped.amount or 0)
        elif tapped.op is Op.BET:
            action = Bet(seat, tapped.amount or 0)
        else:
            action = _SIMPLE[tapped.op](seat)
        reason = match.diagnose(action)
        return Move((action,)) if reason is None else Refused(reason)

    def auto_action(self, match: Match, seat: int) -> Action | None:
        return auto_action(match, seat)

    def continues(self, match: Match, seat: int, action: Action) -> bool:
        return False  # one action a commit: each is news on the table (a bet, a card, a settlement)

    def forfeit(self, match: Match, seat: int) -> Sequence[Event] | None:
        # RULES §20.14 item 13: a player who times out again and again may be treated as leaving (item 7): his
        # hand stands or his card goes back, his chips stay in the standings.
        return match.apply(Leave(seat))

    def played_text(self, actions: Sequence[Action], tr: Translator) -> str:
        return played_texts(actions, tr)

    def out_of_turn_caller(self, match: Match, computers: frozenset[int]) -> int | None:
        return None  # nobody acts out of turn in Очко

    def decision(self, match: Match, seat: int, level: ComputerLevel, seed: str) -> Decision[Action]:
        return Decision(decide, (view(match, seat), level), heavy=False)

    # -- stats and ratings --------------------------------------------------------------------------------------

    def stats(self, table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
        """Per person: duels played and won (as «сдачи»), sessions played and won (the most chips, shared), the
        chips won in duels and the banks broken."""
        earned: list[tuple[int, StrEnum]] = []
        chips: dict[int, int] = {}
        for event in events:
            if isinstance(event, Settled):
                earned.append((event.seat, Counter.DEALS_PLAYED))
                if event.player_won:
                    earned.append((event.seat, Counter.DEALS_WON))
                    chips[event.seat] = chips.get(event.seat, 0) + event.amount
            elif isinstance(event, BankClosed) and event.why is BankEnd.BROKEN and event.breaker is not None:
                earned.append((event.breaker, OchkoCounter.BROKEN))
            elif isinstance(event, SessionEnded):
                ranked = places(event.chips)
                for seat in range(len(event.chips)):
                    earned.append((seat, Counter.MATCHES_PLAYED))
                    if ranked[seat] == 1:
                        earned.append((seat, Counter.MATCHES_WON))
        deltas = seat_stats(table, self.key, earned)
        users = {seat.seat: seat.user_id for seat in table.seats}
        won = {users[seat]: amount for seat, amount in chips.items() if users.get(seat) is not None}
        for delta in deltas:
            if delta.user_id in won:
                delta.counts[OchkoCounter.CHIPS.value] = won.pop(delta.user_id)
        return deltas

    def standing(self, match: Match) -> Standing | None:
        if not match.finished:
            return None
        return Standing(tuple((seat,) for seat in range(match.players)), tuple(places(match.chips)))

    def replay(self, match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
        return ochko_replay(match, deal, seat, names, tr)


OCHKO = OchkoGame()
