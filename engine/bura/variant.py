"""Variant configuration: every [Vxx]/[Bxx] option of RULES §14 as a typed field, and the profiles of §13.

A ``Variant`` is a frozen pydantic model, so a table's rules are one value that is validated, compared and
stored as JSON. ★ defaults of RULES are the field defaults (they describe BURA_STANDARD).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from pydantic import BaseModel, ConfigDict, Field, model_validator


class Rules(Enum):
    """Which game of the family the variant plays (its deal and scoring): Бура, Буркозёл, Козёл and theirs."""

    BURA = "bura"
    BURKOZEL = "burkozel"
    KOZEL_MONEY = "kozel_money"
    BURA_5 = "bura_5"
    KOZEL_POINTS = "kozel_points"  # Kozel for points (pagat, after A. Tvaladze): the KOZEL_TVALADZE profile


class TrumpCard(Enum):
    """[V06] Where the turned-up trump card goes."""

    UNDER_STOCK = "under_stock"  # ★ face up under the stock: the last card drawn
    SHOWN_RETURNED = "shown_returned"  # shown and put back on top: the next drawer gets it


class FirstLeader(Enum):
    """[V05] Who leads the first trick of a deal."""

    LEFT_OF_DEALER = "left_of_dealer"  # ★ (the non-dealer with 2 players)
    RIGHT_OF_DEALER = "right_of_dealer"
    LAST_TRICK_WINNER = "last_trick_winner"  # of the previous deal; left of dealer for the first deal


class NextDealer(Enum):
    """[V04] Who deals the next deal (after a void deal the same dealer deals again)."""

    WINNER = "winner"  # ★ Bura
    ROTATE = "rotate"  # ★ Burkozel


class FollowSuit(Enum):
    """[V08] Duty to follow suit when responding."""

    NEVER = "never"  # ★
    AFTER_STOCK_EXHAUSTED = "after_stock_exhausted"
    SINGLE_LEAD = "single_lead"


class Discards(Enum):
    """[V10] Whether responders may (or must) play non-beating sets face down."""

    OPEN = "open"
    FACE_DOWN_OPTIONAL = "face_down_optional"  # ★ Bura
    FACE_DOWN_MANDATORY = "face_down_mandatory"  # ★ Burkozel: every non-beating set goes face down


class DrawOrder(Enum):
    """[V12] Order of drawing after a trick."""

    ALTERNATE = "alternate"  # ★ one card at a time from the trick winner
    BLOCK = "block"  # the winner fills his hand, then the next player


class StockShort(Enum):
    """[V13] What happens when the stock cannot fill every hand."""

    ROUND_COMPLETE = "round_complete"  # ★ Bura
    ALL_OR_NOTHING = "all_or_nothing"
    DRAW_TO_EXHAUSTION = "draw_to_exhaustion"  # ★ Burkozel, Kozel


class ShortHand(Enum):
    """[V14] Hands of different sizes (only under DRAW_TO_EXHAUSTION)."""

    CAP_LEAD = "cap_lead"  # ★
    PLAY_ALL_CANNOT_BEAT = "play_all_cannot_beat"


class FalseClaim(Enum):
    """[V16] What a false claim costs."""

    LOSE_DEAL = "lose_deal"  # ★
    DOUBLE_POT = "double_pot"
    LOSE_DOUBLE = "lose_double"
    ELIMINATED = "eliminated"


class EndOfDeal(Enum):
    """How a deal that nobody claimed is settled (RULES §11)."""

    VOID = "void"  # ★ Bura: nobody wins
    PENALTY_TABLE = "penalty_table"  # Burkozel: the penalty table of §12.4
    HIGHEST_POINTS = "highest_points"  # Kozel for money, Bura-5: most points wins, ties split / draw


class BuraCombo(Enum):
    """What a hand of trumps only does ([B02] for 4-card hands)."""

    INSTANT_WIN = "instant_win"  # ★
    LEAD = "lead"  # SKT: only an out-of-turn lead
    OFF = "off"


class ThreeAces(Enum):
    """[V21] Three aces in 3-card Bura."""

    OFF = "off"
    LEAD_ONLY = "lead_only"  # ★ seize the lead
    WIN_IF_NO_BURA = "win_if_no_bura"
    MOSCOW = "moscow"  # instant win, beats a bura
    MOSCOW_TRUMP_ACE = "moscow_trump_ace"  # as MOSCOW, but the trump ace must be one of the three


class SmallMoscow(Enum):
    """[V22] Малая Москва in 3-card Bura: seize the lead and lead all three cards."""

    OFF = "off"  # ★
    SIXES = "sixes"  # three sixes including the trump six
    TENS = "tens"  # any three tens


class Molodka(Enum):
    """[V23]/[V24] Молодка: a full hand of one non-trump suit."""

    OFF = "off"
    LEAD_ALL = "lead_all"  # ★ Bura: seize the lead and lead all the cards
    LEAD_FREE = "lead_free"  # ★ Burkozel: seize the lead, free choice of lead


class FourAces(Enum):
    """[B02] Москва in 4-card games: four aces."""

    OFF = "off"
    INSTANT_WIN = "instant_win"  # ★ Burkozel: a "triple" win
    LEAD = "lead"


class BuraVsBura(Enum):
    """[V19] Two buras at once."""

    TOP_CARD = "top_card"  # ★
    TRICK_COMPARE = "trick_compare"


class SameComboTie(Enum):
    """[V20] The same lead-seizing combo held by several players."""

    TURN_ORDER = "turn_order"  # ★
    HIGHER_CARDS = "higher_cards"


class ComboAtDeal(Enum):
    """[V18] Combos in the dealt hands."""

    COUNT = "count"  # ★
    REDEAL = "redeal"


class PreLeadPriority(Enum):
    """[V25] Instant combos against the rightful leader's claim."""

    COMBOS_FIRST = "combos_first"  # ★
    CLAIM_FIRST = "claim_first"


