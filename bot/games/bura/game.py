"""The Bura family's adapter: what the services ask of a table that plays Бура, Буркозёл or Козёл."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.base import Decision, HandStory, Moment, Redraw, Setting
from bot.games.bura import lobby
from bot.games.bura.buttons import HandOp, pack_cards, unpack_cards
from bot.games.bura.common import match_model, match_tally
from bot.games.bura.computer import decide, out_of_turn_caller
from bot.games.bura.events import deal_result, render_announcements
from bot.games.bura.hand import render_hand
from bot.games.bura.moments import Before, stats_for, waiting_for
from bot.games.bura.moves import auto_action, choose_action, played_text
from bot.games.bura.settings import PROFILE_VARIANTS, own_settings, variant
from bot.games.bura.table import render_table
from bot.i18n import Translator
from bot.render.common import name_of, side_name
from bot.render.keyboard import Keyboard
from bot.storage import StatsDelta, Table
from bot.table_settings import ComputerLevel, TableSettings
from engine.bura.deal import Phase
from engine.bura.errors import Reason
from engine.bura.match import Match
from engine.bura.views import public_view, view
from engine.core.game import Game


def bura_match(match: Game) -> Match:
    """A table's match as the Bura engine's own (the services hold it as any game's)."""
    assert isinstance(match, Match), match
    return match


class BuraGame:
    key = "bura"
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

    def new_match(self, settings: TableSettings, players: int, seed: str) -> Match:
        return Match(variant(settings), players, seed)

    def load(self, data: dict[str, Any]) -> Match:
        return Match.from_json(data)

    def start_events(self, match: Game) -> Sequence[Any]:
        return bura_match(match).start_events

    def before(self, match: Game) -> Before:
        return Before.of(bura_match(match))

    def waiting_for(self, match: Game) -> frozenset[tuple[int, str]]:
        return waiting_for(bura_match(match))

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
        return render_table(
            public_view(bura_match(match)),
            names,
            tr,
            title=title,
            settings=settings,
            deadline_text=deadline_text,
            ended=ended,
        )

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
        return render_hand(
            view(bura_match(match), seat),
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
        return _told(render_announcements, match, events, names, tr, settings, before)

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
        return _told(deal_result, match, events, names, tr, settings, before)

    def score_lines(self, match: Game, names: Mapping[int, str], settings: TableSettings, tr: Translator) -> list[str]:
        played = bura_match(match)
        lines = [tr.t("flow-score-title", deal=played.deal_number)]

        def label(side: int) -> str:
            return side_name(side, played.teams, names, tr)

        out = [s for s in range(played.sides) if not any(seat in played.active for seat in played.seats_of(s))]
        tally = match_tally(match_model(settings), played.scores, played.wins, played.pot, label, out, tr)
        wins = " · ".join(f"{label(s)} {played.wins[s]}" for s in range(played.sides))
        lines.append(tally or tr.t("tally-wins", tally=wins))
        seat = played.to_act()
        if seat is not None:
            lines.append(tr.t("hand-waiting", name=name_of(seat, names, tr)))
        return lines

    def tap(self, match: Game, seat: int, op: str, cards: str) -> Any:
        played = bura_match(match)
        hand_op = HandOp(op)  # ValueError: no button of ours
        selection = unpack_cards(cards)
        if hand_op in (HandOp.TOGGLE, HandOp.REFRESH, HandOp.CLAIM_ASK):
            hand = played.deal.hands.get(seat, [])
            if len(set(selection)) != len(selection) or not set(selection) <= set(hand):
                raise ValueError("marks of cards not in the hand")
            refusal = None
            if hand_op is HandOp.TOGGLE and selection:
                # Marks that make no move: the hand says why (the engine's reason).
                decided = choose_action(played, seat, HandOp.PLAY, selection)
                if isinstance(decided, Reason) and played.deal.phase is Phase.RESPOND:
                    face_down = choose_action(played, seat, HandOp.FACE_DOWN, selection)
                    decided = decided if isinstance(face_down, Reason) else face_down
                refusal = decided if isinstance(decided, Reason) else None
            return Redraw(
                selection=pack_cards(selection),
                refusal=refusal,
                confirm=hand_op is HandOp.CLAIM_ASK,
                resend=hand_op is HandOp.REFRESH,
            )
        return choose_action(played, seat, hand_op, selection)

    def auto_action(self, match: Game, seat: int) -> Any | None:
        return auto_action(bura_match(match), seat)

    def continues(self, match: Game, seat: int, action: Any) -> bool:
        return False  # every move of Bura is a turn of its own

    def forfeit(self, match: Game, seat: int) -> Sequence[Any] | None:
        return bura_match(match).forfeit(seat)  # the bot issue's rule: three timeouts in a row lose the deal

    def played_text(self, action: Any, tr: Translator) -> str:
        return played_text(action, tr)

    def out_of_turn_caller(self, match: Game, computers: frozenset[int]) -> int | None:
        return out_of_turn_caller(bura_match(match), computers)

    def decision(self, match: Game, seat: int, level: ComputerLevel, seed: str) -> Decision:
        played = bura_match(match)
        return Decision(decide, (played.variant, view(played, seat), level, seed), heavy=level is ComputerLevel.HARD)

    def stats(self, table: Table, match: Game, events: Sequence[Any]) -> list[StatsDelta]:
        return stats_for(table, bura_match(match), events)


def _told(
    render: Callable[..., list[str]],
    match: Game,
    events: Sequence[Any],
    names: Mapping[int, str],
    tr: Translator,
    settings: TableSettings,
    before: Moment | None,
) -> list[str]:
    """The group's announcements or a hand's story of a move: what the match was before it says what changed."""
    played = bura_match(match)
    scores = before.scores if isinstance(before, Before) else None
    final = before.final_trick(played) if isinstance(before, Before) else None
    return render(events, names, tr, teams=played.teams, settings=settings, scores_before=scores, final_trick=final)


BURA = BuraGame()
