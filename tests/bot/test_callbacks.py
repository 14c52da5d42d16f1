"""Callback data of the hand keyboard: the fast packer says exactly what aiogram's factory says."""

from aiogram.types import InlineKeyboardMarkup

from bot.games.bura.buttons import HandOp, pack_cards, unpack_cards
from bot.games.bura.hand import render_hand
from bot.i18n import Translations
from bot.render.keyboard import buttons
from bot.telegram.callbacks import HandCb, MyCardsCb
from engine.bura.cards import deck
from engine.bura.match import Match
from engine.bura.variant import BURKOZEL
from engine.bura.views import view


def test_the_fast_packer_matches_the_factory_and_round_trips() -> None:
    cards = deck(36)
    for op in HandOp:
        for chosen in ((), tuple(cards[:1]), tuple(cards[-6:])):
            packed = pack_cards(chosen)
            data = HandCb.data(2_000_000_000, 9_999_999, op, packed)
            assert data == HandCb(table=2_000_000_000, move=9_999_999, op=op, cards=packed).pack()
            back = HandCb.unpack(data)
            assert (back.table, back.move, back.op, unpack_cards(back.cards)) == (2_000_000_000, 9_999_999, op, chosen)
            assert len(data.encode()) <= 64


def test_the_my_cards_packer_matches_the_factory() -> None:
    for table in (1, 2_000_000_000):
        data = MyCardsCb.data(table)
        assert data == MyCardsCb(table=table).pack() and MyCardsCb.unpack(data).table == table


def test_a_rendered_hand_keyboard_is_a_valid_markup() -> None:
    match = Match(BURKOZEL, 4, "callbacks")
    seat = match.to_act()
    assert seat is not None
    _, markup = render_hand(view(match, seat), {}, Translations().get("ru"), table_id=7, move=3, title="T")
    # aiogram's model of the Bot API reads it back unchanged: plain JSON, nothing missing, nothing extra.
    assert InlineKeyboardMarkup.model_validate(markup).model_dump(mode="json", exclude_none=True) == markup
    every = buttons(markup)
    assert every and all(set(button) == {"text", "callback_data"} for button in every)
    assert all(HandCb.unpack(button["callback_data"]).move == 3 for button in every)
