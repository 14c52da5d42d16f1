"""A shuffle anyone can verify (issue 38): committed server seeds, players' seeds, and a documented deck order.

docs/fairness.md is the specification; this module is its reference implementation, and ``engine/verify.py`` a
second one that imports nothing of ours. In short:

* **The chain.** A match keeps one 32-byte secret, its *master*. Deals are numbered k = 1, 2, ... (every deal
  dealt, a redeal included). Deals come in segments of ``length`` (default 1,000): segment j (from 0) has the
  tail ``t_j = HMAC-SHA256(master, "bura-bot/fair/v1/chain" || u32(j))``; inside it the seeds run backwards,
  ``s_L = t_j`` and ``s_i = SHA-256(s_{i+1})``, and deal k = j * L + i uses ``s_i``. Deal k's *commitment* is
  ``SHA-256(s_k)``: it is shown before the deal's first card. Since ``SHA-256(s_k) = s_{k-1}``, the commitment
  of deal k is the seed of deal k-1, revealed when that deal ends; and ``SHA-256(s_{k-1})`` is the commitment of
  deal k-1, so the revealed seeds chain back to the match's commitment ``c = SHA-256(s_1)``, shown at the start.
  Revealing ``s_k`` exposes only earlier deals: a later seed is a preimage of SHA-256. A match that deals more
  than L deals starts a new segment, whose first commitment is shown before its first deal like any other (it
  is not bound to ``c``; the master derives it, so nothing is chosen then). L = 1,000 is many times what a
  match needs (random play of a Бура match to 11 wins took under 60 deals) and costs 1,000 hashes, under a
  millisecond.
* **The deck.** Deal k's order is a Fisher-Yates shuffle of the game's canonical deck (docs/fairness.md lists
  them) driven by the byte stream ``HMAC-SHA256(key=s_k, msg=prefix || u32(counter))``, counter = 0, 1, ...,
  blocks concatenated, where ``prefix = "bura-bot/fair/v1/" || purpose || 0x00 || u32(k) || u32(n) ||
  (u32(len(seed_i)) || seed_i for each seat i)`` with the players' seeds in UTF-8, by seat. From the last place
  down to the second, place i swaps with j, uniform in [0, i] by rejection: read a big-endian u32 x, redraw
  while ``x >= 2^32 - 2^32 mod (i + 1)``, then ``j = x mod (i + 1)``.
* **The first dealer** (RULES §5.1, §17.2: drawn by lot) is drawn the same way, purpose ``"dealer"``, from deal
  1's seed: one uniform draw below the number of players.

All integers are unsigned 32-bit big-endian (``u32``). Nothing else about a deal is random: the layout (hands,
trump, stock, mortos) is a fixed function of the order, given in docs/fairness.md per game.

The engine never decides when a seed is revealed: it only answers ``commitment(k)`` and ``seed(k)``; the bot
must not show ``seed(k)`` -- nor ``commitment(k + 1)``, which is the same value -- before deal k is over.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import struct
from collections.abc import Callable, Iterable, Iterator, MutableSequence, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, Protocol, TypeVar

T = TypeVar("T")

DOMAIN: Final = b"bura-bot/fair/v1/"
CHAIN_TAG: Final = DOMAIN + b"chain"
DECK_PURPOSE: Final = b"deck"
DEALER_PURPOSE: Final = b"dealer"
CHAIN_LENGTH: Final = 1000  # deals per segment of the chain (see the module docstring)
SEED_BYTES: Final = 32


def _u32(value: int) -> bytes:
    return struct.pack(">I", value)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


@lru_cache(maxsize=64)
def _segment(master: bytes, segment: int, length: int) -> tuple[bytes, ...]:
    """The seeds s_1..s_L of one segment (index 0 is s_1)."""
    seed = hmac.new(master, CHAIN_TAG + _u32(segment), hashlib.sha256).digest()
    seeds = [seed]
    for _ in range(length - 1):
        seed = sha256(seed)
        seeds.append(seed)
    seeds.reverse()
    return tuple(seeds)


@dataclass(frozen=True, slots=True)
class SeedChain:
    """The server's side: a master secret and the per-deal seeds it commits to (see the module docstring).

    Made before the players choose their seeds, so that its commitment can be shown first. ``master`` is 32
    bytes the caller drew (``secrets.token_bytes(32)``): the engine draws nothing itself.
    """

    master: bytes
    length: int = CHAIN_LENGTH

    def __post_init__(self) -> None:
        if len(self.master) != SEED_BYTES:
            raise ValueError(f"a master secret has {SEED_BYTES} bytes")
        if self.length < 1:
            raise ValueError("a segment holds one deal at least")

    def seed(self, deal: int) -> bytes:
        """s_k, the server seed of deal ``deal`` (1-based). Secret until that deal is over."""
        if deal < 1:
            raise ValueError("deals are numbered from 1")
        segment, place = divmod(deal - 1, self.length)
        return _segment(self.master, segment, self.length)[place]

    def commitment(self, deal: int) -> bytes:
        """SHA-256(s_k): shown before deal ``deal``'s first card. Equals ``seed(deal - 1)`` inside a segment."""
        return sha256(self.seed(deal))

    @property
    def match_commitment(self) -> bytes:
        """c = SHA-256(s_1): shown when the match is set up, before the players choose their seeds."""
        return self.commitment(1)

    def starts_segment(self, deal: int) -> bool:
        """Whether ``deal`` is the first of a segment: its commitment is not the previous deal's seed."""
        return (deal - 1) % self.length == 0


