"""Announcements: new group messages for what deserves a notification (UX.md "The group").

The start of a deal, a call and its outcome («Бура!», «Стоп!», «Вскрываюсь!»), the end of a deal and of the
match. Tricks are not announced: they live in the table message, except the one that ended a deal (the table
moves on to the next deal at once), which leads the deal's result. What one move produces is merged into one
message (split only if it would pass Telegram's length limit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.bura.cards import BACK, card_text, cards_text, suit_name
from bot.games.bura.common import match_model, match_tally, trick_summary
from bot.i18n import Translator
from bot.render.common import MAX_TEXT, clip, name_of, side_name, side_of, sides_names, tally
from bot.table_settings import TableSettings
from engine.bura.actions import Claim, DeclareCombo
from engine.bura.cards import Card
from engine.bura.combos import Combo
from engine.bura.events import (
    Claimed,
    ComboShown,
    DealEnded,
    DealStarted,
    Eliminated,
    Event,
    LeadSeized,
    MatchEnded,
    OutcomeKind,
    Redealt,
    ScoreChanged,
    SeizureFailed,
)
from engine.bura.match import Match
from engine.bura.variant import MatchModel
from engine.bura.views import TrickView
from engine.core.cards import SUITS, Suit

INSTANT = frozenset({Combo.BURA, Combo.MOSCOW})  # combos whose call is their name: «Бура!», «Москва!»


def render_announcements(
    events: Sequence[Event],
    names: Mapping[int, str],
    tr: Translator,
    *,
    teams: bool,
    settings: TableSettings | None = None,
    scores_before: Sequence[int] | None = None,
    final_trick: TrickView | None = None,
) -> list[str]:
    """The texts of new group messages for ``events`` (those of one move), usually one or none.

    ``settings`` names the match model for the score line (without it the tally of won deals);
    ``scores_before`` (the view's ``scores`` before the move) adds what the deal changed: ``Борис 6 (+4)``;
    ``final_trick`` is the trick that ended the deal, if this move ended one with a trick.
    """
    model = match_model(settings) if settings is not None else None
    writer = EventWriter(names, tr, teams, model, scores_before, final_trick)
    write_events(writer, events)
    return writer.messages()


def write_events(writer: EventWriter, events: Sequence[Event], told: tuple[type, ...] | None = None) -> None:
    """Tell ``events`` (only those of the types ``told``, if given): a combination shown is told with what came
    of it — the lead seized, or kept by the rightful leader."""
    skip: set[int] = set()
    for index, event in enumerate(events):
        if index in skip or (told is not None and not isinstance(event, told)):
            continue
        following = events[index + 1 : index + 3]
        if isinstance(event, ComboShown):
            if following and isinstance(following[0], LeadSeized):
                writer.seized(event, following[0])
                skip.add(index + 1)
            elif (
                len(following) == 2 and isinstance(following[0], ComboShown) and isinstance(following[1], SeizureFailed)
            ):
                writer.kept(event, following[0])
                skip.update((index + 1, index + 2))
            else:
                writer.call(event)
        else:
            writer.add(event)


_HAND_TOLD: tuple[type, ...] = (
    ComboShown,
    LeadSeized,
    SeizureFailed,
    Claimed,
    DealEnded,
    ScoreChanged,
    Eliminated,
    MatchEnded,
)
"""What a hand tells of a move: the calls the group hears («Бура!», «Стоп!», «Вскрываюсь!» and its count), and the
deal's end and the score; not the new deal, which the hand itself shows."""


def deal_result(
    events: Sequence[Event],
    names: Mapping[int, str],
    tr: Translator,
    *,
    teams: bool,
    settings: TableSettings,
    scores_before: Sequence[int] | None = None,
    final_trick: TrickView | None = None,
) -> list[str]:
    """The lines a player's hand tells of ``events``: the calls the group hears («Бура!», «Стоп!», «Вскрываюсь!»
    with the count of the pile), then how the deal ended and why, after the trick that ended it, if one did, and
    the match score (the hand shows the next deal at once: issue 37, it must say why this one ended)."""
    writer = EventWriter(names, tr, teams, match_model(settings), scores_before, final_trick)
    write_events(writer, events, _HAND_TOLD)
    return [line for block in writer.blocks for line in block]


class EventWriter:
    def __init__(
        self,
        names: Mapping[int, str],
        tr: Translator,
        teams: bool,
        model: MatchModel | None,
        scores_before: Sequence[int] | None,
        final_trick: TrickView | None,
    ) -> None:
        self.names = names
        self.tr = tr
        self.teams = teams
        self.model = model
        self.scores_before = scores_before
        self.final_trick = final_trick
        self.blocks: list[list[str]] = [[]]

    # -- names -----------------------------------------------------------------------------------------------

    def name(self, seat: int) -> str:
        return name_of(seat, self.names, self.tr)

    def side(self, side: int) -> str:
        return side_name(side, self.teams, self.names, self.tr)

    def sides(self, sides: Sequence[int]) -> tuple[str, int]:
        return sides_names(sides, self.teams, self.names, self.tr)

    def line(self, text: str) -> None:
        self.blocks[-1].append(text)

    def combo_line(self, shown: ComboShown) -> str:
        """«Борис: «Бура!» — 6♦️ 7♦️ 8♦️»; «Вика: «Стоп!» — молодка 7♣️ 8♣️ 10♣️»: a call names its combination
        only where the call does not ("Стоп!" covers several)."""
        tr = self.tr
        call = tr.t("combo-call", combo=shown.combo.value)
        cards = cards_text(shown.cards, tr)
        if shown.combo in INSTANT:
            return tr.t("call-combo", name=self.name(shown.seat), call=call, cards=cards)
        return tr.t(
            "call-combo-named", name=self.name(shown.seat), call=call, combo=self.combo(shown.combo), cards=cards
        )

    def combo(self, combo: Combo) -> str:
        return self.tr.t(f"combo-{combo.value}")

    # -- events ----------------------------------------------------------------------------------------------

    def call(self, shown: ComboShown) -> None:
        """A combo shown on its own: an instant win («Бура!»); the deal's end follows."""
        self.line(self.combo_line(shown))

    def seized(self, shown: ComboShown, seized: LeadSeized) -> None:
        self.line(self.combo_line(shown))
        self.line(self.tr.t("call-seized", name=self.name(seized.seat)))

    def kept(self, shown: ComboShown, answer: ComboShown) -> None:
        """«Стоп!» answered by the rightful leader's equal or better combo (RULES §9.5)."""
        self.line(self.combo_line(shown))
        self.line(
            self.tr.t(
                "call-kept",
                name=self.name(answer.seat),
                combo=self.combo(answer.combo),
                cards=cards_text(answer.cards, self.tr),
            )
        )

    def add(self, event: Event) -> None:
        tr = self.tr
        if isinstance(event, Redealt):
            self.new_block()
            self.line(tr.t("deal-redealt", name=self.name(event.seat), combo=self.combo(event.combo)))
        elif isinstance(event, DealStarted):
            self.new_block()
            self.line(
                tr.t(
                    "deal-start",
                    deal=event.deal_number,
                    dealer=self.name(event.dealer),
                    trump=suit_name(event.trump_card.suit, tr),
                    card=card_text(event.trump_card, tr),
                    leader=self.name(event.leader),
                )
            )
        elif isinstance(event, LeadSeized):
            self.line(tr.t("call-seized", name=self.name(event.seat)))
        elif isinstance(event, SeizureFailed):
            self.line(tr.t("call-kept", name=self.name(event.holder), combo="", cards=""))
        elif isinstance(event, Claimed):
            self.line(tr.t("call-claim", name=self.name(event.seat)))
            self.line(self.claim_line(event))
        elif isinstance(event, DealEnded):
            if self.final_trick is not None:
                self.line(trick_summary(self.final_trick, self.names, tr))
                self.final_trick = None
            self.deal_ended(event)
        elif isinstance(event, ScoreChanged):
            before = self.scores_before
            score = match_tally(self.model, event.scores, event.wins, event.pot, self.side, (), tr, before)
            self.scores_before = event.scores  # a second deal in the same move changes from here
            if score is not None:
                self.line(score)
            if event.doubled_next:
                self.line(tr.t("tally-doubled"))
        elif isinstance(event, Eliminated):
            self.line(tr.t("player-eliminated", name=self.name(event.seat)))
        elif isinstance(event, MatchEnded):
            if event.winners:
                winners, people = self.sides(event.winners)
                self.line(tr.t("match-won", name=winners, count=people))
            else:
                self.line(tr.t("match-draw"))
        # Led, Responded, TrickTaken, CardsDrawn, StockDead, LastCardsTaken, Passed: the table message shows them.

    def claim_line(self, claim: Claimed) -> str:
        """The revealed pile, grouped and counted: the open cards suit by suit, the face-down ones turned over
        (``🂠→Д♥️``), and the points against the target."""
        tr = self.tr
        opened = [entry.card for entry in claim.pile if not entry.face_down]
        hidden = [entry for entry in claim.pile if entry.face_down]
        groups = [cards_text(_by_strength(opened, suit), tr) for suit in SUITS if any(c.suit is suit for c in opened)]
        parts = [tr.t("tally-separator").join(groups)] if groups else []
        if hidden:
            turned = " ".join(f"{BACK}→{card_text(entry.card, tr)}" for entry in hidden)
            parts.append(tr.t("claim-face-down", count=len(hidden), cards=turned))
        return tr.t(
            "claim-pile",
            count=len(claim.pile),
            cards=tr.t("tally-separator").join(parts) if parts else "—",
            points=claim.points,
            target=claim.threshold,
            success="yes" if claim.success else "no",
        )

    def deal_ended(self, event: DealEnded) -> None:
        tr = self.tr
        outcome = event.outcome
        if outcome.kind is OutcomeKind.FALSE_CLAIM and outcome.seat is not None:
            self.line(tr.t("deal-false-claim", name=self.name(outcome.seat)))
        elif outcome.kind is OutcomeKind.FORFEIT and outcome.seat is not None:
            self.line(tr.t("deal-forfeit", name=self.name(outcome.seat)))
        elif outcome.kind is OutcomeKind.VOID:
            self.line(tr.t("deal-void"))
            return
        elif outcome.kind is OutcomeKind.PLAYED_OUT:
            sides: list[int] = []
            for seat in outcome.seats:
                if side_of(seat, self.teams) not in sides:
                    sides.append(side_of(seat, self.teams))
            points = tally([(self.side(side), str(outcome.points[side])) for side in sorted(sides)], tr)
            self.line(tr.t("deal-played-out", tally=points))
            if len(outcome.winners) == len(sides):
                self.line(tr.t("deal-tie"))
                return
        if outcome.winners:
            winners, people = self.sides(outcome.winners)
            self.line(tr.t("deal-won", name=winners, count=people))

    # -- messages --------------------------------------------------------------------------------------------

    def new_block(self) -> None:
        if self.blocks[-1]:
            self.blocks.append([])

    def messages(self) -> list[str]:
        """All blocks in one message, a blank line between; several messages only past Telegram's limit."""
        texts = [clip("\n".join(block)) for block in self.blocks if block]
        messages: list[str] = []
        for text in texts:
            if messages and len(messages[-1]) + 2 + len(text) <= MAX_TEXT:
                messages[-1] += "\n\n" + text
            else:
                messages.append(text)
        return messages


def _by_strength(cards: Sequence[Card], suit: Suit) -> list[Card]:
    return sorted((card for card in cards if card.suit is suit), key=lambda card: -card.strength)


def stale_call(match: Match, seat: int, names: Mapping[int, str], tr: Translator) -> str | None:
    """Why a tap of ``seat`` went stale, when an opponent's call did it: the match's last move is another seat's
    «Стоп!» or «Вскрываюсь!». Plain text, for an alert (names as they are, not escaped)."""
    if not match.actions:
        return None
    last = match.actions[-1]
    if not isinstance(last, DeclareCombo | Claim) or last.seat == seat:
        return None

    def name(who: int) -> str:
        return names.get(who) or tr.t("seat-name", number=who + 1)

    if isinstance(last, Claim):
        return tr.t("stale-claim", name=name(last.seat))
    leader = match.to_act()
    if leader is None or leader == last.seat:
        return tr.t("stale-stop-seized", name=name(last.seat))
    return tr.t("stale-stop-other", name=name(last.seat), leader=name(leader))
