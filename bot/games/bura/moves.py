"""Bura's moves without a tap of their own: what a button means, what the timer plays, how a move reads."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.bura.buttons import HandOp
from bot.games.bura.cards import cards_text
from bot.i18n import Translator
from engine.bura.actions import Action, Claim, DeclareCombo, Lead, Pass, RespondFaceDown, RespondOpen
from engine.bura.cards import Card, points, set_beats
from engine.bura.deal import Phase
from engine.bura.errors import IllegalAction, Reason
from engine.bura.match import Match
from engine.core.cards import Suit


def auto_action(match: Match, seat: int) -> Action | None:
    """The move the timer makes for a player, as a sensible player would make it: an answer that takes the trick
    with the weakest cards that do (plain suits before trumps), else the cheapest discard (face down where
    allowed, so no points are given away); the cheapest lead; a Pass in an optional window; never a claim (it
    could be false)."""
    legal = [action for action in match.legal_actions(seat) if not isinstance(action, Claim)]
    trick = None if match.finished else match.deal.trick
    if trick is not None and match.deal.phase is Phase.RESPOND:
        trump, shokha = match.deal.trump, match.variant.shokha
        beating = [
            action
            for action in legal
            if isinstance(action, RespondOpen) and set_beats(action.cards, trick.best, trump, shokha)
        ]
        if beating:
            return min(beating, key=lambda action: (_trumps(action.cards, trump), _strength(action.cards)))
    face_down = [action for action in legal if isinstance(action, RespondFaceDown)]
    plays: Sequence[Lead | RespondOpen | RespondFaceDown] = face_down or [
        action for action in legal if isinstance(action, Lead | RespondOpen)
    ]
    if plays:
        return min(plays, key=lambda action: (points(action.cards), len(action.cards), _strength(action.cards)))
    passes = [action for action in legal if isinstance(action, Pass)]
    if passes:
        return passes[0]
    return legal[0] if legal else None


def _trumps(cards: Sequence[Card], trump: Suit) -> int:
    return sum(1 for card in cards if card.suit is trump)


def played_text(action: Action, tr: Translator) -> str:
    """What a move did, as what the bot did («бот …»): «сыграл 2 карты втёмную», «сыграл Д♠ 7♠», «пропустил ход»."""
    if isinstance(action, RespondFaceDown):
        return tr.t("played-face-down", count=len(action.cards))
    if isinstance(action, Lead | RespondOpen):
        return tr.t("played-cards", cards=cards_text(action.cards, tr))
    if isinstance(action, Pass):
        return tr.t("played-pass")
    if isinstance(action, DeclareCombo):
        return tr.t("played-combo", call=tr.t("combo-call", combo=action.combo.value))
    return ""


def _strength(cards: Sequence[Card]) -> int:
    return sum(card.strength for card in cards)


def _same_cards(a: Sequence[Card], b: Sequence[Card]) -> bool:
    return len(a) == len(b) and set(a) == set(b)


def choose_action(match: Match, seat: int, op: HandOp, selection: tuple[Card, ...]) -> Action | Reason:
    """The engine action a hand button means, taken from the legal actions; else why it is refused."""
    legal = match.legal_actions(seat)
    candidate: Action
    if op is HandOp.PLAY or op is HandOp.FACE_DOWN:
        if not selection:
            return Reason.NO_CARDS
        kinds: tuple[type, ...]
        if op is HandOp.FACE_DOWN:
            kinds = (RespondFaceDown,)
            candidate = RespondFaceDown(seat, selection)
        elif not match.finished and match.deal.phase is Phase.RESPOND:
            kinds = (RespondOpen,)
            candidate = RespondOpen(seat, selection)
        else:
            kinds = (Lead,)
            candidate = Lead(seat, selection)
        for action in legal:
            if isinstance(action, kinds) and _same_cards(action.cards, selection):
                return action
    elif op is HandOp.CLAIM:
        candidate = Claim(seat)
    elif op is HandOp.PASS:
        candidate = Pass(seat)
    elif op is HandOp.COMBO:
        combos = [action for action in legal if isinstance(action, DeclareCombo)]
        if combos:
            return combos[0]
        return Reason.NO_SUCH_COMBO
    else:
        return Reason.UNKNOWN_ACTION
    if candidate in legal:
        return candidate
    try:
        match.verify(candidate)
    except IllegalAction as error:
        return error.reason
    return Reason.UNKNOWN_ACTION
