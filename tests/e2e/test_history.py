"""History end to end (issue 38), in Russian and in English: two people play a one-deal match in a group through the
fake Bot API; under its result «🔎 Как это было» sends the deal, as each saw it, to his private chat (and is
refused to a member of the group who did not play); /history then lists the match with its winner, its score and
the rating changes; «Ещё матч» under it seats them again and the next match starts."""

from __future__ import annotations

import pytest

from bot.i18n import Translations
from bot.services.replays import replay_texts
from bot.services.state import seat_names
from tests.botapi import Chat, FakeTelegram, Message
from tests.botapi.html import parse_html, strip_text
from tests.e2e.conftest import Start
from tests.e2e.players import MOVE_WAIT
from tests.e2e.test_ratings import one_deal_played

TEXTS = {
    "ru": {
        "button": "🔎 Как это было",
        "header": "🎞 Как это было: сдача 1",
        "yours": "Ваши карты: ",
        "sent": "Отправил сдачу 1 в личный чат.",
        "not-yours": "«Как это было» — для тех, кто играл эту сдачу.",
        "title": "📜 <b>Последние матчи</b>",
        "first": "1. Бура",
        "rating": "📈 Рейтинг: ",
        "rematch": "🔁 Ещё матч",
        "started": "Все снова за столом — новый матч начался.",
    },
    "en": {
        "button": "🔎 How it went",
        "header": "🎞 How it went: deal 1",
        "yours": "Your cards: ",
        "sent": "Sent deal 1 to your private chat.",
        "not-yours": "«How it went» is for those who played this deal.",
        "title": "📜 Last matches",
        "first": "1. Bura",
        "rating": "📈 Rating: ",
        "rematch": "🔁 Another match",
        "started": "Everyone is back — the new match has begun.",
    },
}


async def sent_after(tg: FakeTelegram, chat: Chat, last: Message, count: int) -> list[str]:
    """The texts of the bot's messages in `chat` after `last`, once there are `count` of them."""

    def sent() -> list[str] | None:
        texts = [m.text or "" for m in tg.messages(chat, from_bot=True) if m.message_id > last.message_id]
        return texts if len(texts) >= count else None

    return await tg.wait_for(sent, MOVE_WAIT, f"{count} messages in chat {chat.id}")


@pytest.mark.parametrize("language", ["ru", "en"])
async def test_how_it_went_goes_to_each_player_in_private_and_history_lists_the_match(
    tg: FakeTelegram, start: Start, language: str
) -> None:
    texts = TEXTS[language]
    tr = Translations().get(language)
    players = await one_deal_played(tg, start, language, "History")
    match = await players.match()
    assert match.finished
    result = await players.group_says(texts["rating"], what="the match's result")
    labels = [button["text"] for row in result.keyboard for button in row]
    assert labels[0] == texts["button"], labels

    table = await players.table()
    assert table.state is not None
    for seat, user in players.by_seat.items():
        private = tg.private_chat(user)
        last = tg.messages(private, from_bot=True)[-1]
        query = tg.tap(user, result, texts["button"])
        answer = await tg.wait_answer(query, timeout=MOVE_WAIT)
        assert answer.text == texts["sent"] and not answer.show_alert
        expected = replay_texts(table.state, 1, seat, seat_names(table.seats), tr)
        assert expected
        got = await sent_after(tg, private, last, len(expected))
        assert got == [strip_text(*parse_html(text))[0] for text in expected]
        header, _deal, mine = got[0].split("\n")[:3]
        assert header == texts["header"] and mine.startswith(texts["yours"]), got[0]

    stranger = tg.user("Stranger" if language == "en" else "Гость", "guest", language_code=language)
    tg.join(stranger, players.group)
    refused = await tg.wait_answer(tg.tap(stranger, result, texts["button"]), timeout=MOVE_WAIT)
    assert refused.show_alert and refused.text == texts["not-yours"]

    history = await players.command(players.user(0), "/history", "📜")
    lines = history.splitlines()
    assert lines[0] == texts["title"].replace("<b>", "").replace("</b>", "")
    assert lines[2].startswith(texts["first"]), lines
    winner = players.user(match.seats_of(match.winners[0])[0])
    assert lines[3] == f"🏆 {winner.first_name}", lines
    assert lines[5].startswith(texts["rating"]), lines

    # «Ещё матч» stands under «Как это было»: the same two sit down again, and the match starts by itself.
    assert labels == [texts["button"], texts["rematch"]], labels
    first, second = players.user(0), players.user(1)
    answer = await tg.wait_answer(tg.tap(second, result, texts["rematch"]), timeout=MOVE_WAIT)
    assert not answer.show_alert, answer
    answer = await tg.wait_answer(tg.tap(first, result, texts["rematch"]), timeout=MOVE_WAIT)
    assert answer.text == texts["started"], answer
    again = await players.storage.get_open_table(players.group.id)
    assert again is not None and again.table_id != table.table_id
    assert {seat.user_id for seat in again.seats} == {first.id, second.id}