class FullTie(Enum):
    """[B04] Burkozel full tie (60:60, 40:40:40)."""

    EGG_DOUBLE = "egg_double"  # ★ nobody is penalized, the next deal counts double
    TWO_EACH = "two_each"


class ThreePlayerEnd(Enum):
    """[B06] Burkozel with three players when one reaches the limit."""

    ELIMINATION_CONTINUES = "elimination_continues"  # ★
    FIRST_TO_LIMIT_ENDS = "first_to_limit_ends"


class MatchKind(Enum):
    """[V27] Match scoring models of RULES §12."""

    ROBBER = "robber"  # ★ first to `target` won deals with a lead of `margin`
    PENALTY_12 = "penalty_12"
    POT = "pot"
    BURKOZEL = "burkozel"  # the penalty table of §12.4
    SINGLE_DEAL = "single_deal"


class MatchModel(BaseModel):
    """How deals add up to a match (RULES §12)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: MatchKind = MatchKind.ROBBER
    target: int = Field(21, ge=1)  # ROBBER: 21, small robber 11
    margin: int = Field(2, ge=1)  # ROBBER: lead needed to win
    limit: int = Field(12, ge=1)  # PENALTY_12 and BURKOZEL: this many penalty points loses
    ante: int = Field(1, ge=1)  # POT: stake per player per deal
    max_deals: int | None = Field(None, ge=1)  # POT: settle after this many deals (None: play on)
    three_player_end: ThreePlayerEnd = ThreePlayerEnd.ELIMINATION_CONTINUES


ROBBER: Final = MatchModel(kind=MatchKind.ROBBER, target=21, margin=2)
SMALL_ROBBER: Final = MatchModel(kind=MatchKind.ROBBER, target=11, margin=2)
PENALTY_12: Final = MatchModel(kind=MatchKind.PENALTY_12, limit=12)
POT: Final = MatchModel(kind=MatchKind.POT)
BURKOZEL_PENALTY: Final = MatchModel(kind=MatchKind.BURKOZEL, limit=12)
SINGLE_DEAL: Final = MatchModel(kind=MatchKind.SINGLE_DEAL)


class Variant(BaseModel):
    """The complete rules of a table. Field defaults are the ★ defaults (BURA_STANDARD)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "BURA_STANDARD"
    game: Rules = Rules.BURA
    deck_size: int = 36  # [V01]
    min_players: int = Field(2, ge=2)
    max_players: int = Field(6, le=6)
    partnership: bool = False  # with 4 players: seats 0+2 against 1+3 (RULES §4)
    hand_size: int = Field(3, ge=3, le=5)
    lead_sizes: tuple[int, ...] = (1, 2, 3)  # [V07]
    trump_card: TrumpCard = TrumpCard.UNDER_STOCK  # [V06]
    first_leader: FirstLeader = FirstLeader.LEFT_OF_DEALER  # [V05]
    next_dealer: NextDealer = NextDealer.WINNER  # [V04]
    follow_suit: FollowSuit = FollowSuit.NEVER  # [V08]
    discards: Discards = Discards.FACE_DOWN_OPTIONAL  # [V10]
    taker_peeks: bool = False  # [V10] the trick winner sees the face-down cards of the trick he takes
    draw_order: DrawOrder = DrawOrder.ALTERNATE  # [V12]
    stock_short: StockShort = StockShort.ROUND_COMPLETE  # [V13]
    short_hand: ShortHand = ShortHand.CAP_LEAD  # [V14]
    claim_threshold: int | None = 31  # [V17]; None: no claims (play-out games)
    claim_threshold_three: int | None = None  # threshold with exactly 3 players, if different
    final_claim_window: bool = True  # [V15]
    seizer_may_claim: bool = True  # RULES §8.2: the player who seized the lead may claim before leading
    false_claim: FalseClaim = FalseClaim.LOSE_DEAL  # [V16]
    end_of_deal: EndOfDeal = EndOfDeal.VOID  # RULES §11
    bura: BuraCombo = BuraCombo.INSTANT_WIN  # §9.2 / [B02]
    three_aces: ThreeAces = ThreeAces.LEAD_ONLY  # [V21] (3-card hands)
    small_moscow: SmallMoscow = SmallMoscow.OFF  # [V22] (3-card hands)
    molodka: Molodka = Molodka.LEAD_ALL  # [V23]/[V24]
    four_aces: FourAces = FourAces.OFF  # [B02] (4-card hands)
    four_ends: bool = False  # [B02] four tens/aces including a trump one: seize the lead
    moscow_three: bool = False  # [B02] S4c/S4e: three aces including the trump ace seize the lead
    # [B02] the PT set (Kozel for points): Москва = four aces and tens with at least one real ace (the shokha as a
    # ten), молодка = four of a suit, trumps too, or three and the shokha; both only seize the lead (4-card hands)
    tvaladze_combos: bool = False
    shokha: bool = False  # [B08] RULES §3.4: 6♠ beats every card, is worth 0, and joins a set of any suit
    bura_vs_bura: BuraVsBura = BuraVsBura.TOP_CARD  # [V19]
    same_combo_tie: SameComboTie = SameComboTie.TURN_ORDER  # [V20]
    combo_at_deal: ComboAtDeal = ComboAtDeal.COUNT  # [V18]
    pre_lead_priority: PreLeadPriority = PreLeadPriority.COMBOS_FIRST  # [V25]
    hide_captured_points: bool = True  # RULES §6.7 strict mode
    # Burkozel penalty table (RULES §12.4)
    penalty_good: int = 2  # reached the threshold but not the most points
    penalty_below: int = 4  # below the threshold, took a trick
    penalty_no_tricks: int = 6  # took no trick
    penalty_zero_points: int = 4  # [B03] 0 points but took a trick (6 in S4e)
    penalty_threshold: int = 31  # 2 players or 2x2
    penalty_threshold_three: int = 21  # [B05] 3 players
    full_tie: FullTie = FullTie.EGG_DOUBLE  # [B04]
    bura_penalty: int = 2  # instant bura win in Burkozel: to each opponent
    moscow_penalty: int = 6  # instant Москва (4 aces) win: to each opponent
    match: MatchModel = ROBBER  # [V27]

    @model_validator(mode="after")
    def _consistent(self) -> Variant:
        if self.deck_size not in (32, 36):
            raise ValueError("deck_size must be 36 or 32")
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")
        if self.max_players * self.hand_size + 1 > self.deck_size:
            raise ValueError("the deck cannot deal that many hands")
        if not self.lead_sizes or any(not 1 <= k <= self.hand_size for k in self.lead_sizes):
            raise ValueError("lead sizes must lie in 1..hand_size")
        if tuple(sorted(set(self.lead_sizes))) != self.lead_sizes:
            raise ValueError("lead sizes must be sorted and distinct")
        if self.claim_threshold is None and self.end_of_deal is EndOfDeal.VOID:
            raise ValueError("a game without claims must be settled by points at the end of the deal")
        if self.tvaladze_combos and (self.hand_size != 4 or self.four_aces is not FourAces.OFF):
            raise ValueError("the Tvaladze combos are for 4-card hands, and their Москва replaces the four aces")
        return self

    def teams(self, players: int) -> bool:
        """2x2 partnership play (RULES §4)."""
        return self.partnership and players == 4

    def threshold(self, players: int) -> int | None:
        """The claim threshold for this many players [V17]."""
        if players == 3 and self.claim_threshold_three is not None:
            return self.claim_threshold_three
        return self.claim_threshold

    def with_options(self, **changes: object) -> Variant:
        """A copy with some options changed, validated again."""
        return Variant.model_validate({**self.model_dump(), **changes})