def _prefix(purpose: bytes, deal: int, player_seeds: Sequence[str]) -> bytes:
    parts = [DOMAIN, purpose, b"\x00", _u32(deal), _u32(len(player_seeds))]
    for text in player_seeds:
        encoded = text.encode("utf-8")
        parts += [_u32(len(encoded)), encoded]
    return b"".join(parts)


def _words(key: bytes, prefix: bytes) -> Iterator[int]:
    """The byte stream HMAC-SHA256(key, prefix || u32(counter)), counter = 0, 1, ..., read as big-endian u32s."""
    counter = 0
    while True:
        block = hmac.new(key, prefix + _u32(counter), hashlib.sha256).digest()
        yield from struct.unpack(">8I", block)
        counter += 1


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound) by rejection: no modulo bias."""
    limit = (1 << 32) - (1 << 32) % bound
    for x in words:
        if x < limit:
            return x % bound
    raise AssertionError("the stream is endless")


def permute(items: MutableSequence[T], server_seed: bytes, player_seeds: Sequence[str], deal: int) -> None:
    """Lay ``items`` (the canonical deck) out in deal ``deal``'s order, in place: Fisher-Yates from the end."""
    words = _words(server_seed, _prefix(DECK_PURPOSE, deal, player_seeds))
    for i in range(len(items) - 1, 0, -1):
        j = _below(words, i + 1)
        items[i], items[j] = items[j], items[i]


def draw_below(bound: int, server_seed: bytes, player_seeds: Sequence[str], deal: int, purpose: bytes) -> int:
    """One uniform draw in [0, bound) from the stream of ``purpose`` (the first dealer: ``DEALER_PURPOSE``)."""
    return _below(_words(server_seed, _prefix(purpose, deal, player_seeds)), bound)


class FairRandom(random.Random):
    """The ``random.Random`` a game's deal receives: its ``shuffle`` lays the canonical deck in the fair order.

    The games shuffle through ``engine.core.shuffle.shuffle``, which hands a ``Random`` of another class to its
    own ``shuffle``; any other draw raises, so no randomness outside the documented stream can slip into a deal.
    """

    def __init__(
        self,
        server_seed: bytes,
        player_seeds: Sequence[str],
        deal: int,
        witness: Callable[[int, Sequence[Any]], None] | None = None,
    ) -> None:
        """``witness(deal, order)`` hears the order laid, as the game received it (how an export sees every
        deal, a redealt one included)."""
        super().__init__(0)
        self._fair = (server_seed, tuple(player_seeds), deal)
        self._witness = witness

    def shuffle(self, x: MutableSequence[Any]) -> None:
        server_seed, player_seeds, deal = self._fair
        permute(x, server_seed, player_seeds, deal)
        if self._witness is not None:
            self._witness(deal, tuple(x))

    def random(self) -> float:
        raise TypeError("a fair deal draws only its shuffle")

    def getrandbits(self, k: int, /) -> int:
        raise TypeError("a fair deal draws only its shuffle")


