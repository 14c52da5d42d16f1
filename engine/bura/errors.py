"""Why an action was refused: a machine-readable reason that the bot translates (the engine writes no prose)."""

from __future__ import annotations

from enum import Enum

from engine.core.errors import IllegalAction as CoreIllegalAction


class Reason(Enum):
    """Every reason the engine can give for refusing an action."""

    MATCH_OVER = "match_over"
    DEAL_OVER = "deal_over"
    NOT_SEATED = "not_seated"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DUPLICATE_CARD = "duplicate_card"
    NO_CARDS = "no_cards"
    MIXED_SUITS = "mixed_suits"
    LEAD_SIZE_NOT_ALLOWED = "lead_size_not_allowed"
    LEAD_TOO_LARGE = "lead_too_large"  # [V14] CAP_LEAD
    MUST_LEAD_COMBO = "must_lead_combo"  # [V24] molodka / small Moscow: lead all the combo cards
    WRONG_CARD_COUNT = "wrong_card_count"
    MUST_FOLLOW_SUIT = "must_follow_suit"  # [V08]
    FACE_DOWN_NOT_ALLOWED = "face_down_not_allowed"  # [V10] OPEN
    MUST_PLAY_FACE_DOWN = "must_play_face_down"  # [V10] FACE_DOWN_MANDATORY: a non-beating set
    CLAIMS_NOT_ALLOWED = "claims_not_allowed"
    CLAIM_NOT_NOW = "claim_not_now"  # RULES §8.2: only on your own lead turn
    NO_SUCH_COMBO = "no_such_combo"
    COMBO_OUTRANKED = "combo_outranked"
    NOTHING_TO_PASS = "nothing_to_pass"
    UNKNOWN_ACTION = "unknown_action"
    NOT_LEGAL = "not_legal"  # no specific rule found (Deal.diagnose's last answer; tests show it never comes)


class IllegalAction(CoreIllegalAction):
    """An action that Bura's rules do not allow now. Raised before anything changes."""

    reason: Reason

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(reason, detail)
