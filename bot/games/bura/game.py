"""The Bura family's adapter: what the services ask of a table that plays Бура, Буркозёл or Козёл."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import Enum

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
    Waits,
    apply_all,
    reveal_line,
    with_reveal,
)
from bot.games.bura import lobby
from bot.games.bura.buttons import HandOp, pack_cards, unpack_cards
from bot.games.bura.common import match_model, match_tally
from bot.games.bura.computer import decide, out_of_turn_caller
from bot.games.bura.events import deal_result, render_announcements, stale_call
from bot.games.bura.hand import render_hand
from bot.games.bura.moments import Before, stats_for, waiting_for
from bot.games.bura.moves import auto_action, choose_action, played_text
from bot.games.bura.replay import bura_replay
from bot.games.bura.settings import PROFILE_VARIANTS, own_settings, variant
from bot.games.bura.standing import bura_standing
from bot.games.bura.table import render_table
from bot.games.bura.web import bura_board
from bot.i18n import Translator
from bot.render.common import name_of, side_name
from bot.render.keyboard import Keyboard
from bot.storage import JsonObject, StatsDelta, Table
from bot.table_settings import ComputerLevel, TableSettings
from engine.bura.actions import Action
from engine.bura.deal import Phase
from engine.bura.errors import Reason
from engine.bura.events import Event
from engine.bura.match import Match
from engine.bura.views import public_view, view
from engine.core.fair import FairShuffle


class BuraGame(FairlyDealt):
    """``GameAdapter[Match, Action, Event, Before]``: Бура, Буркозёл and Козёл."""

    key = "bura"
    reasons: tuple[type[Enum], ...] = (Reason,)
    profiles: tuple[str, ...] = tuple(profile.value for profile in PROFILE_VARIANTS)

    def seats(self, settings: TableSettings) -> int | None:
        return None  # whoever sits plays

    def player_range(self, settings: TableSettings) -> tuple[int, int]:
        return lobby.player_range(settings)

    def own_settings(self, settings: TableSettings) -> tuple[Setting, ...]:
        return own_settings(settings)

    def rules_parts(self, settings: TableSettings, tr: Translator) -> list[str]:
        return lobby.rules_parts(settings, tr)

    def help_text(self, settings: TableSettings, tr: Translator) -> str:
        return lobby.help_text(settings, tr)

    def new_match(self, settings: TableSettings, players: int, seed: str, fair: FairShuffle | None = None) -> Match:
        return Match(variant(settings), players, seed, fair=fair)

    def load(self, data: JsonObject) -> Match:
        return Match.from_json(data)

    def start_events(self, match: Match) -> Sequence[Event]:
        return match.start_events

    def before(self, match: Match) -> Before:
        return Before.of(match)

    def new_deal(self, before: Before, match: Match) -> bool:
        return match.deal is not before.deal

    def deal_number(self, match: Match) -> int:
        return match.deal_number

    def waiting_for(self, match: Match) -> Waits:
        return waiting_for(match)

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
        return render_table(
            public_view(match),
            names,
            tr,
            title=title,
            settings=settings,
            deadline_text=deadline_text,
            ended=ended,
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
        if story.table_text is not None and not story.notes:
            story = replace(story, notes=deal_just_ended(match, seat, names, tr))
        return render_hand(
            view(match, seat),
            names,
            tr,
            table_id=table_id,
            move=move,
            title=title,
            selection=unpack_cards(selection),
            paused=paused,
            confirm_claim=confirm,
            story=story,
        )

    board = staticmethod(bura_board)  # the table as the Mini App draws it (bot/games/bura/web.py)

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
        told = _told(render_announcements, match, events, names, tr, settings, before)
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
        return _told(deal_result, match, events, names, tr, settings, before)

    def stale_reason(self, match: Match, seat: int, names: Mapping[int, str], tr: Translator) -> str | None:
        return stale_call(match, seat, names, tr)

    def score_lines(self, match: Match, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        lines = [
            tr.t("flow-score-title", deal=match.deal_number),
            self.summary_text(self.summary(match), names, settings, tr),
        ]
        seat = match.to_act()
        if seat is not None:
            lines.append(tr.t("hand-waiting", name=name_of(seat, names, tr)))
        return lines

    def summary(self, match: Match) -> JsonObject:
        out = [s for s in range(match.sides) if not any(seat in match.active for seat in match.seats_of(s))]
        return {"teams": match.teams, "scores": match.scores, "wins": match.wins, "pot": match.pot, "out": out}

    def summary_text(
        self, summary: JsonObject, names: Mapping[int, str], settings: TableSettings, tr: Translator
    ) -> str:
        teams = bool(summary["teams"])
        scores, wins = [int(n) for n in summary["scores"]], [int(n) for n in summary["wins"]]

        def label(side: int) -> str:
            return side_name(side, teams, names, tr)

        out = [int(side) for side in summary["out"]]
        tally = match_tally(match_model(settings), scores, wins, int(summary["pot"]), label, out, tr)
        return tally or tr.t("tally-wins", tally=" · ".join(f"{label(s)} {wins[s]}" for s in range(len(wins))))

    def tap(self, match: Match, seat: int, op: str, payload: str) -> Tap[Action]:
        hand_op = HandOp(op)  # ValueError: no button of ours
        selection = unpack_cards(payload)
        if hand_op in (HandOp.TOGGLE, HandOp.REFRESH, HandOp.CLAIM_ASK):
            hand = match.deal.hands.get(seat, [])
            if len(set(selection)) != len(selection) or not set(selection) <= set(hand):
                raise ValueError("marks of cards not in the hand")
            refusal = None
            if hand_op is HandOp.TOGGLE and selection:
                # Marks that make no move: the hand says why (the engine's reason).
                decided = choose_action(match, seat, HandOp.PLAY, selection)
                if isinstance(decided, Reason) and match.deal.phase is Phase.RESPOND:
                    face_down = choose_action(match, seat, HandOp.FACE_DOWN, selection)
                    decided = decided if isinstance(face_down, Reason) else face_down
                refusal = decided if isinstance(decided, Reason) else None
            return Redraw(
                selection=pack_cards(selection),
                refusal=refusal,
                confirm=hand_op is HandOp.CLAIM_ASK,
                resend=hand_op is HandOp.REFRESH,
            )
        chosen = choose_action(match, seat, hand_op, selection)
        return Refused(chosen) if isinstance(chosen, Reason) else Move((chosen,))

    def auto_action(self, match: Match, seat: int) -> Action | None:
        return auto_action(match, seat)

    def continues(self, match: Match, seat: int, action: Action) -> bool:
        return False  # every move of Bura is a turn of its own

    def forfeit(self, match: Match, seat: int) -> Sequence[Event] | None:
        return match.forfeit(seat)  # the bot issue's rule: three timeouts in a row lose the deal

    def played_text(self, actions: Sequence[Action], tr: Translator) -> str:
        return tr.t("list-separator").join(played_text(action, tr) for action in actions)

    def out_of_turn_caller(self, match: Match, computers: frozenset[int]) -> int | None:
        return out_of_turn_caller(match, computers)

    def decision(self, match: Match, seat: int, level: ComputerLevel, seed: str) -> Decision[Action]:
        return Decision(decide, (match.variant, view(match, seat), level, seed), heavy=level is ComputerLevel.HARD)

    def stats(self, table: Table, match: Match, events: Sequence[Event]) -> list[StatsDelta]:
        return stats_for(table, match, events)

    def standing(self, match: Match) -> Standing | None:
        return bura_standing(match) if match.finished else None

    def replay(self, match: Match, deal: int, seat: int, names: Mapping[int, str], tr: Translator) -> list[str] | None:
        return bura_replay(match, deal, seat, names, tr)


def deal_just_ended(match: Match, seat: int, names: Mapping[int, str], tr: Translator) -> list[str]:
    """The deal just ended, as the move that ended it told it, while ``seat`` has not moved in the next one.

    A game against the computer tells a deal's end in the hand (there is no group), and the next tap redrew it
    away (issue 37): the result now stays until the player plays on. The match keeps no deal's events, so they
    are replayed from its log (what loading a stored table does anyway); the match score is in the table above.
    """
    deal = match.deal
    if match.finished or match.deal_number == 0 or deal.history:
        return []
    trick = deal.trick
    if trick is not None and (trick.leader == seat or any(play.seat == seat for play in trick.plays)):
        return []
    replayed = Match.from_json({**match.to_json(), "actions": []})
    told: list[str] = []
    for logged in match.actions:
        before = Before(tuple(replayed.scores), replayed.deal, frozenset(), len(replayed.deal.history))
        events = replayed.replay(logged)
        if replayed.deal is not before.deal:
            texts = render_announcements(
                events,
                names,
                tr,
                teams=replayed.teams,
                scores_before=before.scores,
                final_trick=before.final_trick(replayed),
            )
            told = [line for text in texts for line in text.split("\n")]
    return told


def _told(
    render: Callable[..., list[str]],
    match: Match,
    events: Sequence[Event],
    names: Mapping[int, str],
    tr: Translator,
    settings: TableSettings,
    before: Before | None,
) -> list[str]:
    """The group's announcements or a hand's story of a move: what the match was before it says what changed."""
    scores = before.scores if before is not None else None
    final = before.final_trick(match) if before is not None else None
    return render(events, names, tr, teams=match.teams, settings=settings, scores_before=scores, final_trick=final)


BURA = BuraGame()
