"""Очко's adapter (bot/games/ochko): the lobby, the table, the hand and its buttons, taps, the timer, stats,
standings and replays, on stacked packs (tests/engine/ochko/stack.py) and random sessions."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from bot.games.base import HandStory, Move, Redraw, Refused, Tap, Waiting
from bot.games.ochko.buttons import Op
from bot.games.ochko.game import OCHKO, OchkoCounter
from bot.games.ochko.settings import options_for
from bot.games.ochko.table import places
from bot.i18n import Translations, Translator
from bot.render.keyboard import Keyboard, buttons
from bot.render.lobby import choice_name
from bot.services.settings_menu import game_terms
from bot.storage import Counter, Seat, Table, TableStatus
from bot.table_settings import ComputerLevel, TableSettings
from bot.telegram.callbacks import MAX_CALLBACK_BYTES, HandCb
from engine.ochko.actions import Action, Bet, Dark, Deal, Hit, Knock, Leave, StakeBank, Stand, action_from_json
from engine.ochko.errors import Reason
from engine.ochko.events import RoundStarted
from engine.ochko.match import Match, Phase
from engine.ochko.variant import OCHKO_STANDARD, BankerDraw, KnockRule
from tests.botapi.html import parse_html
from tests.engine.ochko.stack import pack, play, table

TRANSLATIONS = Translations()
RU, EN = TRANSLATIONS.get("ru"), TRANSLATIONS.get("en")
NAMES = {0: "Аня", 1: "Борис", 2: "Вика", 3: "Гена"}
TABLE_ID, MOVE = 2_000_000_000, 9_999_999
OCHKO_LOCALES = Path(__file__).resolve().parents[3] / "bot" / "games" / "ochko" / "locales"


def hand(match: Match, seat: int, tr: Translator = RU, selection: str = "") -> tuple[str, Keyboard]:
    return OCHKO.hand(
        match,
        seat,
        NAMES,
        tr,
        table_id=TABLE_ID,
        move=MOVE,
        title="Друзья",
        selection=selection,
        paused=False,
        confirm=False,
        story=HandStory(),
    )


def table_text(match: Match, tr: Translator = RU) -> str:
    settings = TableSettings(profile="ochko")
    return OCHKO.table_text(match, NAMES, tr, title="Друзья", settings=settings, deadline_text="0:45", ended=None)


def labels(markup: Keyboard) -> list[str]:
    return [str(each["text"]) for each in buttons(markup)]


def taps(match: Match, seat: int, markup: Keyboard) -> list[Tap[Action]]:
    """What each button of the hand means, tapped."""
    out = []
    for each in buttons(markup):
        data = HandCb.unpack(each["callback_data"])
        out.append(OCHKO.tap(match, seat, data.op, data.cards))
    return out


def assert_telegram(text: str, markup: Keyboard | None = None) -> None:
    plain, _ = parse_html(text)  # raises on an unknown tag, bad nesting or a stray '<'
    assert len(plain) <= 4096 and len(text) <= 4096
    if markup is not None:
        for row in markup["inline_keyboard"]:
            assert 1 <= len(row) <= 8
            for each in row:
                assert len(each["callback_data"].encode()) <= MAX_CALLBACK_BYTES


# -- the lobby -----------------------------------------------------------------------------------------------


def test_the_lobby_offers_three_profiles_and_says_chips_only() -> None:
    assert OCHKO.profiles == ("ochko", "oczko", "ochko1")
    for profile in OCHKO.profiles:
        settings = TableSettings(profile=profile)
        assert OCHKO.player_range(settings) == (2, 8) and OCHKO.seats(settings) is None
        assert "игра на фишки, без денег" in " · ".join(OCHKO.rules_parts(settings, RU))
        assert "for chips only, no money" in " · ".join(OCHKO.rules_parts(settings, EN))
        assert "без денег" in OCHKO.help_text(settings, RU) and "no money" in OCHKO.help_text(settings, EN)
        for own in OCHKO.own_settings(settings):
            assert own.choices[0] == own.default, own  # the ★ default first in the menu
    keys = [own.key for own in OCHKO.own_settings(TableSettings(profile="ochko"))]
    assert keys == ["stack", "draw", "aces", "dark", "knock", "banks"]


def test_the_settings_make_the_engines_options() -> None:
    assert options_for(TableSettings(profile="ochko"), 4) == OCHKO_STANDARD
    polish = options_for(TableSettings(profile="oczko"), 3)
    assert polish.banker_draw is BankerDraw.S3_15_17 and polish.five_pictures
    chosen = TableSettings(
        profile="ochko",
        options={"stack": "200", "draw": "house_17", "aces": "bust", "dark": "0", "knock": "any_round", "banks": "2"},
    )
    options = options_for(chosen, 3)
    assert (options.stack, options.banker_draw, options.dark, options.knock) == (
        200,
        BankerDraw.HOUSE_17,
        False,
        KnockRule.ANY_ROUND,
    )
    assert options.max_banks == 6  # two orbits of three seats
    assert options_for(TableSettings(profile="ochko", options={"banks": "0"}), 3).max_banks == 0
    assert options_for(TableSettings(profile="ochko", options={"stack": "7"}), 3).stack == 100  # not a choice
    line = OCHKO.rules_parts(TableSettings(profile="ochko", options={"knock": "any_round", "dark": "0"}), RU)[0]
    assert line == "Очко, по 100 фишек, банк от 10, один круг банков, без карты «в тёмную», «стук» перед любым коном"


# Money, and the places it is staked in (RULES §20.3: no real stakes suggested, no odds talk).
MONEY = re.compile(r"денег|деньг|рубл|₽|\$|€|£|валют|доллар|казино|money|cash|dollar|currenc|casino", re.IGNORECASE)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_no_text_of_the_game_speaks_of_money(language: str) -> None:
    """RULES §20.3: the bot never suggests real stakes; only «без денег» / "no money" may name it."""
    for path in (OCHKO_LOCALES / language).glob("*.ftl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("#"):
                continue
            text = re.sub(r"^[a-z][\w-]* =", "", line)  # the value, not the key
            said = re.sub(r"\$\w+", "", text).replace("без денег", "").replace("no money", "")  # not variables
            assert not MONEY.search(said), (path.name, line)


# -- the table and the hand, phase by phase --------------------------------------------------------------------


def knock_table() -> Match:
    """V17: both players bust every round; the bank reaches 10 × B₀ before round 4 and the banker is asked."""
    match = table(pack("TS TC 6D", "9S TH 9C TD"))
    play(match, "stake 10; bet 10; hit; bet 10; hit; bet 30; hit; bet 30; hit; bet 5; hit; bet 5; hit")
    return match


@pytest.mark.parametrize("tr", [RU, EN], ids=["ru", "en"])
def test_every_phase_renders_as_telegram_html(tr: Translator) -> None:
    """STAKE, BET, PLAY (a dark card), BANKER, KNOCK, a broken bank, OVER: the table, every hand and the
    announcements are Telegram HTML within its limits."""
    scenarios = [
        (table(pack("TS 8C 9C", "9D KC 8H 7S")), "stake 10; bet 5; dark; hit"),  # V7
        (table(pack("TS 9C 9D", "6H TH 9S 8S")), "stake 10; bet 1; hit; bet 11; stand; stand"),  # V16
        (knock_table(), "knock; bet 1; hit; bet 1; hit"),  # V17
    ]
    phases = set()
    for match, script in scenarios:
        for word in ["", *script.split(";")]:
            before = OCHKO.before(match)
            events = play(match, word) if word else list(match.start_events)
            phases.add(match.phase)
            assert_telegram(table_text(match, tr))
            for seat in range(match.players):
                assert_telegram(*hand(match, seat, tr))
            settings = TableSettings(profile="ochko")
            for text in OCHKO.announcements(match, events, NAMES, tr, settings=settings, before=before):
                assert_telegram(text)
            for line in OCHKO.deal_story(match, events, NAMES, tr, settings=settings, before=before):
                assert_telegram(line)
    assert {Phase.STAKE, Phase.BET, Phase.PLAY, Phase.BANKER, Phase.KNOCK} <= phases


def test_the_table_shows_the_bank_the_banker_and_every_seat() -> None:
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))  # V7
    play(match, "stake 10; bet 5; dark")
    text = table_text(match)
    assert "кон 1" in text and "банк 1 из 3" in text
    assert "Банкует Аня: в банке <b>10</b> (начальный 10)" in text
    assert "Карты банкующего: 9♣️ 8♥️ — 17" in text  # face up, with what they are worth
    assert "<b>Борис</b> — 100 фишек · ставка 5: 🂠 🂠 🂠 · ждёт банкующего" in text  # his cards as backs
    assert "10♠️" not in text and "9♦️" not in text and "К♣️" not in text and "8♣️" not in text  # hidden
    assert "Добирает банкующий — Аня; вскрытия ждёт Борис. ⏳ 0:45" in text
    play(match, "hit")
    text = table_text(match)
    assert "<b>Борис</b> — 105 фишек · ставка 5: 10♠️ 9♦️ К♣️ — 23" in text  # a settled hand is shown, dark card too


def test_the_hand_shows_his_cards_a_dark_one_as_a_back() -> None:
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))  # V7
    play(match, "stake 10; bet 5")
    text, markup = hand(match, 1)
    assert "Ваши карты: 10♠️ 9♦️ — 19" in text and "Ваши фишки: 100" in text
    assert "Карты банкующего: 9♣️ — 9" in text and "в банке <b>10</b>" in text
    assert labels(markup) == ["Ещё", "Хватит", "В тёмную", "🔄 Обновить"]
    play(match, "dark")
    text, markup = hand(match, 1)
    assert "Ваши карты: 10♠️ 9♦️ 🂠 — 19 и карта в тёмную" in text and "К♣️" not in text
    assert labels(markup) == ["🔄 Обновить"] and "Ходит Аня." in text
    banker_text, banker_keys = hand(match, 0)
    assert "Против вас — Борис: ставка 5, 3 карты, последняя — в тёмную. Берёте ещё?" in banker_text
    assert labels(banker_keys) == ["Ещё", "Хватит", "🔄 Обновить"]
    assert "10♠️" not in banker_text and "9♦️" not in banker_text


def bet_moves(match: Match, seat: int, selection: str = "") -> dict[str, int]:
    """The bet buttons' labels and the amounts they bet."""
    _, markup = hand(match, seat, selection=selection)
    moves = {}
    for each, tapped in zip(buttons(markup), taps(match, seat, markup), strict=True):
        if isinstance(tapped, Move) and isinstance(tapped.actions[0], Bet):
            moves[str(each["text"])] = tapped.actions[0].amount
    return moves


