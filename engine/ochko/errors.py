"""Why an Очко action was refused: a machine-readable reason that the bot translates (RULES §20.14 item 14)."""

from __future__ import annotations

from enum import Enum

from engine.core.errors import IllegalAction as CoreIllegalAction


class Reason(Enum):
    """Every reason the Очко engine gives for refusing an action. Each one is reachable (tests/engine/ochko)."""

    SESSION_OVER = "session_over"  # anything after OVER
    UNKNOWN_ACTION = "unknown_action"  # not an Очко action
    NOT_SEATED = "not_seated"  # no such seat at the table
    HAS_LEFT = "has_left"  # the seat left the table (§20.14 item 7)
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"  # a move of another phase (a bet while playing, a knock while betting...)
    STAKE_BELOW_MINIMUM = "stake_below_minimum"  # §20.6 item 1: bank_min ≤ stake
    STAKE_ABOVE_CHIPS = "stake_above_chips"  # §20.6 item 1: stake ≤ chips
    BET_BELOW_MINIMUM = "bet_below_minimum"  # §20.8 item 1: lo = min(min_bet, cover)
    BET_ABOVE_BANK = "bet_above_bank"  # §20.8 item 1: bet ≤ cover (the bank, or its uncovered part)
    BET_ABOVE_CHIPS = "bet_above_chips"  # §20.8 item 1: bet ≤ chips
    DARK_NOT_PLAYED = "dark_not_played"  # [O06] OFF
    NO_CARD_LEFT = "no_card_left"  # §20.7 item 9: no card anywhere
    BANKER_MUST_HIT = "banker_must_hit"  # [O07]: standing is not allowed at this value
    BANKER_MUST_STAND = "banker_must_stand"  # [O07]: drawing is not allowed at this value


class IllegalAction(CoreIllegalAction):
    """An action that Очко's rules do not allow now. Raised before anything changes."""

    reason: Reason

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(reason, detail)
