"""Issue 38: the fair shuffle deals every game, the verifier recomputes every card, and tampering is caught.

Random matches of every Бура profile at every table size (plus the deal's own options: 32 cards, the trump card
shown and returned) and of Buraco are exported and verified; a changed server seed, player seed or card fails;
the chain reveals nothing ahead; the draws are uniform; the engine agrees with the reimplementation written
from docs/fairness.md alone; matches stored before the issue replay exactly.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

from engine import verify
from engine.bura.match import Match as BuraMatch
from engine.bura.players import play_random_match
from engine.bura.variant import PROFILES, TrumpCard, Variant
from engine.buraco.actions import CancelDraft
from engine.buraco.match import Match as BuracoMatch
from engine.core.fair import DEALER_PURPOSE, FairShuffle, SeedChain, draw_below, permute
from tests.engine import test_fair_spec as spec

ROOT = Path(__file__).resolve().parents[2]

VARIANTS: dict[str, Variant] = {
    **PROFILES,
    "BURA_STANDARD_32_SHOWN": PROFILES["BURA_STANDARD"].with_options(deck_size=32, trump_card=TrumpCard.SHOWN_RETURNED),
    "BURKOZEL_SHOWN": PROFILES["BURKOZEL"].with_options(trump_card=TrumpCard.SHOWN_RETURNED),
}
CASES = [
    (name, players)
    for name, variant in VARIANTS.items()
    for players in range(variant.min_players, variant.max_players + 1)
]


def fair_for(rng: random.Random, players: int, length: int = 1000) -> FairShuffle:
    chain = SeedChain(rng.randbytes(32), length)
    seeds = tuple(rng.choice(["", "Вася", "seat", "🂡", "x" * 40]) + str(rng.randrange(10**6)) for _ in range(players))
    return FairShuffle(chain, seeds)


def bura_export(name: str, players: int, seed: int, actions: int = 400) -> dict[str, Any]:
    """A random match (cut at ``actions`` moves), every dealt deal revealed, in the verifier's format."""
    rng = random.Random(seed)
    match = BuraMatch(VARIANTS[name], players, seed, fair=fair_for(rng, players, rng.choice([3, 1000])))
    play_random_match(match, rng, actions)
    export = match.fair_export(through=match.fair_deal)
    assert export == BuraMatch.from_json(json.loads(json.dumps(match.to_json()))).fair_export(match.fair_deal)
    stored: dict[str, Any] = json.loads(json.dumps(export))  # as a file holds it
    return stored


def buraco_export(seed: int, target: int = 600, actions: int = 20_000) -> dict[str, Any]:
    """A random match (from 1,500 a pair drafts: a withdrawn draft now and then, random play seldom picks one)."""
    rng = random.Random(seed)
    match = BuracoMatch(seed, fair=fair_for(rng, 4, rng.choice([2, 1000])), target=target)
    while not match.finished and len(match.actions) < actions:
        seat = match.to_act()
        assert seat is not None
        legal = match.legal_actions(seat)
        withdraw = [action for action in legal if isinstance(action, CancelDraft)]
        match.apply(withdraw[0] if withdraw and rng.random() < 0.2 else rng.choice(legal))
    export = match.fair_export(through=match.fair_deal)
    assert export == BuracoMatch.from_json(json.loads(json.dumps(match.to_json()))).fair_export(match.fair_deal)
    stored: dict[str, Any] = json.loads(json.dumps(export))
    return stored


def accepted(export: dict[str, Any]) -> bool:
    return verify.verify(export)[0]


