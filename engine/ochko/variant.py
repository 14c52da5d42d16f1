"""The table's options: every [Oxx] of RULES §20.13 as a typed field, the numbers of §20.3, and the profiles of
§20.17.

``Options`` is a frozen pydantic model: a table's rules are one value that is validated, compared and stored as
JSON. The ★ defaults of RULES are the field defaults (they describe OCHKO_STANDARD).
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Structure(Enum):
    """[O01] How the banker meets the players."""

    DUEL = "duel"  # ★ S3, PL: the banker plays each player in turn
    SHOWDOWN = "showdown"  # CGW, BP, CZO: the banker plays once after every player (§20.12)


class TwoAces(Enum):
    """[O03] A hand of exactly two aces (ace 11 only; with ace 1 it is worth 2)."""

    GOLDEN = "golden"  # ★ «золотое очко»: worth 21
    SUPER = "super"  # «суперочко»: worth 21 and beats any other 21
    BUST = "bust"  # «красная Москва»: worth 22, a bust


class Immediate(Enum):
    """[O05] Which player's 21 is paid at once."""

    TWO_CARDS = "two_cards"  # ★ S3 «сразу»: the first two cards (Ruling 2)
    ANY_21 = "any_21"  # CGW: any hand worth 21


class BankerDraw(Enum):
    """[O07] What the banker may do at a value."""

    FREE = "free"  # ★ hit or stand at any value
    S3_15_17 = "s3_15_17"  # ≤ 15 must hit, ≥ 17 must stand, 16 free (Ruling 23)
    HOUSE_17 = "house_17"  # ≤ 16 must hit, ≥ 17 must stand


class KnockRule(Enum):
    """[O08] «Стук»: when the banker may (or must) make a round his bank's last."""

    FROM_10X = "from_10x"  # ★ may knock before a round that starts with the bank ≥ knock_multiple × B₀
    FORCED_10X = "forced_10x"  # such a round is the last by itself, no question
    ANY_ROUND = "any_round"  # may knock before any round, the first included


class NextBanker(Enum):
    """[O09] Who banks after a bank ends."""

    CLOCKWISE = "clockwise"  # ★ the next seat clockwise that can bank (Ruling 15)
    BREAKER = "breaker"  # after a broken bank, the player who broke it, if he can


class Options(BaseModel):
    """Every option of RULES §20.13 with its ★ default, and the table's numbers (§20.3)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "OCHKO_STANDARD"
    structure: Structure = Structure.DUEL
    ace: Literal[11, 1] = 11  # [O02]
    two_aces: TwoAces = TwoAces.GOLDEN
    five_pictures: bool = False  # [O04]
    immediate: Immediate = Immediate.TWO_CARDS
    dark: bool = True  # [O06] «в тёмную»
    banker_draw: BankerDraw = BankerDraw.FREE
    knock: KnockRule = KnockRule.FROM_10X
    knock_multiple: int = Field(default=10, ge=1)
    next_banker: NextBanker = NextBanker.CLOCKWISE
    pack: Literal[36, 32] = 36  # [O10]
    stack: int = Field(default=100, ge=1)
    bank_min: int = Field(default=10, ge=1)
    min_bet: int = Field(default=1, ge=1)
    # Ruling 17: None is one orbit (as many banks as seats), 0 is unlimited.
    max_banks: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _numbers(self) -> Options:
        # §20.3: MUST hold 1 ≤ min_bet ≤ bank_min ≤ stack.
        if not self.min_bet <= self.bank_min <= self.stack:
            raise ValueError("the numbers must satisfy 1 ≤ min_bet ≤ bank_min ≤ stack")
        return self

    def with_options(self, **changes: object) -> Options:
        """A copy with ``changes``, validated again."""
        return Options.model_validate({**self.model_dump(), **changes})

    def banks_for(self, players: int) -> int:
        """The number of banks a session lasts (0: unlimited), Ruling 17."""
        return players if self.max_banks is None else self.max_banks


OCHKO_STANDARD: Final = Options()
OCHKO_POLISH: Final = OCHKO_STANDARD.with_options(
    name="OCHKO_POLISH",
    five_pictures=True,
    banker_draw=BankerDraw.S3_15_17,
    next_banker=NextBanker.BREAKER,
)
OCHKO_ONE_SHOWDOWN: Final = OCHKO_STANDARD.with_options(
    name="OCHKO_ONE_SHOWDOWN",
    structure=Structure.SHOWDOWN,
    immediate=Immediate.ANY_21,
)

PROFILES: Final[dict[str, Options]] = {
    profile.name: profile for profile in (OCHKO_STANDARD, OCHKO_POLISH, OCHKO_ONE_SHOWDOWN)
}
