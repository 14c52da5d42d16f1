"""The moves the bot makes for a player: the timer's (RULES §20.14 item 13) and what it tells of them."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand
from engine.ochko.hands import value
from engine.ochko.match import AUTO_STAND, Match, Phase


def auto_action(match: Match, seat: int) -> Action | None:
    """§20.14 item 13: STAKE → the minimum bank; KNOCK → deal on; BET → the lowest bet; PLAY → stand; BANKER →
    hit below 17, stand at 17 or more, within the draw rule [O07]."""
    legal = match.legal_actions(seat)
    if not legal:
        return None
    phase = match.phase
    if phase in (Phase.STAKE, Phase.BET):
        return legal[0]  # the amounts are listed from the lowest
    if phase is Phase.KNOCK:
        return Deal(seat)
    if phase is Phase.PLAY:
        return Stand(seat)
    hit, stand = Hit(seat) in legal, Stand(seat) in legal
    if hit and (value(match.banker_hand, match.options) < AUTO_STAND or not stand):
        return Hit(seat)
    return Stand(seat) if stand else legal[0]


def played_text(action: Action, tr: Translator) -> str:
    """«поставил 1», «сказал «Хватит»»: what the bot did, after «бот»."""
    if isinstance(action, StakeBank):
        return tr.t("ochko-played-stake", amount=action.amount)
    if isinstance(action, Bet):
        return tr.t("ochko-played-bet", amount=action.amount)
    keys = {Knock: "knock", Deal: "deal", Hit: "hit", Stand: "stand", Dark: "dark", Leave: "leave"}
    return tr.t(f"ochko-played-{keys[type(action)]}")


def played_texts(actions: Sequence[Action], tr: Translator) -> str:
    return tr.t("list-separator").join(played_text(action, tr) for action in actions)