def check_tampering_fails(export: dict[str, Any], rng: random.Random) -> None:
    """A changed server seed, player seed, dealt card, layout card or move card is each refused."""
    deals = export["deals"]
    k = rng.randrange(len(deals))

    changed = copy.deepcopy(export)
    changed["deals"][k]["seed"] = rng.randbytes(32).hex()
    assert not accepted(changed)
    # The same with a commitment to match: the chain links to the neighbours break, and so does the order.
    changed["deals"][k]["commitment"] = hashlib.sha256(bytes.fromhex(changed["deals"][k]["seed"])).hexdigest()
    assert not accepted(changed)

    changed = copy.deepcopy(export)
    seat = rng.randrange(len(changed["player_seeds"]))
    changed["player_seeds"][seat] += "!"
    assert not accepted(changed)

    changed = copy.deepcopy(export)
    deck = changed["deals"][k]["deck"]
    i, j = rng.sample([n for n in range(len(deck)) if deck[n] != deck[0]] + [0], 2)
    deck[i], deck[j] = deck[j], deck[i]
    assert not accepted(changed)

    played = [deal for deal in export["deals"] if deal["layout"] is not None]
    target = rng.choice(played)
    changed = copy.deepcopy(export)
    layout = changed["deals"][target["number"] - 1]["layout"]
    hand = next(cards for cards in layout["hands"].values() if cards)
    hand[0], layout["stock"][-1] = layout["stock"][-1], hand[0]
    if hand[0] != layout["stock"][-1]:
        assert not accepted(changed)

    moves = [(n, i) for n, deal in enumerate(export["deals"]) for i, move in enumerate(deal["moves"]) if len(move) > 2]
    if moves:
        n, i = rng.choice(moves)
        changed = copy.deepcopy(export)
        move = changed["deals"][n]["moves"][i]
        others = [card for card in verify.canonical_deck(export["pack"]) if card not in json.dumps(move[2])]
        move[2] = [rng.choice(others)] if isinstance(move[2], list) else rng.choice(others)
        assert not accepted(changed)


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{n}" for name, n in CASES])
@pytest.mark.parametrize("seed", range(2))
def test_the_verifier_recomputes_every_bura_deal_and_catches_tampering(name: str, players: int, seed: int) -> None:
    """Matches cut after 400 moves (whole matches below): every deal dealt, redeals included."""
    export = bura_export(name, players, seed)
    good, lines = verify.verify(export)
    assert good, lines
    assert sum(line.endswith("moves)") for line in lines) == len(export["deals"])
    check_tampering_fails(export, random.Random(seed))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_whole_bura_matches_verify(name: str) -> None:
    """Played to the end (a pot match without a deal limit may not end: cut after 3,000 moves, past a segment)."""
    for players in {VARIANTS[name].min_players, VARIANTS[name].max_players}:
        rng = random.Random(players)
        match = BuraMatch(VARIANTS[name], players, 0, fair=fair_for(rng, players, 10))
        play_random_match(match, rng, 3000)
        export = match.fair_export(through=match.fair_deal)
        good, lines = verify.verify(export)
        assert good, lines
        assert match.finished or match.fair_deal > 10


@pytest.mark.parametrize(("seed", "target"), [(0, 600), (1, 600), (2, 600), (3, 600), (4, 3000), (5, 3000)])
def test_the_verifier_recomputes_every_buraco_deal_and_catches_tampering(seed: int, target: int) -> None:
    export = buraco_export(seed, target)
    good, lines = verify.verify(export)
    assert good, lines
    kinds = Counter(move[0] for deal in export["deals"] for move in deal["moves"])
    assert kinds.keys() >= {"draw", "play", "discard", "take_pile", "renew"}
    check_tampering_fails(export, random.Random(seed))


def test_buraco_exports_cover_every_kind_of_move() -> None:
    exports = [buraco_export(seed, target) for seed, target in [(0, 600), (1, 600), (4, 3000)]]
    kinds = Counter(move[0] for export in exports for deal in export["deals"] for move in deal["moves"])
    assert set(kinds) == {"draw", "play", "discard", "take_pile", "morto", "back", "renew"}


def test_a_deal_not_yet_revealed_is_not_verified() -> None:
    rng = random.Random(5)
    match = BuraMatch(PROFILES["BURA_STANDARD"], 2, 5, fair=fair_for(rng, 2))
    play_random_match(match, rng, 30)
    export = match.fair_export()  # the deal on the table keeps its seed
    assert export["deals"][-1]["seed"] is None
    good, lines = verify.verify(export)
    assert not good
    assert lines[-2] == f"deal {match.fair_deal}: FAILED: the seed is not revealed"
    assert all(line.endswith("moves)") for line in lines[:-2])