def test_the_bet_buttons_are_the_four_of_the_rules_and_a_stepper() -> None:
    match = knock_table()
    play(match, "deal")  # round 4, the bank 100
    assert match.bet_buttons() == (1, 33, 50, 55)  # seat 1 holds 55 chips
    assert bet_moves(match, 1) == {"Минимум 1": 1, "Треть 33": 33, "Половина 50": 50, "Все 55": 55, "✅ Ставка 1": 1}
    _, markup = hand(match, 1, selection="40")
    steps = [(str(b["text"]), t) for b, t in zip(buttons(markup), taps(match, 1, markup), strict=True)]
    redraws = {text: tapped.selection for text, tapped in steps if isinstance(tapped, Redraw) and tapped.selection}
    assert redraws == {"−10": "30", "−1": "39", "+1": "41", "+10": "50"}
    assert bet_moves(match, 1, "40")["✅ Ставка 40"] == 40
    assert bet_moves(match, 1, "999")["✅ Ставка 55"] == 55  # a forged selection is clamped to the range


def test_the_same_amount_is_offered_once() -> None:
    match = table(pack("TS 8C 9C"), stacks=[100, 100, 100])
    play(match, "stake 10")  # the bank 10: minimum 1, third 3, half 5, whole bank 10
    assert list(bet_moves(match, 1)) == ["Минимум 1", "Треть 3", "Половина 5", "Весь банк 10", "✅ Ставка 1"]
    small = table(pack("TS 8C 9C"), stacks=[100, 100, 2])
    play(small, "stake 10; bet 1; stand; stand")  # seat 2 holds 2 chips: 1, 2
    seat = small.to_act()
    assert seat == 2 and small.phase is Phase.BET
    assert list(bet_moves(small, 2)) == ["Минимум 1", "Треть 2", "✅ Ставка 1"]  # ⅓ of 11, clamped: all he has


