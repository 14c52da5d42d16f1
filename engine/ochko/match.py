"""A session of Очко (RULES §20): the cut for the first bank, then banks, each a run of rounds, until the session's
end; the standings are the chips.

``Match`` is what the bot stores: config (options, seats, stacks, volunteers) + seed + action log. ``to_json``
keeps them and ``from_json`` replays them to the same state. Every shuffle draws a ``random.Random`` of its own,
derived from the seed and the shuffle's number, so replay needs no saved random state.

The state machine is §20.11's: phases STAKE, KNOCK, BET, PLAY, BANKER and OVER, exactly one seat acting in each
but OVER; the automatic steps (dealing, the player's second card with his bet, the banker's second card when his
turn begins, settlement, skipping, closing and passing the bank) run inside :meth:`Match.apply`.

**When the session ends** (§20.6 item 7, Ruling 17): after ``max_banks`` banks (★ None: as many as there are
seats, one orbit; 0: no limit), or when no seat can bank against an opponent (the last opponent left, or
everybody else is below ``min_bet``). A bank counts once it was staked; a banker who leaves before staking
passes the bank without counting one. The final standing is :attr:`Match.chips` (seats that left keep the chips
they left with); :attr:`Match.finished` says it is final.

**The verifiable shuffle** (issue 38, docs/fairness.md §4 «Очко»): a match made with ``fair=`` shuffles by it.
Each shuffle is one fair deal, numbered k = 1, 2, ... in the order made: the cut's pack (and its rare
reshuffles), each round's fresh pack (§20.7 item 1) and each reshuffle of the returned pile when the fresh cards
run out (§20.7 item 8). A reshuffle lays the pile in the canonical order first, so its order is a function of
its cards, its seed and its number. ``fair_deal`` is the shuffle on the table during a round and the next one
between rounds; the seeds of a round's shuffles are revealed when the round is over (a reshuffle's commitment is
never shown mid-round: it equals the seed of the round's own pack, and is bound to the match's commitment by the
chain anyway).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from engine.core.fair import DealWitness, FairShuffle, export
from engine.core.shuffle import shuffle
from engine.ochko.actions import (
    Action,
    Bet,
    Dark,
    Deal,
    Hit,
    Knock,
    Leave,
    StakeBank,
    Stand,
    action_from_json,
    action_to_json,
)
from engine.ochko.cards import SENIORITY, Card, canonical, codes, deck
from engine.ochko.errors import IllegalAction, Reason
from engine.ochko.events import (
    BankClosed,
    BankEnd,
    BankerBusted,
    BankerChosen,
    BankerDrew,
    BankerStood,
    BankPassed,
    BankStaked,
    BetPlaced,
    CutCard,
    DuelStarted,
    Event,
    KnockOffered,
    LastRound,
    LastRoundWhy,
    PlayerBusted,
    PlayerDrew,
    Reshuffled,
    RoundEnded,
    RoundStarted,
    SeatLeft,
    SessionEnded,
    Settled,
    Skipped,
    SkipWhy,
    Stood,
)
from engine.ochko.hands import BLACKJACK, Case, settle, settle_open, value
from engine.ochko.variant import OCHKO_STANDARD, BankerDraw, KnockRule, NextBanker, Options, Structure

MIN_PLAYERS = 2  # §20.3
MAX_PLAYERS = 8  # §20.3, Ruling 1
AUTO_STAND = 17  # Ruling 18: a departed banker's hand is played "hit below 17, stand at 17 or more"


class Phase(Enum):
    """§20.11: who is to decide what."""

    STAKE = "stake"  # the banker puts up a bank
    KNOCK = "knock"  # the banker may knock before the round
    BET = "bet"  # a player bets (his second card comes with it)
    PLAY = "play"  # a player hits, stands or goes dark
    BANKER = "banker"  # the banker hits or stands against the hand(s) waiting
    OVER = "over"


class Match:
    """The whole state of a table's Очко session. Mutable; :meth:`apply` checks before it changes anything."""

    def __init__(
        self,
        options: Options = OCHKO_STANDARD,
        players: int = 3,
        seed: int | str = 0,
        *,
        shuffler: Callable[[int], random.Random] | None = None,
        first_banker: int | None = None,
        volunteers: Sequence[int] | None = None,
        stacks: Sequence[int] | None = None,
        fair: FairShuffle | None = None,
    ) -> None:
        """``players`` seats (2-8) with ``options``. ``shuffler(number)`` gives the ``Random`` of shuffle
        ``number`` (0-based; stacked packs in tests); ``first_banker`` skips the cut (tests); ``volunteers`` are
        the seats that want to bank at the cut (§20.5; None or empty: every seat); ``stacks`` overrides the
        starting chips per seat (tests); ``fair`` shuffles by the verifiable shuffle (docs/fairness.md).
        The cut's events (``CutCard``, ``BankerChosen``) are in :attr:`start_events`."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"Очко seats {MIN_PLAYERS} to {MAX_PLAYERS} players")
        self.options = options
        self.players = players
        self.seed = seed
        self.fair = fair
        self.first_banker = first_banker
        self.volunteers = tuple(sorted(set(volunteers or ())))
        self.stacks = tuple(stacks) if stacks is not None else None
        if self.stacks is not None and (len(self.stacks) != players or min(self.stacks) < 0):
            raise ValueError("one stack of chips per seat, none negative")
        if any(not 0 <= seat < players for seat in self.volunteers):
            raise ValueError("volunteers are seats at the table")
        if fair is not None:
            if len(fair.player_seeds) != players:
                raise ValueError("the fair shuffle needs one player's seed per seat")
            shuffler = shuffler or (lambda number: fair.rng(number + 1))  # fair deals are numbered from 1
        self._shuffler = shuffler or (lambda number: random.Random(f"{seed}/{number}"))
        self.max_banks = options.banks_for(players)
        self._options_json = options.model_dump(mode="json")
        self.actions: list[Action] = []
        self.chips = list(self.stacks) if self.stacks is not None else [options.stack] * players
        self.present = [True] * players
        self.finished = False
        self.phase = Phase.STAKE
        self.banker = 0
        self.bank = 0
        self.initial_stake = 0  # B₀ of the bank being played (§20.6 item 1)
        self.banks_held = 0
        self.last_round = False
        self.banker_left = False
        self.breaker: int | None = None
        self.round_no = 0
        self.shuffles = 0  # shuffles made so far: the fair deals 1..shuffles
        self.round_shuffle = 0  # the fair number of the current round's fresh pack (0 between rounds)
        self.cut: list[tuple[int, Card]] = []
        self.trace: list[list[Any]] = []
        """Every card's moves, as plain data (shuffles, the cut, deals, draws, returns): what
        :meth:`fair_export` reads. Derived from the config and the actions, so replay rebuilds it."""
        self._new_round_state()
        self._events: list[Event] = []
        if first_banker is None:
            self._cut()
        else:
            if not 0 <= first_banker < players:
                raise ValueError("the first banker is a seat at the table")
            self.banker = first_banker
            if not self._can_bank(first_banker):
                self._pass_bank(first_banker)
        self.start_events: list[Event] = self._events
        self._events = []

    def _new_round_state(self) -> None:
        self.in_round = False
        self.pack: list[Card] = []  # top first: dealt by pop(0), drawn from the bottom by pop() (§20.7)
        self.marker: Card | None = None  # «зарез», face up across the top (§20.7 item 5, Ruling 7)
        self.returned: list[Card] = []  # played cards, laid on top above the marker (§20.7 item 7)
        self.dealt: list[int] = []  # the players dealt in, in deal order
        self.hands: dict[int, list[Card]] = {}
        self.dark: set[int] = set()
        self.bets: dict[int, int] = {}
        self.done: set[int] = set()  # settled, skipped or gave the card back
        self.waiting: list[int] = []  # stood (or went dark), the banker still to play against them
        self.shown: dict[int, tuple[Card, ...]] = {}  # settled hands, open to all (Ruling 10)
        self.banker_card: Card | None = None  # his first card, face up, in every duel (Ruling 6)
        self.banker_drawn: list[Card] = []  # what he drew in the current duel (or the SHOWDOWN)
        self.current: int | None = None

    # -- reading the state ----------------------------------------------------------------------------------

    def to_act(self) -> int | None:
        if self.phase is Phase.OVER:
            return None
        if self.phase in (Phase.BET, Phase.PLAY):
            return self.current
        return self.banker

    @property
    def banker_hand(self) -> list[Card]:
        return ([self.banker_card] if self.banker_card is not None else []) + self.banker_drawn

    @property
    def fair_deal(self) -> int:
        """The fair number k of the pack on the table (the latest shuffle) during a round, else of the next
        shuffle: show ``fair.commitment(k)`` before it; ``fair.seed(k)`` only once its round is over."""
        if self.finished or (self.in_round and self.shuffles):
            return self.shuffles
        return self.shuffles + 1

    @property
    def fair_over(self) -> int:
        """The shuffles whose round (or cut) is over: their seeds may be revealed."""
        return self.round_shuffle - 1 if self.in_round else self.shuffles

    def cover(self) -> int:
        """§20.8 item 1, §20.12: what a bet may win: the bank, less the bets waiting for the SHOWDOWN."""
        if self.options.structure is Structure.SHOWDOWN:
            return self.bank - sum(self.bets[seat] for seat in self.waiting)
        return self.bank

    def bet_range(self, seat: int) -> tuple[int, int]:
        """§20.8 item 1, Ruling 11: lo = min(min_bet, cover), hi = min(cover, chips)."""
        cover = self.cover()
        return min(self.options.min_bet, cover), min(cover, self.chips[seat])

    def bet_buttons(self) -> tuple[int, int, int, int]:
        """§20.8 item 1, Ruling 24: the amounts of the buttons «минимум · треть · половина · весь банк» for the
        player to bet: lo, ⅓ and ½ of the cover rounded down, and the cover, each clamped to lo..hi. Any whole
        number in lo..hi may be bet besides (``legal_actions`` lists them all)."""
        if self.phase is not Phase.BET or self.current is None:
            return (0, 0, 0, 0)
        low, high = self.bet_range(self.current)
        cover = self.cover()

        def clamp(amount: int) -> int:
            return max(low, min(high, amount))

        return (low, clamp(cover // 3), clamp(cover // 2), clamp(cover))

    def can_draw(self) -> bool:
        """§20.7 item 9: a card can be had (the fresh cards, else the returned pile and the marker)."""
        return bool(self.pack or self.returned or self.marker is not None)

    def banker_moves(self) -> tuple[bool, bool]:
        """[O07] at the banker's value: (may hit, may stand). Without any card left he must stand (Ruling 9)."""
        total = value(self.banker_hand, self.options)
        rule = self.options.banker_draw
        if rule is BankerDraw.S3_15_17:
            hit, stand = total <= 16, total >= 16
        elif rule is BankerDraw.HOUSE_17:
            hit, stand = total <= 16, total >= 17
        else:
            hit, stand = True, True
        if not self.can_draw():
            return False, True
        return hit, stand

    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now, in a fixed order (§20.11); empty unless he is to act."""
        if seat != self.to_act():
            return []
        if self.phase is Phase.STAKE:
            return [StakeBank(seat, amount) for amount in range(self.options.bank_min, self.chips[seat] + 1)]
        if self.phase is Phase.KNOCK:
            return [Knock(seat), Deal(seat)]
        if self.phase is Phase.BET:
            low, high = self.bet_range(seat)
            return [Bet(seat, amount) for amount in range(low, high + 1)]
        if self.phase is Phase.PLAY:
            draw = self.can_draw()
            moves: list[Action] = [Hit(seat)] if draw else []
            moves.append(Stand(seat))
            if draw and self.options.dark:
                moves.append(Dark(seat))
            return moves
        hit, stand = self.banker_moves()
        return [*([Hit(seat)] if hit else []), *([Stand(seat)] if stand else [])]

    def diagnose(self, action: Action) -> Reason | None:
        """Why ``action`` is refused now, or None if it is legal."""
        if self.finished:
            return Reason.SESSION_OVER
        if not isinstance(action, StakeBank | Knock | Deal | Bet | Hit | Stand | Dark | Leave):
            return Reason.UNKNOWN_ACTION
        seat = action.seat
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return Reason.NOT_SEATED
        if not self.present[seat]:
            return Reason.HAS_LEFT
        if isinstance(action, Leave):
            return None
        if seat != self.to_act():
            return Reason.NOT_YOUR_TURN
        if action in self.legal_actions(seat):
            return None
        return self._why_not(action)

    def _why_not(self, action: Action) -> Reason:
        phase = self.phase
        if isinstance(action, StakeBank) and phase is Phase.STAKE:
            if action.amount < self.options.bank_min:
                return Reason.STAKE_BELOW_MINIMUM
            return Reason.STAKE_ABOVE_CHIPS
        if isinstance(action, Bet) and phase is Phase.BET:
            low, _ = self.bet_range(action.seat)
            if action.amount < low:
                return Reason.BET_BELOW_MINIMUM
            if action.amount > self.cover():
                return Reason.BET_ABOVE_BANK
            return Reason.BET_ABOVE_CHIPS
        if isinstance(action, Dark) and phase is Phase.PLAY:
            return Reason.DARK_NOT_PLAYED if not self.options.dark else Reason.NO_CARD_LEFT
        if isinstance(action, Hit) and phase is Phase.PLAY:
            return Reason.NO_CARD_LEFT
        if isinstance(action, Hit | Stand) and phase is Phase.BANKER:
            if isinstance(action, Stand):
                return Reason.BANKER_MUST_HIT
            return Reason.BANKER_MUST_STAND if self.can_draw() else Reason.NO_CARD_LEFT
        return Reason.WRONG_PHASE

    # -- moves -------------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Verify and play ``action``; the automatic steps that follow run at once. Returns the events."""
        reason = self.diagnose(action)
        if reason is not None:
            raise IllegalAction(reason, repr(action))
        self._events = []
        if isinstance(action, Leave):
            self._leave(action.seat)
        elif isinstance(action, StakeBank):
            self._stake(action.amount)
        elif isinstance(action, Knock):
            self.last_round = True
            self._events.append(LastRound(self.banker, LastRoundWhy.KNOCKED))
            self._deal()
        elif isinstance(action, Deal):
            self._deal()
        elif isinstance(action, Bet):
            self._bet(action.seat, action.amount)
        elif self.phase is Phase.BANKER:
            if isinstance(action, Hit):
                self._banker_draw()
                self._banker_check()
            else:
                self._banker_stands()
        elif isinstance(action, Hit):
            self._player_draw(action.seat)
            self._player_check(action.seat)
        elif isinstance(action, Stand):
            self._stood(action.seat)
        else:  # Dark
            self._player_draw(action.seat, dark=True)
            self._stood(action.seat)
        self.actions.append(action)
        events, self._events = self._events, []
        return events

    # -- the cut (§20.5) ----------------------------------------------------------------------------------------

    def _cut(self) -> None:
        can = [seat for seat in range(self.players) if self._can_bank(seat)]
        contenders = [seat for seat in self.volunteers if seat in can] or can  # Ruling 13
        if not contenders:
            self._over()
            return
        pack: list[Card] = []
        while len(contenders) > 1:
            turned: list[tuple[int, Card]] = []
            for seat in contenders:
                if not pack:  # §20.5: a pack run out is shuffled again and the cut goes on
                    pack = deck(self.options.pack)
                    self._shuffle(pack)
                card = pack.pop(0)
                self.trace.append(["cut", self.shuffles, seat, card.code])
                turned.append((seat, card))
                self.cut.append((seat, card))
                self._events.append(CutCard(seat, card))
            best = max(SENIORITY[card.rank] for _, card in turned)
            contenders = [seat for seat, card in turned if SENIORITY[card.rank] == best]
        self.banker = contenders[0]
        self._events.append(BankerChosen(self.banker))

    def _shuffle(self, cards: list[Card]) -> int:
        self.shuffles += 1
        shuffle(cards, self._shuffler(self.shuffles - 1))
        self.trace.append(["shuffle", self.shuffles, codes(cards)])
        return self.shuffles

    # -- the bank (§20.6) ---------------------------------------------------------------------------------------

    def _opponents(self, seat: int) -> bool:
        return any(
            self.present[other] and self.chips[other] >= self.options.min_bet
            for other in range(self.players)
            if other != seat
        )

    def _can_bank(self, seat: int) -> bool:
        """Ruling 15: present, can stake bank_min and has an opponent with min_bet chips."""
        return self.present[seat] and self.chips[seat] >= self.options.bank_min and self._opponents(seat)

    def _stake(self, amount: int) -> None:
        self.chips[self.banker] -= amount
        self.bank = self.initial_stake = amount
        self._events.append(BankStaked(self.banker, amount))
        self._round_start()

    def _eligible(self) -> list[int]:
        """§20.7 item 3, Ruling 12: the players dealt in, clockwise from the banker's left."""
        floor = min(self.options.min_bet, self.bank)
        seats = [(self.banker + step) % self.players for step in range(1, self.players)]
        return [seat for seat in seats if self.present[seat] and self.chips[seat] >= floor]

    def _round_start(self) -> None:
        if not self._eligible():
            self._close_bank(BankEnd.NO_PLAYERS)
            return
        reached = self.bank >= self.options.knock_multiple * self.initial_stake
        rule = self.options.knock
        if not self.last_round:
            if rule is KnockRule.FORCED_10X and reached:
                self.last_round = True
                self._events.append(LastRound(self.banker, LastRoundWhy.FORCED))
            elif rule is KnockRule.ANY_ROUND or (rule is KnockRule.FROM_10X and reached):
                self.phase = Phase.KNOCK
                self._events.append(KnockOffered(self.banker, self.bank))
                return
        self._deal()

    def _close_bank(self, why: BankEnd) -> None:
        """§20.6 item 5: KNOCK, LEFT, NO_PLAYERS: what is left goes to the banker."""
        paid = self.bank
        self.chips[self.banker] += paid
        self.bank = 0
        self._end_bank(why, paid)

    def _end_bank(self, why: BankEnd, paid: int = 0) -> None:
        self.banks_held += 1
        breaker = self.breaker if why is BankEnd.BROKEN else None
        self._events.append(BankClosed(self.banker, why, paid, breaker, self.banks_held))
        self.initial_stake = 0
        self.last_round = self.banker_left = False
        self.breaker = None
        if self.max_banks and self.banks_held >= self.max_banks:
            self._over()
            return
        if breaker is not None and self.options.next_banker is NextBanker.BREAKER and self._can_bank(breaker):
            self._give_bank(breaker)
            return
        self._pass_bank(self.banker)

    def _pass_bank(self, old: int) -> None:
        """[O09] CLOCKWISE, Ruling 15: the next seat that can bank; the old banker last; nobody: OVER."""
        for step in range(1, self.players + 1):
            seat = (old + step) % self.players
            if self._can_bank(seat):
                self._give_bank(seat)
                return
        self._over()

    def _give_bank(self, seat: int) -> None:
        self.banker = seat
        self.phase = Phase.STAKE
        self._events.append(BankPassed(seat))

    def _over(self) -> None:
        self.phase = Phase.OVER
        self.finished = True
        self._events.append(SessionEnded(tuple(self.chips)))

    # -- the round (§20.7) -------------------------------------------------------------------------------------

    def _deal(self) -> None:
        seats = self._eligible()
        if not seats:  # the last opponent left at the «стук» question
            self._close_bank(BankEnd.NO_PLAYERS)
            return
        self.round_no += 1
        self.pack = deck(self.options.pack)
        self.round_shuffle = self._shuffle(self.pack)
        self.in_round = True
        self.dealt = seats
        for seat in seats:  # §20.7 item 4: from the top, the banker's left first, the banker last
            self.hands[seat] = [self.pack.pop(0)]
        self.banker_card = self.pack.pop(0)
        self.marker = self.pack.pop()  # §20.7 item 5: the bottom card, face up across the top
        self.trace.append(
            [
                "round",
                self.round_shuffle,
                self.banker,
                list(seats),
                {str(seat): codes(self.hands[seat]) for seat in seats},
                self.banker_card.code,
                self.marker.code,
                codes(self.pack[::-1]),  # bottom first: the order the fresh cards are drawn in
            ]
        )
        self._events.append(
            RoundStarted(
                self.round_no,
                self.banker,
                self.bank,
                tuple(seats),
                self.banker_card,
                self.marker,
                self.round_shuffle,
            )
        )
        self._next_player()

    def _draw(self, seat: int) -> Card | None:
        """§20.7 items 6, 8, 9: a card from the bottom; the returned pile and the marker when none is left."""
        if not self.pack:
            pile = self.returned + ([self.marker] if self.marker is not None else [])
            if not pile:
                return None
            self.pack = canonical(pile)
            number = self._shuffle(self.pack)
            self.returned, self.marker = [], None
            self._events.append(Reshuffled(len(self.pack), number))
            self.trace.append(["reshuffle", number])
        card = self.pack.pop()
        self.trace.append(["draw", seat, card.code])
        return card

    def _give_back(self, seat: int, cards: Sequence[Card]) -> None:
        """§20.7 item 7: played cards go on top of the pack, above the marker."""
        self.returned.extend(cards)
        if cards:
            self.trace.append(["return", seat, codes(list(cards))])

    def _next_player(self) -> None:
        """§20.11 [next player]."""
        for seat in self.dealt:
            if seat in self.done or seat in self.waiting:
                continue
            cover = self.cover()
            low, _ = self.bet_range(seat)
            if cover == 0 or self.chips[seat] < low:
                self._skip(seat, SkipWhy.NO_COVER if cover == 0 else SkipWhy.CANNOT_AFFORD)
                continue
            self.current = seat
            self.phase = Phase.BET
            self._events.append(DuelStarted(seat, cover, *self.bet_range(seat)))
            return
        self.current = None
        if self.waiting:  # SHOWDOWN: the banker plays once
            self._banker_turn()
            return
        self._round_end()

    def _skip(self, seat: int, why: SkipWhy) -> None:
        self._give_back(seat, self.hands.pop(seat))
        self.done.add(seat)
        self._events.append(Skipped(seat, why))

    def _round_end(self) -> None:
        for seat in self.dealt:  # Ruling 16: the players who have not played give their card back
            if seat not in self.done:
                self._skip(seat, SkipWhy.BANK_BROKEN)
        self._events.append(RoundEnded(self.round_no, self.bank))
        self._new_round_state()
        self.round_shuffle = 0
        if self.bank == 0:
            self._end_bank(BankEnd.BROKEN)
        elif self.banker_left:
            self._close_bank(BankEnd.LEFT)
        elif self.last_round:
            self._close_bank(BankEnd.KNOCK)
        else:
            self._round_start()

    # -- a player's hand (§20.8) -------------------------------------------------------------------------------

    def _bet(self, seat: int, amount: int) -> None:
        self.bets[seat] = amount
        self._events.append(BetPlaced(seat, amount))
        self._player_draw(seat)  # Ruling 30: the bet brings the second card
        self._player_check(seat)

    def _player_draw(self, seat: int, dark: bool = False) -> None:
        card = self._draw(seat)
        if card is None:  # §20.14 item 2: no card anywhere, the hand stands as it is
            return
        self.hands[seat].append(card)
        if dark:
            self.dark.add(seat)
        self._events.append(PlayerDrew(seat, len(self.hands[seat]), dark))

    def _player_check(self, seat: int) -> None:
        """§20.8 item 2: bust, immediate 21, 21 by itself, else the player chooses."""
        hand = self.hands[seat]
        outcome = settle_open(hand, self.options)
        if outcome is not None:
            won, case = outcome
            if not won:
                self._events.append(PlayerBusted(seat, value(hand, self.options)))
            self._pay(seat, won, case)
            self._finish(seat)
            return
        if value(hand, self.options) == BLACKJACK or not self.present[seat]:
            self._stood(seat)  # Ruling 3; a player who left on his turn stands (§20.14 item 7)
            return
        self.phase = Phase.PLAY
        self.current = seat

    def _stood(self, seat: int) -> None:
        self._events.append(Stood(seat, seat in self.dark))
        self.waiting.append(seat)
        if self.options.structure is Structure.DUEL:
            self._banker_turn()
        else:
            self._next_player()

    def _finish(self, seat: int) -> None:
        """§20.11 [finish]: a hand settled at once."""
        self._give_back(seat, self.hands.pop(seat))
        if self.bank == 0:
            self._round_end()
        else:
            self._next_player()

    def _pay(self, seat: int, player_won: bool, case: Case, banker_cards: tuple[Card, ...] = ()) -> None:
        """RULES §20.6 item 2, §20.10: exactly the bet moves, 1:1."""
        amount = self.bets[seat]
        if player_won:
            self.bank -= amount
            self.chips[seat] += amount
            if self.bank == 0:
                self.breaker = seat  # Ruling 20: the player whose payment emptied the bank
        else:
            self.chips[seat] -= amount
            self.bank += amount
        hand = tuple(self.hands[seat])
        self.shown[seat] = hand
        self.done.add(seat)
        self._events.append(
            Settled(
                seat,
                player_won,
                amount,
                case,
                hand,
                seat in self.dark,
                value(hand, self.options),
                banker_cards,
                self.bank,
                self.chips[seat],
            )
        )

    # -- the banker's hand (§20.9) ------------------------------------------------------------------------------

    def _banker_turn(self) -> None:
        self._banker_draw()  # Ruling 30: his second card comes at once
        self._banker_check()

    def _banker_draw(self) -> None:
        card = self._draw(self.banker)
        if card is not None:
            self.banker_drawn.append(card)
            self._events.append(BankerDrew(card, value(self.banker_hand, self.options)))

    def _banker_check(self) -> None:
        while True:
            total = value(self.banker_hand, self.options)
            if total > BLACKJACK:
                self._events.append(BankerBusted(total))
                self._showdown()
                return
            if total == BLACKJACK:  # Ruling 3
                self._banker_stands()
                return
            if not self.banker_left:
                self.phase = Phase.BANKER
                self.current = None
                return
            # Ruling 18: the engine plays a departed banker's hand, "hit below 17, stand at 17+", within [O07].
            hit, stand = self.banker_moves()
            if stand and (total >= AUTO_STAND or not hit):
                self._banker_stands()
                return
            self._banker_draw()

    def _banker_stands(self) -> None:
        self._events.append(BankerStood(value(self.banker_hand, self.options)))
        self._showdown()

    def _showdown(self) -> None:
        """§20.11 [showdown]: every waiting hand settled by §20.10, in turn; their cards and the banker's drawn
        cards go back (he keeps his first, Ruling 6)."""
        banker = tuple(self.banker_hand)
        for seat in list(self.waiting):
            won, case = settle(self.hands[seat], seat in self.dark, banker, self.options)
            self._pay(seat, won, case, banker)
            self._give_back(seat, self.hands.pop(seat))
        self.waiting = []
        self._give_back(self.banker, self.banker_drawn)
        self.banker_drawn = []
        if self.options.structure is Structure.DUEL and self.bank > 0:
            self._next_player()
        else:
            self._round_end()

    # -- leaving (§20.14 items 7-9) ----------------------------------------------------------------------------

    def _leave(self, seat: int) -> None:
        self.present[seat] = False
        self._events.append(SeatLeft(seat))
        if seat == self.banker:
            if self.phase is Phase.STAKE:  # no bank yet: it passes and counts as none (V26)
                self._pass_bank(seat)
            elif self.phase is Phase.KNOCK:
                self._close_bank(BankEnd.LEFT)
            else:
                self.banker_left = True  # the round is the last; the engine plays his hand (Ruling 18)
                self._events.append(LastRound(seat, LastRoundWhy.BANKER_LEFT))
                if self.phase is Phase.BANKER:
                    self._banker_check()
            return
        if self.phase is Phase.STAKE and not self._can_bank(self.banker):
            self._pass_bank(self.banker)  # the banker lost his last opponent before staking
            return
        if not self.in_round or seat not in self.hands or seat in self.waiting:
            return  # not dealt in, settled, or waiting for the banker: settled as usual
        if seat == self.current and self.phase is Phase.PLAY:
            self._stood(seat)  # his hand stands as it is
        elif seat not in self.bets:
            self._skip(seat, SkipWhy.LEFT)  # no bet yet: his card goes back
            if seat == self.current:
                self._next_player()

    # -- persistence ------------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Config + seed (+ the fair shuffle) + action log: everything needed to rebuild this exact state."""
        data: dict[str, Any] = {
            "game": "ochko",
            "options": dict(self._options_json),
            "players": self.players,
            "seed": self.seed,
            "first_banker": self.first_banker,
            "volunteers": list(self.volunteers),
            "stacks": None if self.stacks is None else list(self.stacks),
            "actions": [action_to_json(action) for action in self.actions],
        }
        if self.fair is not None:
            data["fair"] = self.fair.to_json()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Match:
        """Replay a match from :meth:`to_json`; every action is verified again on the way."""
        fair = FairShuffle.from_json(data["fair"]) if "fair" in data else None
        match = cls(
            Options.model_validate(data["options"]),
            int(data["players"]),
            data["seed"],
            first_banker=data.get("first_banker"),
            volunteers=data.get("volunteers") or None,
            stacks=data.get("stacks"),
            fair=fair,
        )
        for item in data["actions"]:
            match.apply(action_from_json(item))
        return match

    def snapshot(self) -> dict[str, Any]:
        """Every field of the state as plain data: two states are the same iff their snapshots are equal. (The
        :attr:`trace` is left out: a log of the card moves, it follows from the config and the actions.)"""
        return {
            "options": self._options_json,
            "players": self.players,
            "phase": self.phase.value,
            "finished": self.finished,
            "chips": list(self.chips),
            "present": list(self.present),
            "banker": self.banker,
            "bank": self.bank,
            "initial_stake": self.initial_stake,
            "banks_held": self.banks_held,
            "last_round": self.last_round,
            "banker_left": self.banker_left,
            "breaker": self.breaker,
            "round_no": self.round_no,
            "shuffles": self.shuffles,
            "round_shuffle": self.round_shuffle,
            "cut": [[seat, card.code] for seat, card in self.cut],
            "in_round": self.in_round,
            "pack": codes(self.pack),
            "marker": None if self.marker is None else self.marker.code,
            "returned": codes(self.returned),
            "dealt": list(self.dealt),
            "hands": {str(seat): codes(hand) for seat, hand in sorted(self.hands.items())},
            "dark": sorted(self.dark),
            "bets": {str(seat): bet for seat, bet in sorted(self.bets.items())},
            "done": sorted(self.done),
            "waiting": list(self.waiting),
            "shown": {str(seat): codes(hand) for seat, hand in sorted(self.shown.items())},
            "banker_card": None if self.banker_card is None else self.banker_card.code,
            "banker_drawn": codes(self.banker_drawn),
            "current": self.current,
            "actions": len(self.actions),
        }

    # -- the verifiable shuffle (docs/fairness.md §4 «Очко») ----------------------------------------------------

    def fair_export(self, through: int | None = None) -> dict[str, Any]:
        """The session in the verifier's format (``python -m engine.verify``): every shuffle's commitment and
        order; the cut's turned cards; each round's layout and the moves of its cards; the seeds of shuffles
        1..``through`` (default: those whose round is over), read off :attr:`trace`."""
        fair = self.fair
        if fair is None:
            raise ValueError("only a match dealt by the fair shuffle can be verified")
        witness = DealWitness()
        deals: dict[int, dict[str, Any]] = {}
        moves: list[list[Any]] = []
        for kind, *rest in self.trace:
            if kind == "shuffle":
                number, order = rest
                witness.orders[number] = list(order)
            elif kind == "cut":
                number, seat, card = rest
                deal = deals.setdefault(number, {"kind": "cut", "turned": [], "layout": None, "moves": []})
                deal["turned"].append([seat, card])
            elif kind == "round":
                number, banker, seats, hands, banker_card, marker, pack = rest
                moves = []
                layout = {"hands": hands, "banker": banker_card, "marker": marker, "pack": pack}
                deals[number] = {"kind": "round", "banker": banker, "seats": seats, "layout": layout, "moves": moves}
            elif kind == "reshuffle":
                deals[rest[0]] = {"kind": "reshuffle", "layout": None, "moves": []}
                moves.append([kind, *rest])
            else:
                moves.append([kind, *rest])
        header = {"game": "ochko", "pack": f"bura-{self.options.pack}", "players": self.players}
        return export(fair, header, witness, deals, self.fair_over if through is None else through)
