"""Stacked Buraco deals for scenario tests: name the cards that matter, the rest of the 108 fill in."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.buraco.cards import Card, cards, deck
from engine.buraco.deal import Deal, Phase
from engine.buraco.melds import Meld, arrange
from engine.core.cards import Suit


def order_for(
    hands: Mapping[int, str],
    stock: str = "",
    mortos: Sequence[str] = ("", ""),
    dealer: int = 3,
) -> list[Card]:
    """A deck order whose deal gives ``hands[seat]`` to those seats, ``stock`` on top of the stock and the
    mortos' first cards ``mortos``; every other place gets the cards left, in the deck's order."""
    rest = deck()
    wanted: dict[str, list[Card]] = {}
    for key, text in [
        *((f"h{s}", t) for s, t in hands.items()),
        ("stock", stock),
        ("m0", mortos[0]),
        ("m1", mortos[1]),
    ]:
        wanted[key] = list(cards(text))
        for card in wanted[key]:
            rest.remove(card)
    order: list[Card | None] = [None] * 108
    for index, card in enumerate(wanted["m0"]):
        order[index] = card
    for index, card in enumerate(wanted["m1"]):
        order[11 + index] = card
    for seat in range(4):
        places = [22 + i for i in range(44) if (dealer + 1 + i) % 4 == seat]
        for place, card in zip(places, wanted.get(f"h{seat}", []), strict=False):
            order[place] = card
    for index, card in enumerate(wanted["stock"]):
        order[66 + index] = card
    for index in range(108):
        if order[index] is None:
            order[index] = rest.pop(0)
    return [card for card in order if card is not None]


def dealt(
    hands: Mapping[int, str],
    stock: str = "",
    mortos: Sequence[str] = ("", ""),
    dealer: int = 3,
    vulnerable: tuple[bool, bool] = (False, False),
) -> Deal:
    return Deal(dealer, order_for(hands, stock, mortos, dealer), vulnerable)


def run(text: str, suit: Suit, low: int) -> Meld:
    meld = arrange(suit, low, cards(text))
    assert isinstance(meld, Meld), meld
    return meld


def position(deal: Deal, seat: int, hand: str, *, phase: Phase = Phase.MELD, pile: str = "") -> None:
    """Put ``deal`` at ``seat``'s turn in ``phase`` with exactly ``hand``; the cards taken out of his hand go
    to the bottom of the stock, and ``pile`` is laid from the stock, so the 108 stay accounted for."""
    deal.stock = deal.hands[seat] + deal.stock
    deal.hands[seat] = []
    for card in cards(hand) + cards(pile):
        take(deal, card)
    deal.hands[seat] = list(cards(hand))
    deal.pile = list(cards(pile))
    deal.turn = seat
    deal.phase = phase
    deal.first_turn = False
    deal._legal = None


def lay(deal: Deal, side: int, *melds: Meld) -> None:
    """Put runs on ``side``'s table, taking their cards from the stock."""
    for meld in melds:
        for card in meld.cards:
            take(deal, card)
        deal.runs[side].append(meld)
    deal.opened[side] = True
    deal._legal = None


def take(deal: Deal, card: Card) -> None:
    """Take one ``card`` out of the stock, or else out of a hand or a morto (a stock card takes its place)."""
    if card in deal.stock:
        deal.stock.remove(card)
        return
    for holder in [*deal.hands, *deal.mortos]:
        if card in holder:
            holder.remove(card)
            spare = next(c for c in deal.stock if c is not card)
            deal.stock.remove(spare)
            holder.append(spare)
            return
    raise ValueError(f"no {card} left to take")


def took_morto(deal: Deal, seat: int, direta: bool = True) -> None:
    """``seat``'s pair has taken the first morto (its cards into his hand)."""
    deal.hands[seat].extend(deal.mortos.pop(0))
    deal.morto_taken[deal.side_of(seat)] = (seat, direta)
    deal._legal = None