def test_the_banker_stakes_and_knocks_by_buttons() -> None:
    match = table(pack("TS 8C 9C"))
    _, markup = hand(match, 0)
    stakes = [t.actions[0] for t in taps(match, 0, markup) if isinstance(t, Move)]
    assert stakes[:5] == [StakeBank(0, 10), StakeBank(0, 20), StakeBank(0, 50), StakeBank(0, 100), StakeBank(0, 10)]
    assert labels(markup)[:4] == ["В банк 10", "В банк 20", "В банк 50", "Все 100"]
    knocking = knock_table()
    text, markup = hand(knocking, 0)
    assert "«Стук»" in text and labels(markup) == ["🔔 Стук", "Сдавать", "🔄 Обновить"]
    assert [t.actions for t in taps(knocking, 0, markup) if isinstance(t, Move)] == [(Knock(0),), (Deal(0),)]


def test_the_banker_draw_rule_decides_his_buttons() -> None:
    """V14 under S3_15_17: at 15 he must hit, at 17 he must stand."""
    match = table(pack("TS 8C 9C", "9D 6H JS"), options=OCHKO_STANDARD.with_options(banker_draw=BankerDraw.S3_15_17))
    play(match, "stake 10; bet 5; stand")
    _, markup = hand(match, 0)
    assert labels(markup) == ["Ещё", "🔄 Обновить"]
    assert OCHKO.tap(match, 0, Op.STAND, "") == Refused(Reason.BANKER_MUST_HIT)
    play(match, "hit")
    _, markup = hand(match, 0)
    assert labels(markup) == ["Хватит", "🔄 Обновить"]


