"""Check a finished match's every card against its revealed seeds: ``python -m engine.verify EXPORT.json``.

The second implementation of docs/fairness.md, written to be read: it imports nothing but the standard library
(not even the rest of ``engine``), so anyone can copy this one file and run it. Given a match exported by
``Match.fair_export()`` (the format is docs/fairness.md §5) it checks, deal by deal:

1. the chain: deal 1's commitment is the match's, SHA-256 of each revealed seed is its deal's commitment, and
   inside a segment each commitment is the previous deal's seed (so SHA-256 of it is the previous commitment);
2. the order: the game's canonical deck shuffled by the seed, the players' seeds and the deal's number is the
   deck dealt, card by card; deal 1's stream also gives the first dealer;
3. the layout: the hands, trump, stock and mortos are the ones the order deals (docs/fairness.md §4);
4. the moves: every card drawn is the stock's next one, every card played or discarded was in the player's
   hand, every pile or morto taken is the one on the table.

Очко (docs/fairness.md §4) shuffles once per round and again whenever the fresh cards run out: each shuffle is
a deal. A reshuffle's deck is its cards in the canonical order shuffled by its seed, and a round's moves say
that it shuffled exactly the cards returned and the marker; the cut's cards are the first of its pack.

It prints a verdict per deal and exits 0 when every deal is verified, 1 otherwise (2 for unreadable input).
:func:`verify` is pure; reading the file and printing are :func:`main`'s, the command line's entry (the one
module of ``engine`` that does I/O, because ``python -m engine.verify`` is what a stranger runs).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import struct
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

DOMAIN = b"bura-bot/fair/v1/"
FORMAT = "bura-bot/fair-export/v1"
SUITS = "SCHD"  # spades, clubs, hearts, diamonds


def canonical_deck(pack: str) -> list[str]:
    """docs/fairness.md §3: each game's deck in its canonical order, as card codes."""
    if pack == "bura-36":
        return [rank + suit for suit in SUITS for rank in "6789JQKTA"]
    if pack == "bura-32":
        return [rank + suit for suit in SUITS for rank in "789JQKTA"]
    if pack == "buraco-108":
        ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
        return [rank + suit for suit in SUITS for rank in ranks for _ in range(2)] + ["JK"] * 4
    raise ValueError(f"unknown pack {pack!r}")


def _u32(value: int) -> bytes:
    return struct.pack(">I", value)


def _words(key: bytes, purpose: bytes, deal: int, player_seeds: Sequence[str]) -> Iterator[int]:
    prefix = DOMAIN + purpose + b"\x00" + _u32(deal) + _u32(len(player_seeds))
    for text in player_seeds:
        encoded = text.encode("utf-8")
        prefix += _u32(len(encoded)) + encoded
    counter = 0
    while True:
        yield from struct.unpack(">8I", hmac.new(key, prefix + _u32(counter), hashlib.sha256).digest())
        counter += 1


def _below(words: Iterator[int], bound: int) -> int:
    limit = 2**32 - 2**32 % bound
    for x in words:
        if x < limit:
            return x % bound
    raise AssertionError("the stream is endless")


def deal_order(
    pack: str, seed: bytes, player_seeds: Sequence[str], deal: int, subset: Sequence[str] | None = None
) -> list[str]:
    """docs/fairness.md §2: the order deal ``deal`` is dealt in. With ``subset`` (an Очко reshuffle, §4) the
    cards shuffled are those of ``subset`` laid in the canonical order, not the whole pack."""
    cards = canonical_deck(pack)
    if subset is not None:
        wanted = set(subset)
        cards = [card for card in cards if card in wanted]
    words = _words(seed, b"deck", deal, player_seeds)
    for i in range(len(cards) - 1, 0, -1):
        j = _below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def first_dealer(seed: bytes, player_seeds: Sequence[str], players: int) -> int:
    """docs/fairness.md §2: the first dealer, from deal 1's seed."""
    return _below(_words(seed, b"dealer", 1, player_seeds), players)