# RULES §13: the ready-made profiles.
BURA_STANDARD: Final = Variant()

BURA_PAGAT: Final = BURA_STANDARD.with_options(
    name="BURA_PAGAT",
    discards=Discards.OPEN,
    stock_short=StockShort.ALL_OR_NOTHING,
    false_claim=FalseClaim.DOUBLE_POT,
    bura_vs_bura=BuraVsBura.TRICK_COMPARE,
    match=POT,
)

BURA_RU_WIKI: Final = BURA_STANDARD.with_options(
    name="BURA_RU_WIKI",
    three_aces=ThreeAces.MOSCOW,
    small_moscow=SmallMoscow.SIXES,
    false_claim=FalseClaim.LOSE_DOUBLE,
    combo_at_deal=ComboAtDeal.REDEAL,
    match=ROBBER,
)

BURKOZEL: Final = Variant(
    name="BURKOZEL",
    game=Rules.BURKOZEL,
    min_players=2,
    max_players=4,
    partnership=True,
    hand_size=4,
    lead_sizes=(1, 2, 3, 4),
    next_dealer=NextDealer.ROTATE,
    discards=Discards.FACE_DOWN_MANDATORY,
    stock_short=StockShort.DRAW_TO_EXHAUSTION,
    claim_threshold=None,
    final_claim_window=False,
    end_of_deal=EndOfDeal.PENALTY_TABLE,
    bura=BuraCombo.INSTANT_WIN,
    three_aces=ThreeAces.OFF,
    molodka=Molodka.LEAD_FREE,
    four_aces=FourAces.INSTANT_WIN,
    match=BURKOZEL_PENALTY,
)

