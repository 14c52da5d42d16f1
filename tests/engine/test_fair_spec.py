"""docs/fairness.md reimplemented from the document alone: no import of ``engine``, only hashlib and hmac.

If this module and the engine ever disagree, the document is not precise enough (or one of them is wrong).
``tests/engine/test_fair.py`` compares these functions with the engine on random inputs; here they meet the
document's own test vectors (§6).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

import pytest

DOMAIN = b"bura-bot/fair/v1/"  # §1


def u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


def chain_seed(master: bytes, k: int, length: int = 1000) -> bytes:
    """§2: s_k."""
    segment, place = (k - 1) // length, (k - 1) % length + 1
    seed = hmac.new(master, DOMAIN + b"chain" + u32(segment), hashlib.sha256).digest()  # s_L
    for _ in range(length - place):
        seed = hashlib.sha256(seed).digest()
    return seed


def pack(name: str) -> list[str]:
    """§3: the canonical decks."""
    suits = ["S", "C", "H", "D"]
    if name == "bura-36":
        return [r + s for s in suits for r in ["6", "7", "8", "9", "J", "Q", "K", "T", "A"]]
    if name == "bura-32":
        return [r + s for s in suits for r in ["7", "8", "9", "J", "Q", "K", "T", "A"]]
    assert name == "buraco-108"
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]
    out = []
    for s in suits:
        for r in ranks:
            out += [r + s, r + s]
    return [*out, "JK", "JK", "JK", "JK"]


class Stream:
    """§3: the words of HMAC(s_k, prefix || u32(m)), m = 0, 1, ..."""

    def __init__(self, key: bytes, purpose: str, k: int, player_seeds: Sequence[str]) -> None:
        prefix = DOMAIN + purpose.encode("ascii") + b"\x00" + u32(k) + u32(len(player_seeds))
        for seed in player_seeds:
            b = seed.encode("utf-8")
            prefix += u32(len(b)) + b
        self.key, self.prefix, self.m, self.buffer = key, prefix, 0, b""

    def word(self) -> int:
        if not self.buffer:
            self.buffer = hmac.new(self.key, self.prefix + u32(self.m), hashlib.sha256).digest()
            self.m += 1
        x, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
        return x

    def below(self, b: int) -> int:
        while True:
            x = self.word()
            if x < 2**32 - (2**32 % b):
                return x % b


def order(name: str, server_seed: bytes, player_seeds: Sequence[str], k: int) -> list[str]:
    """§3: the order of deal k, first card dealt first."""
    d = pack(name)
    stream = Stream(server_seed, "deck", k, player_seeds)
    for i in range(len(d) - 1, 0, -1):
        j = stream.below(i + 1)
        d[i], d[j] = d[j], d[i]
    return d


def first_dealer(s1: bytes, player_seeds: Sequence[str]) -> int:
    """§3: one draw below the number of seats from deal 1's ``dealer`` stream."""
    return Stream(s1, "dealer", 1, player_seeds).below(len(player_seeds))


MASTER = bytes(range(32))


@pytest.mark.parametrize(
    ("k", "seed", "commitment"),
    [
        (
            1,
            "4a04fb0ceb41f682bf9c1a58b712a7c62a8228267cfbf1bad25c6fb61700f9a6",
            "e1437e5624b89adedf95beb02a3d2210035604fdc08eaea578142014b72ac38d",
        ),
        (
            2,
            "ebe19b08f57df74cbcfd2f37ab3bded01e26da2de1c05d86796983e98ca8ce72",
            "4a04fb0ceb41f682bf9c1a58b712a7c62a8228267cfbf1bad25c6fb61700f9a6",
        ),
        (
            3,
            "6de57c12503c90f20aec170e55be230efef5dff4a34d6f2cc28f9176b4bc4937",
            "ebe19b08f57df74cbcfd2f37ab3bded01e26da2de1c05d86796983e98ca8ce72",
        ),
        (1000, "3a03932e3dcf074b19b8572f93fa6e137bf96e896f52cf017a6057749da324b0", None),
    ],
)
def test_the_chain_vectors(k: int, seed: str, commitment: str | None) -> None:
    s = chain_seed(MASTER, k)
    assert s.hex() == seed
    if commitment is not None:
        assert hashlib.sha256(s).hexdigest() == commitment


def test_the_stream_vectors() -> None:
    stream = Stream(chain_seed(MASTER, 1), "deck", 1, ["alice", "bob"])
    assert stream.prefix.hex() == (
        "627572612d626f742f666169722f76312f6465636b00000000010000000200000005616c69636500000003626f62"
    )
    block = hmac.new(stream.key, stream.prefix + u32(0), hashlib.sha256).hexdigest()
    assert block == "8d07a14d476a1220fee1892c034af6456bb88dd7ca95518f8f5c3e946b4116e5"


ORDER_VECTORS = [
    (
        "bura-36",
        1,
        ["alice", "bob"],
        "8C 8H 7H AS JC AC AD KS 6H TC 9D TD JS QD 9S 7S TH 9H 6C KH TS AH QS 7D JH JD KC 6S 6D 7C 9C QH KD QC 8S 8D",
    ),
    (
        "bura-32",
        2,
        ["alice", "bob"],
        "9H 8H 7H 7D 9D AS 8S JD TH KD TC QC KH QS 8D QD JC 8C 9C AD KS AC KC AH JH TS 9S 7S 7C JS QH TD",
    ),
    (
        "buraco-108",
        3,
        ["alice", "bob", "Вася", "d"],
        "KC 5S 5S 2C 2S QS 7H 4S 7D 7C 9D 9C 3H TC 7D 8D JK 7C JK JD JK 8H 8S 9C 8S JH 3S TH KD KH 5D 4D 4H 3S 4S 6H "
        "TH TD JK QH 9D JC 4C 4H TS 8H 6S 8C 3C 7S QD 6H 5C JS 3H 5H AS QD JH 7S 2S JD KS 5H 6D KC QC 2H 8C AD 5D 2D "
        "2H KS AC 6C KD 9H AC 4C TD QS 5C 3C TC 8D 2D TS AH 2C 6D 6S JS 3D 9H QC 7H AD 9S 3D AH 9S JC AS KH QH 6C 4D",
    ),
]


@pytest.mark.parametrize(("name", "k", "player_seeds", "expected"), ORDER_VECTORS)
def test_the_order_vectors(name: str, k: int, player_seeds: list[str], expected: str) -> None:
    assert order(name, chain_seed(MASTER, k), player_seeds, k) == expected.split()


def test_the_first_dealer_vectors() -> None:
    s1 = chain_seed(MASTER, 1)
    assert first_dealer(s1, ["alice", "bob"]) == 1
    assert first_dealer(s1, ["alice", "bob", "Вася", "d"]) == 3