def test_a_seat_not_to_act_gets_no_action_button() -> None:
    match = table(pack("TS 8C 9C"))
    play(match, "stake 10")
    for seat in (0, 2):
        text, markup = hand(match, seat)
        assert labels(markup) == ["🔄 Обновить"] and "Ходит Борис." in text
        assert "в банке <b>10</b>" in text and "Карты банкующего" not in text  # the bank, not each draw


# -- taps ------------------------------------------------------------------------------------------------------


def test_taps_map_to_moves_and_forged_amounts_to_the_engines_refusal() -> None:
    match = table(pack("TS 8C 9C"))
    assert OCHKO.tap(match, 0, Op.STAKE, "10") == Move((StakeBank(0, 10),))
    assert OCHKO.tap(match, 0, Op.STAKE, "5") == Refused(Reason.STAKE_BELOW_MINIMUM)
    assert OCHKO.tap(match, 0, Op.STAKE, "101") == Refused(Reason.STAKE_ABOVE_CHIPS)
    assert OCHKO.tap(match, 1, Op.STAKE, "10") == Refused(Reason.NOT_YOUR_TURN)
    play(match, "stake 10")
    assert OCHKO.tap(match, 1, Op.BET, "7") == Move((Bet(1, 7),))
    assert OCHKO.tap(match, 1, Op.BET, "11") == Refused(Reason.BET_ABOVE_BANK)
    assert OCHKO.tap(match, 1, Op.BET, "0") == Refused(Reason.BET_BELOW_MINIMUM)
    assert OCHKO.tap(match, 1, Op.HIT, "") == Refused(Reason.WRONG_PHASE)
    assert OCHKO.tap(match, 1, Op.STEP, "7") == Redraw(selection="7")
    assert OCHKO.tap(match, 1, Op.REFRESH, "") == Redraw(resend=True)
    play(match, "bet 5")
    assert OCHKO.tap(match, 1, Op.DARK, "") == Move((Dark(1),))
    for op, payload in [("b", ""), ("b", "-1"), ("b", "07"), ("b", "5~"), ("h", "1"), ("z", ""), ("bb", "1")]:
        with pytest.raises(ValueError):
            OCHKO.tap(match, 1, op, payload)