KOZEL_MONEY: Final = Variant(
    name="KOZEL_MONEY",
    game=Rules.KOZEL_MONEY,
    min_players=2,
    max_players=5,
    hand_size=4,
    lead_sizes=(1, 3),
    next_dealer=NextDealer.WINNER,
    discards=Discards.FACE_DOWN_OPTIONAL,
    stock_short=StockShort.DRAW_TO_EXHAUSTION,
    claim_threshold=None,
    final_claim_window=False,
    end_of_deal=EndOfDeal.HIGHEST_POINTS,
    bura=BuraCombo.INSTANT_WIN,  # RULES §9.9: four trumps take the pot
    three_aces=ThreeAces.OFF,
    molodka=Molodka.OFF,
    four_aces=FourAces.INSTANT_WIN,  # ... and so do four aces
    match=POT,
)

BURA_5: Final = Variant(
    name="BURA_5",
    game=Rules.BURA_5,
    min_players=2,
    max_players=2,
    hand_size=5,
    lead_sizes=(1, 2, 3, 4, 5),  # RULES §6.1: engine decision, unverified
    stock_short=StockShort.ROUND_COMPLETE,
    claim_threshold=None,  # option: 61 (GEO)
    final_claim_window=False,
    end_of_deal=EndOfDeal.HIGHEST_POINTS,
    bura=BuraCombo.OFF,  # RULES §11.4: no combinations, five trumps are no instant win
    three_aces=ThreeAces.OFF,
    molodka=Molodka.OFF,  # ... and nothing seizes the lead
    match=SINGLE_DEAL,
)

# RULES §13: Burkozel with the shokha, the PT combos that only seize the lead, and two each at a full tie.
KOZEL_TVALADZE: Final = BURKOZEL.with_options(
    name="KOZEL_TVALADZE",
    game=Rules.KOZEL_POINTS,
    shokha=True,
    bura=BuraCombo.OFF,  # no instant wins
    four_aces=FourAces.OFF,
    tvaladze_combos=True,
    full_tie=FullTie.TWO_EACH,
)

PROFILES: Final[dict[str, Variant]] = {
    profile.name: profile
    for profile in (BURA_STANDARD, BURA_PAGAT, BURA_RU_WIKI, BURKOZEL, KOZEL_TVALADZE, KOZEL_MONEY, BURA_5)
}
