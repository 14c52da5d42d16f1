"""KOZEL_TVALADZE, RULES §13 (pagat "Kozel for points", partly verified): as BURKOZEL but the shokha on [B08];
combos (the PT set of [B02]) Москва = four of aces and tens with at least one real ace, 6♠ counting as a ten, and
молодка = four of one suit or three and 6♠, both only seizing the lead; no instant wins; a full tie costs two
each [B04]. Stacked decks, trump ♦; seat 0 is the rightful leader.
"""

from __future__ import annotations

import pytest

from engine.bura.actions import DeclareCombo, Lead
from engine.bura.cards import cards
from engine.bura.combos import Combo, Effect, combo_rules
from engine.bura.deal import Deal, Phase
from engine.bura.events import ComboShown, DealEnded, LeadSeized, SeizureFailed
from engine.bura.variant import BURKOZEL, KOZEL_TVALADZE, PROFILES, BuraCombo, FourAces, FullTie, Rules, Variant
from tests.engine.bura.stack import stacked_deal, stacked_match
from tests.engine.bura.test_edge_cases import TIE_40

PLAIN = "QS 7S QC 9C"  # no combo


def _deal(hands: dict[int, str], players: int = 2) -> Deal:
    deal, events = stacked_deal(KOZEL_TVALADZE, hands, "8D", players=players, dealer=players - 1)
    assert not any(isinstance(event, DealEnded) for event in events), "no combo wins at once (RULES §13)"
    return deal


def _declarable(deal: Deal, seat: int) -> list[Combo]:
    return [action.combo for action in deal.legal_actions(seat) if isinstance(action, DeclareCombo)]


def test_the_profile_is_burkozel_with_the_shokha_and_the_pt_combos() -> None:
    """RULES §13: every option as BURKOZEL but the shokha, the combos and the full tie."""
    assert PROFILES["KOZEL_TVALADZE"] is KOZEL_TVALADZE
    differs = {key: value for key, value in KOZEL_TVALADZE.model_dump().items() if value != BURKOZEL.model_dump()[key]}
    assert differs == {
        "name": "KOZEL_TVALADZE",
        "game": Rules.KOZEL_POINTS,
        "shokha": True,
        "bura": BuraCombo.OFF,
        "four_aces": FourAces.OFF,
        "tvaladze_combos": True,
        "full_tie": FullTie.TWO_EACH,
    }
    assert [(rule.combo, rule.effect) for rule in combo_rules(KOZEL_TVALADZE)] == [
        (Combo.MOSCOW, Effect.SEIZE_FREE),
        (Combo.MOLODKA, Effect.SEIZE_FREE),
    ]


@pytest.mark.parametrize("hand", ["AH TS TC 6S", "AH AS AC AD", "AH TS TC TD", "AC AS 6S TH"])
def test_moscow_seizes_the_lead_and_leaves_a_free_lead(hand: str) -> None:
    """RULES §13: four of aces and tens with a real ace, 6♠ as a ten; even four aces only seize the lead; the lead
    is free (any legal lead)."""
    deal = _deal({0: PLAIN, 1: hand})
    assert _declarable(deal, 1) == [Combo.MOSCOW]
    events = deal.apply(DeclareCombo(1, Combo.MOSCOW))
    assert events[-1] == LeadSeized(1, 0, Combo.MOSCOW)
    assert deal.leader == 1 and deal.forced_lead is None
    assert Lead(1, cards(hand)[:1]) in deal.legal_actions(1)


@pytest.mark.parametrize("hand", ["TH TS TC 6S", "TH TS TC TD", "AH TS TC 9D"])
def test_no_moscow_without_a_real_ace_or_with_another_card(hand: str) -> None:
    """RULES §13: tens and the shokha alone are no Москва; nor is a hand with a card other than an ace or ten."""
    assert _declarable(_deal({0: PLAIN, 1: hand}), 1) == []


@pytest.mark.parametrize("hand", ["7H 9H JH KH", "7H 9H JH 6S", "7D 9D JD KD", "6S 7D 9D JD"])
def test_molodka_is_four_of_a_suit_or_three_and_the_shokha_and_seizes_with_a_free_lead(hand: str) -> None:
    """RULES §13: four of one suit, or three and 6♠; with no bura in this game four trumps are a molodka too
    (engine decision: §9.2 keeps trumps out of a molodka only because they make a bura). A free lead."""
    deal = _deal({0: PLAIN, 1: hand})
    assert _declarable(deal, 1) == [Combo.MOLODKA]
    deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert deal.leader == 1 and deal.forced_lead is None
    assert len([action for action in deal.legal_actions(1) if isinstance(action, Lead)]) > 1


def test_no_instant_wins_four_trumps_or_four_aces_play_on() -> None:
    """RULES §13: no instant wins: four trumps held by R are his molodka, four aces by the other a Москва to
    declare; the deal goes on."""
    deal = _deal({0: "7D 9D JD KD", 1: "AH AS AC AD"})
    assert deal.phase is Phase.LEAD and not deal.over
    assert _declarable(deal, 1) == [Combo.MOSCOW]


def test_moscow_outranks_molodka() -> None:
    """RULES §13, §9.5: R's Москва answers a «Стоп!» with a molodka and keeps the lead."""
    deal = _deal({0: "AH TS TC 6S", 1: "7H 9H JH KH"})
    events = deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert isinstance(events[0], ComboShown) and events[-1] == SeizureFailed(1, Combo.MOLODKA, 0)
    assert deal.leader == 0


def test_a_later_moscow_seizes_the_lead_from_a_molodka() -> None:
    """RULES §13, §10 step 3: with three players, seat 1 seizes with a molodka, seat 2's Москва takes it over."""
    deal = _deal({0: PLAIN, 1: "7H 9H JH KH", 2: "AC TH TD 6S"}, players=3)
    deal.apply(DeclareCombo(1, Combo.MOLODKA))
    assert _declarable(deal, 2) == [Combo.MOSCOW]
    deal.apply(DeclareCombo(2, Combo.MOSCOW))
    assert deal.leader == 2


def test_a_full_tie_costs_two_each() -> None:
    """RULES §13 fullTie TWO_EACH ([B04] BK option): 40:40:40 with three players costs each 2, nothing doubled."""
    match = stacked_match(KOZEL_TVALADZE, deals=[TIE_40.spec((0, 1, 2))], players=3, dealer=2)
    TIE_40.play(match, (0, 1, 2))
    assert match.outcomes[0].points == (40, 40, 40)
    assert match.scores == [2, 2, 2]
    assert not match.doubled_next


def test_the_tvaladze_combos_need_four_card_hands_and_no_four_aces() -> None:
    with pytest.raises(ValueError, match="Tvaladze"):
        KOZEL_TVALADZE.with_options(four_aces=FourAces.INSTANT_WIN)
    with pytest.raises(ValueError, match="Tvaladze"):
        Variant(tvaladze_combos=True)