def test_a_table_without_the_dark_card_refuses_it() -> None:
    match = table(pack("TS 8C 9C"), options=OCHKO_STANDARD.with_options(dark=False))
    play(match, "stake 10; bet 5")
    text, markup = hand(match, 1)
    assert "В тёмную" not in labels(markup) and "тёмную" not in text and "«Ещё» или «Хватит»?" in text
    assert OCHKO.tap(match, 1, Op.DARK, "") == Refused(Reason.DARK_NOT_PLAYED)


# -- announcements -----------------------------------------------------------------------------------------------


def told(match: Match, script: str, tr: Translator = RU) -> list[str]:
    before = OCHKO.before(match)
    events = play(match, script)
    return OCHKO.announcements(match, events, NAMES, tr, settings=TableSettings(profile="ochko"), before=before)


def test_a_settlement_is_one_message_with_the_hands_the_amount_and_the_bank() -> None:
    match = table(pack("TS 8C 9C", "9D KC 8H 7S"))  # V7
    play(match, "stake 10; bet 5; dark")
    (text,) = told(match, "hit")
    assert text.split("\n") == [
        "✅ Борис выигрывает 5: 10♠️ 9♦️ К♣️ — 23 (последняя — в тёмную) — банкующий перебрал",
        "   у банкующего (Аня): 9♣️ 8♥️ 7♠️ — 24",
        "   в банке 5 · Борис: 105 фишек",
    ]


def test_the_knock_the_broken_bank_and_the_end_are_told() -> None:
    match = knock_table()
    (knock,) = told(match, "knock")
    assert knock == "🔔 Аня: «Стук!» Этот кон последний."
    play(match, "bet 1; hit")
    (closed,) = told(match, "bet 1; hit")
    assert "🏦 Банк закрыт после стука: Аня забирает 102." in closed
    assert "Банк переходит дальше: теперь банкует Борис." in closed
    broken = table(pack("TS 9C 9D", "6H TH 9S 8S"))  # V16
    play(broken, "stake 10; bet 1; hit; bet 11; stand")
    (text,) = told(broken, "stand")
    assert "💥 Вика срывает банк" in text
    ended = table(pack("TS 9C", "9D 8H"), players=2)  # V27
    play(ended, "stake 10; bet 10; stand; stand; stake 30; bet 30; stand")
    (last,) = told(ended, "stand")
    assert last.endswith("🏁 Игра окончена. Итог по фишкам:\n1. Аня — 120 · 2. Борис — 80")
    assert OCHKO.standing(ended) is not None


def test_quiet_news_does_not_ring() -> None:
    match = table(pack("TS 8C 9C"))
    play(match, "stake 10")
    (text,) = told(match, "leave 1")
    assert type(text).__name__ == "Quiet" and "Борис выходит из-за стола" in text


# -- the timer, computers ------------------------------------------------------------------------------------------


def test_the_timer_plays_what_the_rules_say() -> None:
    """RULES §20.14 item 13."""
    match = knock_table()
    assert OCHKO.auto_action(match, 0) == Deal(0)
    fresh = table(pack("TS 8C 9C", "9D 6H JS"))
    assert OCHKO.auto_action(fresh, 0) == StakeBank(0, 10)
    play(fresh, "stake 10")
    assert OCHKO.auto_action(fresh, 1) == Bet(1, 1)
    play(fresh, "bet 5")
    assert OCHKO.auto_action(fresh, 1) == Stand(1)
    play(fresh, "stand")  # the banker on 9 + 6 = 15: below 17, he hits
    assert OCHKO.auto_action(fresh, 0) == Hit(0)
    assert OCHKO.auto_action(fresh, 1) is None
    assert OCHKO.played_text([Bet(1, 5)], RU) == "поставил 5"
    assert OCHKO.played_text([Stand(1)], EN) == "stood"


def test_forfeit_takes_the_player_off_the_table_with_his_chips() -> None:
    match = table(pack("TS 8C 9C"))
    play(match, "stake 10; bet 5")
    events = OCHKO.forfeit(match, 1)
    assert events and not match.present[1] and match.actions[-1] == Leave(1)
    text, markup = hand(match, 1)
    assert "Вы вышли из-за стола; ваши фишки остаются в итогах." in text and labels(markup) == ["🔄 Обновить"]
    assert "<b>Борис</b> — 100 фишек · не за столом" in table_text(match)


