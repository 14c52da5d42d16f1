"""Why a Buraco action was refused: a machine-readable reason that the bot translates."""

from __future__ import annotations

from enum import Enum

from engine.core.errors import IllegalAction as CoreIllegalAction


class Reason(Enum):
    """Every reason the Buraco engine can give for refusing an action (RULES §17)."""

    MATCH_OVER = "match_over"
    NOT_SEATED = "not_seated"
    NOT_YOUR_TURN = "not_your_turn"
    WRONG_PHASE = "wrong_phase"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    UNKNOWN_ACTION = "unknown_action"
    # drawing (§17.3)
    PILE_EMPTY = "pile_empty"
    PILE_TAKE_BLOCKS_DISCARD = "pile_take_blocks_discard"  # the hand is only the lone pile card's twin
    # the shape of a meld (§17.4)
    MELD_TOO_SHORT = "meld_too_short"
    MELD_TOO_LONG = "meld_too_long"
    NOT_SAME_SUIT = "not_same_suit"
    SETS_NOT_ALLOWED = "sets_not_allowed"
    DUPLICATE_RANK = "duplicate_rank"
    TWO_SUBSTITUTES = "two_substitutes"
    NOT_CONSECUTIVE = "not_consecutive"
    WRAPS_AROUND = "wraps_around"  # §17.7a-14
    BAD_ARRANGEMENT = "bad_arrangement"
    # additions (§17.3, §17.4)
    NO_SUCH_MELD = "no_such_meld"
    NOT_OWN_MELD = "not_own_meld"
    NOT_ADJACENT = "not_adjacent"
    NO_PLACE_FOR_SUBSTITUTE = "no_place_for_substitute"
    # what the hand and the turn allow (§17.3, §17.5, §17.6)
    CANNOT_DISCARD_PILE_CARD = "cannot_discard_pile_card"  # §17.7a-5
    OPENING_BELOW_MINIMUM = "opening_below_minimum"  # §17.5
    NO_MORTO_AVAILABLE = "no_morto_available"  # §17.7a-12
    NO_CLEAN_CANASTRA = "no_clean_canastra"  # §17.6
    LAST_CARD_MUST_BE_DISCARDED = "last_card_must_be_discarded"  # §17.6
    NO_LEGAL_DISCARD_LEFT = "no_legal_discard_left"
    NOTHING_TO_CANCEL = "nothing_to_cancel"


class IllegalAction(CoreIllegalAction):
    """An action that Buraco's rules do not allow now. Raised before anything changes."""

    reason: Reason

    def __init__(self, reason: Reason, detail: str = "") -> None:
        super().__init__(reason, detail)