def layout(export: dict[str, Any], deal: dict[str, Any], order: list[str]) -> dict[str, Any]:
    """docs/fairness.md §4: where each card of ``order`` goes."""
    if export["game"] == "bura":
        seats = list(deal["seats"])
        dealer, size = deal["dealer"], export["rules"]["hand_size"]
        start = (seats.index(dealer) + 1) % len(seats)
        dealing = seats[start:] + seats[:start]  # clockwise from the dealer's left, the dealer last
        position = len(seats) * size
        hands = {str(seat): order[i : position : len(seats)] for i, seat in enumerate(dealing)}
        stock = order[position:]  # top first: the turned-up trump card is drawn first...
        if export["rules"]["trump_under_stock"]:
            stock = stock[1:] + stock[:1]  # ...or last
        return {"hands": hands, "trump": order[position], "stock": stock}
    if export["game"] == "buraco":
        hands = {str(seat): [] for seat in range(4)}
        for index, card in enumerate(order[22:66]):
            hands[str((deal["dealer"] + 1 + index) % 4)].append(card)
        return {"hands": hands, "mortos": [order[0:11], order[11:22]], "stock": order[66:]}
    if export["game"] == "ochko":
        seats = list(deal["seats"])
        dealt = len(seats)
        return {
            "hands": {str(seat): [order[place]] for place, seat in enumerate(seats)},
            "banker": order[dealt],  # the banker's card, dealt last
            "marker": order[-1],  # the bottom card, turned face up across the top
            "pack": order[dealt + 1 : -1][::-1],  # the fresh cards, bottom first: the order they are drawn in
        }
    raise ValueError(f"unknown game {export['game']!r}")


def _same_layout(ours: dict[str, Any], theirs: dict[str, Any]) -> list[str]:
    problems = []
    for seat, hand in ours["hands"].items():
        if Counter(hand) != Counter(theirs["hands"].get(seat, [])):
            problems.append(f"seat {seat}'s hand is not the one dealt")
    if set(theirs["hands"]) - set(ours["hands"]):
        problems.append("a hand was dealt to a seat out of the deal")
    for key in ("trump", "stock", "mortos", "banker", "marker", "pack"):
        if ours.get(key) != theirs.get(key):
            problems.append(f"the {key} is not the one dealt")
    return problems


def replay_moves(start: dict[str, Any], moves: list[list[Any]], players: int) -> list[str]:
    """docs/fairness.md §5: follow every card from the layout through the moves."""
    hands = {int(seat): Counter(hand) for seat, hand in start["hands"].items()}
    stock = list(start["stock"])
    mortos = [list(morto) for morto in start.get("mortos", [])]
    pile: list[str] = []
    table = {seat: Counter[str]() for seat in range(players)}
    for number, move in enumerate(moves, 1):
        kind, *rest = move
        where = f"move {number} ({kind})"
        if kind == "renew":
            if stock or not mortos:
                return [f"{where}: the stock is renewed while not empty, or from no morto"]
            stock = mortos.pop(0)
            continue
        seat, cards = rest[0], rest[1] if isinstance(rest[1], list) else [rest[1]]
        hand = hands.setdefault(seat, Counter())
        if kind == "draw":
            if not stock or stock[0] != cards[0]:
                return [f"{where}: seat {seat} drew {cards[0]}, the stock's next card is {stock[:1]}"]
            hand[stock.pop(0)] += 1
        elif kind in ("play", "discard"):
            if Counter(cards) - hand:
                return [f"{where}: seat {seat} played {' '.join(cards)} without holding it"]
            hand.subtract(cards)
            if kind == "play":
                table[seat].update(cards)
            else:
                pile.extend(cards)
        elif kind == "back":
            if Counter(cards) - table[seat]:
                return [f"{where}: seat {seat} took back cards he had not laid"]
            table[seat].subtract(cards)
            hand.update(cards)
        elif kind == "take_pile":
            if cards != pile:
                return [f"{where}: seat {seat} took {' '.join(cards)}, the pile is {' '.join(pile)}"]
            hand.update(pile)
            pile = []
        elif kind == "morto":
            if not mortos or mortos[0] != cards:
                return [f"{where}: seat {seat} took a morto that is not the next one"]
            hand.update(mortos.pop(0))
        else:
            return [f"{where}: unknown move"]
    return []


def replay_ochko(start: dict[str, Any], deal: dict[str, Any], deals: dict[int, dict[str, Any]]) -> list[str]:
    """docs/fairness.md §4 «Очко»: follow a round's cards. Every card drawn is the next fresh one from the
    bottom; a card returned was held by that seat; a reshuffle comes only when no fresh card is left, and
    shuffles exactly the returned cards and the marker (its order is checked as a deal of its own)."""
    hands = {int(seat): Counter(hand) for seat, hand in start["hands"].items()}
    hands.setdefault(int(deal["banker"]), Counter())[start["banker"]] += 1
    fresh, marker, returned = list(start["pack"]), start["marker"], []
    for number, move in enumerate(deal["moves"], 1):
        kind, *rest = move
        where = f"move {number} ({kind})"
        if kind == "draw":
            seat, card = rest
            if not fresh or fresh[0] != card:
                return [f"{where}: seat {seat} drew {card}, the next card from the bottom is {fresh[:1]}"]
            hands.setdefault(seat, Counter())[fresh.pop(0)] += 1
        elif kind == "return":
            seat, cards = rest
            if Counter(cards) - hands.get(seat, Counter()):
                return [f"{where}: seat {seat} gave back {' '.join(cards)} without holding it"]
            hands[seat].subtract(cards)
            returned += cards
        elif kind == "reshuffle":
            other = deals.get(rest[0])
            pile = returned + ([marker] if marker is not None else [])
            if fresh or other is None or other.get("kind") != "reshuffle":
                return [f"{where}: a reshuffle while fresh cards remain, or of no reshuffled deal"]
            if Counter(other["deck"]) != Counter(pile):
                return [f"{where}: deal {rest[0]} does not shuffle the returned cards and the marker"]
            fresh, marker, returned = list(other["deck"])[::-1], None, []
        else:
            return [f"{where}: unknown move"]
    return []