def test_a_computer_decides_from_its_view() -> None:
    match = table(pack("TS 8C 9C"))
    for level in ComputerLevel:
        decision = OCHKO.decision(match, 0, level, "seed")
        assert decision.decide(*decision.args) == StakeBank(0, 10) and not decision.heavy


# -- stats, standings, history, replays, fairness --------------------------------------------------------------------


def test_standings_by_chips_share_a_place_on_a_tie() -> None:
    match = table(pack("TS 9C", "9D 8H"), players=2)
    play(match, "stake 10; bet 10; stand; stand; stake 30; bet 30; stand; stand")
    standing = OCHKO.standing(match)
    assert standing is not None and standing.sides == ((0,), (1,)) and standing.places == (1, 2)
    assert places([50, 120, 50, 10]) == [2, 1, 2, 4]
    assert OCHKO.summary_text(OCHKO.summary(match), NAMES, TableSettings(), RU) == "Фишки: 1. Аня — 120 · 2. Борис — 80"


def test_stats_count_duels_sessions_chips_and_broken_banks() -> None:
    match = table(pack("TS 9C", "9D 8H"), players=2)
    seats = [Seat(seat=0, user_id=10, name="Аня"), Seat(seat=1, user_id=11, name="Борис")]
    board = Table(
        table_id=1,
        chat_id=5,
        status=TableStatus.PLAYING,
        creator_id=10,
        settings={},
        state=None,
        version=1,
        created_at=0.0,
        updated_at=0.0,
        seats=tuple(seats),
    )
    events = play(match, "stake 10; bet 10; stand; stand; stake 30; bet 30; stand; stand")
    deltas = {delta.user_id: delta.counts for delta in OCHKO.stats(board, match, events)}
    assert deltas[11] == {
        Counter.DEALS_PLAYED.value: 1,
        Counter.DEALS_WON.value: 1,
        OchkoCounter.BROKEN.value: 1,
        Counter.MATCHES_PLAYED.value: 1,
        OchkoCounter.CHIPS.value: 10,
    }
    assert deltas[10][Counter.MATCHES_WON.value] == 1 and deltas[10][OchkoCounter.CHIPS.value] == 30
    for tr in (RU, EN):
        assert not tr.t("stats-chips_won", count=3).startswith("stats-")


def test_a_round_is_replayed_as_the_seat_saw_it() -> None:
    """A seeded session (a replay rebuilds the match from its seed and log, as the bot stores it): each round, once
    over, told to each seat dealt in: his own first card, every settlement as the group read it, and no card that
    was never shown (a card given back unplayed, another's card he never saw)."""
    settings = TableSettings(profile="ochko")
    match = OCHKO.new_match(settings, 3, "replay-1")
    told: dict[int, list[str]] = {}
    firsts: dict[tuple[int, int], str] = {}
    unseen: dict[int, set[str]] = {}
    while match.round_no < 4 and not match.finished:
        seat = match.to_act()
        assert seat is not None
        round_no, before, playing = match.round_no, OCHKO.before(match), match.in_round
        action = OCHKO.auto_action(match, seat)
        assert action is not None
        events = match.apply(action)
        if match.round_no != round_no and match.in_round:  # a round dealt: its first cards
            for dealt, cards in match.hands.items():
                firsts[(match.round_no, dealt)] = RU.t(f"card-rank-{cards[0].rank.value}")
            unseen[match.round_no] = {f"{card.rank.value}{card.suit.value}" for card in match.pack}
        for text in OCHKO.announcements(match, events, NAMES, RU, settings=settings, before=before):
            if playing:  # a settlement comes of a move in its round
                told.setdefault(round_no, []).append(text)
    assert OCHKO.replay(match, match.round_no + 1, 1, NAMES, RU) is None
    for round_no in range(1, 4):
        for seat in range(3):
            replayed = OCHKO.replay(match, round_no, seat, NAMES, RU)
            if replayed is None:
                assert (round_no, seat) not in firsts and seat != _banker_of(match, round_no)
                continue
            text = "\n".join(replayed)
            assert text.startswith(f"🎞 <b>Как это было: кон {round_no}</b>")
            assert_telegram(replayed[0])
            if (round_no, seat) in firsts:
                assert f"Ваша первая карта: {firsts[(round_no, seat)]}" in text
            for line in (line for said in told.get(round_no, []) for line in said.split("\n")):
                if line.startswith(("✅", "❌")):
                    assert line in text, (round_no, seat, line)