def test_python_m_engine_verify(tmp_path: Path) -> None:
    export = bura_export("BURKOZEL", 3, 1, actions=120)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine.verify", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == "verdict: every card verified"
    # A stranger's copy of the one file, run without the engine or any installed package (-I -S).
    alone = tmp_path / "verify.py"
    alone.write_text((ROOT / "engine" / "verify.py").read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-I", "-S", str(alone), str(path)], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stdout + run.stderr
    export["deals"][0]["seed"] = "00" * 32
    path.write_text(json.dumps(export), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "engine.verify", str(path)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 1
    assert "deal 1: FAILED" in run.stdout


def test_the_verifier_needs_only_the_standard_library() -> None:
    tree = ast.parse((ROOT / "engine" / "verify.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) if node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_the_spec_module_does_not_import_the_engine() -> None:
    source = (ROOT / "tests" / "engine" / "test_fair_spec.py").read_text(encoding="utf-8")
    assert "engine" not in {
        line.split()[1].split(".")[0] for line in source.splitlines() if line.startswith(("import ", "from "))
    }


# -- the chain --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("length", [1, 2, 5, 1000])
def test_each_commitment_is_the_hash_of_its_seed_and_the_previous_seed(length: int) -> None:
    chain = SeedChain(random.Random(length).randbytes(32), length)
    for k in range(1, 30):
        assert chain.commitment(k) == hashlib.sha256(chain.seed(k)).digest()
        if not chain.starts_segment(k):
            assert chain.commitment(k) == chain.seed(k - 1)
    assert chain.match_commitment == chain.commitment(1)


def revealed_through(export: dict[str, Any], k: int) -> dict[str, Any]:
    """What the table has shown once deal k is over: deals 1..k in full and deal k + 1's commitment."""
    shown = copy.deepcopy(export)
    shown["deals"] = [deal for deal in shown["deals"] if deal["number"] <= k]
    shown["next_commitment"] = export["deals"][k]["commitment"]
    return shown


def test_what_is_revealed_through_deal_k_holds_no_later_seed_and_follows_from_s_k_alone() -> None:
    rng = random.Random(38)
    fair = fair_for(rng, 3)
    match = BuraMatch(PROFILES["BURA_STANDARD"], 3, 38, fair=fair)
    play_random_match(match, rng, 600)
    export = match.fair_export(through=match.fair_deal)
    assert match.fair_deal >= 4
    for k in range(1, match.fair_deal - 1):
        shown = revealed_through(export, k)
        text = json.dumps(shown)
        for later in range(k + 1, match.fair_deal + 1):
            assert fair.seed(later) not in text
        # Everything shown is a function of s_k (and the public players' seeds): whatever preimage s_{k+1} of
        # s_k the server holds, these values are the same, and they give deal k + 1's order only through it.
        s_k = bytes.fromhex(shown["deals"][-1]["seed"])
        seeds = [s_k]
        while len(seeds) < k:
            seeds.append(hashlib.sha256(seeds[-1]).digest())
        seeds.reverse()
        for number, deal in enumerate(shown["deals"], 1):
            assert deal["seed"] == seeds[number - 1].hex()
            assert deal["commitment"] == hashlib.sha256(seeds[number - 1]).hexdigest()
            assert deal["deck"] == verify.deal_order(export["pack"], seeds[number - 1], fair.player_seeds, number)
        assert shown["next_commitment"] == s_k.hex()
        # Keyed by anything revealed, deal k + 1's stream does not give its order.
        actual = export["deals"][k]["deck"]
        for guess in (s_k, hashlib.sha256(s_k).digest(), bytes.fromhex(shown["next_commitment"])):
            assert verify.deal_order(export["pack"], guess, fair.player_seeds, k + 1) != actual


def test_a_new_segment_is_not_the_previous_one_continued() -> None:
    chain = SeedChain(bytes(32), 3)
    assert chain.starts_segment(4)
    assert chain.commitment(4) != chain.seed(3)
    assert hashlib.sha256(chain.commitment(4)).digest() != chain.commitment(3)


# -- the stream --------------------------------------------------------------------------------------------------


def test_the_orders_of_a_small_deck_are_uniform() -> None:
    """Chi-square over the 24 orders of 4 cards, 24,000 deals: df 23, the 0.1 % critical value is 49.73."""
    counts: Counter[tuple[int, ...]] = Counter()
    for n in range(24_000):
        cards = [0, 1, 2, 3]
        permute(cards, hashlib.sha256(n.to_bytes(4, "big")).digest(), ("a", "b"), 1 + n % 7)
        counts[tuple(cards)] += 1
    assert set(counts) == set(permutations(range(4)))
    chi2 = sum((count - 1000) ** 2 / 1000 for count in counts.values())
    assert chi2 < 49.73


def test_the_first_dealer_is_uniform() -> None:
    counts = Counter(
        draw_below(3, hashlib.sha256(bytes([n % 256, n // 256])).digest(), (), 1, DEALER_PURPOSE) for n in range(6000)
    )
    assert all(abs(counts[seat] - 2000) < 200 for seat in range(3))


@pytest.mark.parametrize("seed", range(40))
def test_the_engine_agrees_with_the_reimplementation_from_the_document(seed: int) -> None:
    rng = random.Random(seed)
    master = rng.randbytes(32)
    length = rng.choice([1, 3, 1000])
    chain = SeedChain(master, length)
    k = rng.randrange(1, 2 * length + 3)
    assert spec.chain_seed(master, k, length) == chain.seed(k)
    players = rng.randrange(2, 7)
    seeds = tuple("".join(rng.choice("aбв🂡 ") for _ in range(rng.randrange(12))) for _ in range(players))
    fair = FairShuffle(chain, seeds)
    assert spec.first_dealer(chain.seed(1), seeds) == fair.first_dealer(players)
    for pack in ("bura-36", "bura-32", "buraco-108"):
        cards = verify.canonical_deck(pack)
        assert cards == spec.pack(pack)
        ours = list(cards)
        fair.rng(k).shuffle(ours)
        assert ours == spec.order(pack, chain.seed(k), seeds, k)


def test_the_canonical_decks_are_the_games_own() -> None:
    from engine.bura.cards import deck as bura_deck
    from engine.buraco.cards import deck as buraco_deck

    assert [card.code for card in bura_deck(36)] == spec.pack("bura-36")
    assert [card.code for card in bura_deck(32)] == spec.pack("bura-32")
    assert [card.code for card in buraco_deck()] == spec.pack("buraco-108")


def test_a_fair_match_needs_a_seed_per_seat() -> None:
    fair = FairShuffle(SeedChain(bytes(32)), ("a", "b", "c"))
    with pytest.raises(ValueError):
        BuraMatch(PROFILES["BURA_STANDARD"], 2, 0, fair=fair)
    with pytest.raises(ValueError):
        BuracoMatch(0, fair=fair)


def test_a_fair_deal_draws_nothing_but_its_shuffle() -> None:
    rng = FairShuffle(SeedChain(bytes(32)), ("a", "b")).rng(1)
    with pytest.raises(TypeError):
        rng.random()
    with pytest.raises(TypeError):
        rng.randrange(5)


# -- persistence -------------------------------------------------------------------------------------------------

OLD = json.loads((Path(__file__).parent / "fair_old_matches.json").read_text(encoding="utf-8"))


def test_a_bura_match_stored_before_the_fair_shuffle_replays_identically() -> None:
    stored = OLD["bura"]
    assert "fair" not in stored["stored"]
    match = BuraMatch.from_json(stored["stored"])
    assert match.fair is None
    assert json.loads(json.dumps(match.snapshot())) == stored["snapshot"]
    assert match.to_json() == stored["stored"]


def test_a_buraco_match_stored_before_the_fair_shuffle_replays_identically() -> None:
    stored = OLD["buraco"]
    match = BuracoMatch.from_json(stored["stored"])
    assert match.fair is None
    assert json.loads(json.dumps(match.snapshot())) == stored["snapshot"]
    assert match.to_json() == stored["stored"]


def test_a_fair_match_persists_its_shuffle_and_replays_identically() -> None:
    rng = random.Random(7)
    fair = fair_for(rng, 4)
    match = BuraMatch(PROFILES["BURKOZEL"], 4, "unused", fair=fair)
    play_random_match(match, rng, 200)
    data = json.loads(json.dumps(match.to_json()))
    assert data["fair"] == {
        "version": 1,
        "master": fair.chain.master.hex(),
        "chain_length": 1000,
        "player_seeds": list(fair.player_seeds),
    }
    again = BuraMatch.from_json(data)
    assert again.fair == fair
    assert again.snapshot() == match.snapshot()
    buraco = BuracoMatch("unused", fair=fair)
    assert BuracoMatch.from_json(json.loads(json.dumps(buraco.to_json()))).snapshot() == buraco.snapshot()
    assert buraco.dealer == fair.first_dealer(4)
