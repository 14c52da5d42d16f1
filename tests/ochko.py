"""Scripted Очко players for the tests that drive the bot (tests/e2e/test_ochko.py, tests/bot/games/
test_ochko_play.py): a choice that makes a session short, and the hand button that plays it."""

from __future__ import annotations

from bot.games.ochko.buttons import HandButton, Op
from engine.ochko.actions import Action, Bet, Hit, Knock, StakeBank, Stand
from engine.ochko.hands import value
from engine.ochko.match import Match, Phase


def scripted(match: Match, seat: int) -> Action:
    """The smallest bank, a knock whenever asked, the whole bank (or all one has) as the bet, a card below 17."""
    legal = match.legal_actions(seat)
    phase = match.phase
    if phase is Phase.STAKE:
        return legal[0]
    if phase is Phase.KNOCK:
        return Knock(seat)
    if phase is Phase.BET:
        return Bet(seat, match.bet_buttons()[3])
    hand = match.banker_hand if phase is Phase.BANKER else match.hands[seat]
    if Hit(seat) in legal and value(hand, match.options) < 17:
        return Hit(seat)
    return Stand(seat)


def button_of(action: Action) -> HandButton:
    """The hand button that plays ``action`` (a stake's and a bet's carry their amount)."""
    if isinstance(action, StakeBank):
        return HandButton(Op.STAKE, action.amount)
    if isinstance(action, Bet):
        return HandButton(Op.BET, action.amount)
    return HandButton({Knock: Op.KNOCK, Hit: Op.HIT, Stand: Op.STAND}[type(action)])