def _banker_of(match: Match, round_no: int) -> int:
    replayed = Match.from_json({**match.to_json(), "actions": []})
    for item in match.to_json()["actions"]:
        for event in replayed.apply(action_from_json(item)):
            if isinstance(event, RoundStarted) and event.number == round_no:
                return event.banker
    return -1


def test_a_round_is_a_deal_and_its_end_is_a_new_deal() -> None:
    """Between rounds the deal is the next round; a move that ends a round (and a bank) is a new deal."""
    match = table(pack("TS 9C 9D", "6H TH 9S 8S"))  # V16
    before = OCHKO.before(match)
    assert OCHKO.deal_number(match) == 1
    play(match, "stake 10")
    assert not OCHKO.new_deal(before, match) and OCHKO.deal_number(match) == 1
    assert OCHKO.waiting_for(match) == frozenset({(1, Waiting.MOVE)})
    play(match, "bet 1; hit; bet 11; stand")
    before = OCHKO.before(match)
    play(match, "stand")  # the bank broken: the round is over, the next banker to stake
    assert match.phase is Phase.STAKE and OCHKO.new_deal(before, match) and OCHKO.deal_number(match) == 2


@pytest.mark.parametrize("profile", ["ochko", "oczko", "ochko1"])
def test_the_hand_offers_exactly_the_legal_actions(profile: str) -> None:
    """Over random sessions: a hand's buttons play only legal actions, each legal «Ещё», «Хватит», «В тёмную»,
    «Стук», «Сдавать» has its button, and every legal amount is one stepper's redraw away («Ставка N»); a seat not
    to act has only 🔄."""
    rng = random.Random(profile)
    for number in range(3):
        match = OCHKO.new_match(TableSettings(profile=profile), 2 + number * 2, f"exact-{profile}-{number}")
        for _ in range(150):
            if match.finished:
                break
            for seat in range(match.players):
                legal = match.legal_actions(seat)
                _, markup = hand(match, seat)
                tapped = taps(match, seat, markup)
                moves = {each.actions[0] for each in tapped if isinstance(each, Move)}
                assert moves <= set(legal)
                simple = {action for action in legal if not isinstance(action, Bet | StakeBank)}
                assert simple <= moves, (seat, simple - moves)
                if not legal:
                    assert labels(markup) == ["🔄 Обновить"]
                    continue
                amounts = [action for action in legal if isinstance(action, Bet | StakeBank)]
                for action in rng.sample(amounts, min(3, len(amounts))):
                    assert action in bet_or_stake_moves(match, seat, str(action.amount))
            mover = match.to_act()
            assert mover is not None
            match.apply(rng.choice(match.legal_actions(mover)))


def bet_or_stake_moves(match: Match, seat: int, selection: str) -> set[Action]:
    _, markup = hand(match, seat, selection=selection)
    return {each.actions[0] for each in taps(match, seat, markup) if isinstance(each, Move)}


def test_the_away_setting_says_in_ochko_that_the_player_leaves_the_table() -> None:
    """A shared setting's value in the game's own words (``Translator.own``): in Очко a player away three times
    leaves the table (RULES §20.14 item 7), he loses no deal; the other games keep the shared text."""
    ru = Translations().get("ru")
    assert choice_name("takeover", "0", ru, "ochko") == "уходит из-за стола"
    assert choice_name("takeover", "0", ru, "bura") == "проигрывает сдачу"
    menu = game_terms(TableSettings(profile="ochko"), ru).menu
    assert {row.game for row in menu if row.key == "takeover"} == {"ochko"}