@dataclass(frozen=True, slots=True)
class FairShuffle:
    """What a match deals by: the server's chain and the players' seeds, by seat (the default ones included)."""

    chain: SeedChain
    player_seeds: tuple[str, ...]

    def rng(self, deal: int, witness: Callable[[int, Sequence[Any]], None] | None = None) -> FairRandom:
        """The shuffler of deal ``deal`` (1-based); ``witness`` as for :class:`FairRandom`."""
        return FairRandom(self.chain.seed(deal), self.player_seeds, deal, witness)

    def first_dealer(self, players: int) -> int:
        """RULES §5.1, §17.2: the first dealer by lot, from deal 1's seed (see the module docstring)."""
        return draw_below(players, self.chain.seed(1), self.player_seeds, 1, DEALER_PURPOSE)

    def commitment(self, deal: int) -> str:
        """Deal ``deal``'s commitment, hex: show it before the deal's first card."""
        return self.chain.commitment(deal).hex()

    def seed(self, deal: int) -> str:
        """Deal ``deal``'s server seed, hex: reveal it only once the deal is over."""
        return self.chain.seed(deal).hex()

    @property
    def match_commitment(self) -> str:
        return self.chain.match_commitment.hex()

    def to_json(self) -> dict[str, Any]:
        """What replay needs. Holds the master secret: stored by the server, never shown."""
        return {
            "version": 1,
            "master": self.chain.master.hex(),
            "chain_length": self.chain.length,
            "player_seeds": list(self.player_seeds),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FairShuffle:
        if data.get("version") != 1:
            raise ValueError(f"unknown fair shuffle version {data.get('version')!r}")
        chain = SeedChain(bytes.fromhex(data["master"]), int(data["chain_length"]))
        return cls(chain, tuple(str(seed) for seed in data["player_seeds"]))


EXPORT_FORMAT: Final = "bura-bot/fair-export/v1"


class _Coded(Protocol):
    @property
    def code(self) -> str: ...


class DealWitness:
    """Hears the order of every deal a match deals (a ``FairRandom`` witness), as card codes by fair number."""

    def __init__(self) -> None:
        self.orders: dict[int, list[str]] = {}

    def __call__(self, deal: int, order: Sequence[Any]) -> None:
        self.orders[deal] = [card.code for card in order]


def codes_of(cards: Iterable[_Coded]) -> list[str]:
    return [card.code for card in cards]


def export(
    fair: FairShuffle,
    header: dict[str, Any],
    witness: DealWitness,
    deals: dict[int, dict[str, Any]],
    revealed: int,
) -> dict[str, Any]:
    """The verifier's document (docs/fairness.md §5): ``header`` names the game, pack, players and rules;
    ``deals`` holds each observed deal's dealer, layout and moves (a deal never observed, one that ended while
    being dealt, is exported with its order only); the seeds of deals 1..``revealed`` are shown."""
    return {
        "format": EXPORT_FORMAT,
        **header,
        "player_seeds": list(fair.player_seeds),
        "chain_length": fair.chain.length,
        "match_commitment": fair.match_commitment,
        "first_dealer": fair.first_dealer(int(header["players"])),
        "deals": [
            {
                "number": number,
                "commitment": fair.commitment(number),
                "seed": fair.seed(number) if number <= revealed else None,
                "deck": order,
                **deals.get(number, {"layout": None, "moves": []}),
            }
            for number, order in sorted(witness.orders.items())
        ],
    }