def _ochko_problems(
    export: dict[str, Any], deal: dict[str, Any], order: list[str], deals: dict[int, dict[str, Any]]
) -> list[str]:
    """Очко (docs/fairness.md §4): a full pack for the cut and the rounds; the cut's cards from the top."""
    problems = []
    if deal.get("kind") != "reshuffle" and len(order) != len(canonical_deck(export["pack"])):
        problems.append("a cut or a round is dealt from the whole pack")
    if deal.get("kind") == "cut":
        turned = [card for _, card in deal["turned"]]
        if turned != order[: len(turned)]:
            problems.append("the cut's cards are not the pack's first cards")
    if deal.get("layout") is not None:
        ours = layout(export, deal, order)
        problems += _same_layout(ours, deal["layout"])
        problems += replay_ochko(ours, deal, deals)
    return problems


def verify(export: dict[str, Any]) -> tuple[bool, list[str]]:
    """Every check of the module docstring: (all verified, the report's lines)."""
    if export.get("format") != FORMAT:
        return False, [f"not a {FORMAT} export"]
    player_seeds = list(export["player_seeds"])
    length = int(export["chain_length"])
    lines, good = [], True
    previous: dict[str, Any] | None = None
    by_number = {int(deal["number"]): deal for deal in export["deals"]}
    for index, deal in enumerate(export["deals"]):
        number = deal["number"]
        commitment = bytes.fromhex(deal["commitment"])
        problems = []
        if number != index + 1:
            problems.append(f"deals must be numbered 1, 2, ...: found {number} at place {index + 1}")
        if number == 1 and deal["commitment"] != export["match_commitment"]:
            problems.append("the first deal's commitment is not the match's")
        if previous is not None and (number - 1) % length:
            if hashlib.sha256(commitment).hexdigest() != previous["commitment"]:
                problems.append("the commitment does not hash to the previous deal's")
            if previous["seed"] is not None and previous["seed"] != deal["commitment"]:
                problems.append("the commitment is not the previous deal's seed")
        if deal["seed"] is None:
            problems.append("the seed is not revealed")
        else:
            seed = bytes.fromhex(deal["seed"])
            if hashlib.sha256(seed).digest() != commitment:
                problems.append("SHA-256 of the seed is not the commitment")
            ochko = export.get("game") == "ochko"
            subset = deal["deck"] if ochko and deal.get("kind") == "reshuffle" else None
            order = deal_order(export["pack"], seed, player_seeds, number, subset)
            mismatch = next((i for i, (a, b) in enumerate(zip(order, deal["deck"], strict=False)) if a != b), None)
            if len(order) != len(deal["deck"]) or mismatch is not None:
                at = mismatch if mismatch is not None else min(len(order), len(deal["deck"]))
                problems.append(f"card {at + 1} dealt differs from the seed's order")
            if number == 1:
                dealer = first_dealer(seed, player_seeds, int(export["players"]))
                if dealer != export["first_dealer"] or ("dealer" in deal and deal["dealer"] != dealer):
                    problems.append(f"the first dealer is seat {dealer} by the seed")
            if ochko:
                problems += _ochko_problems(export, deal, order, by_number)
            elif deal.get("layout") is not None:
                ours = layout(export, deal, order)
                problems += _same_layout(ours, deal["layout"])
                problems += replay_moves(ours, deal["moves"], int(export["players"]))
        moves = len(deal.get("moves", []))
        if problems:
            good = False
            lines += [f"deal {number}: FAILED: {problem}" for problem in problems]
        else:
            lines.append(f"deal {number}: verified ({len(deal['deck'])} cards, {moves} moves)")
        previous = deal
    if not export["deals"]:
        good = False
        lines.append("no deals")
    lines.append("verdict: every card verified" if good else "verdict: NOT verified")
    return good, lines


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 1:
        print("usage: python -m engine.verify EXPORT.json", file=sys.stderr)
        return 2
    try:
        with open(args[0], encoding="utf-8") as file:
            export = json.load(file)
        good, lines = verify(export)
    except (OSError, ValueError, KeyError, TypeError, IndexError) as error:
        print(f"unreadable export: {error!r}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
