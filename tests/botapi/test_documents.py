"""sendDocument in the fake Bot API, as strict as Telegram: the file uploaded as a part of a multipart form (or a
file_id it knows), the caption parsed and counted as Telegram does, the document kept so tests can read it."""

import json as jsonlib

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest, TelegramEntityTooLarge, TelegramForbiddenError, TelegramRetryAfter
from aiogram.types import BufferedInputFile, ReplyParameters

from tests.botapi.clock import FakeClock
from tests.botapi.methods import MAX_UPLOAD
from tests.botapi.params import MAX_CAPTION
from tests.botapi.server import FakeTelegram
from tests.botapi.spec import required_fields
from tests.botapi.state import Json, User

EXPORT = jsonlib.dumps({"format": "bura-bot/fair-export/v1", "deals": [{"number": 1}]}, ensure_ascii=False).encode()


def started(tg: FakeTelegram, name: str = "Alice") -> User:
    user = tg.user(name, name.lower())
    tg.start_bot(user)
    return user


def export_file(content: bytes = EXPORT, name: str = "bura-match-7.json") -> BufferedInputFile:
    return BufferedInputFile(content, filename=name)


async def post(
    tg: FakeTelegram, method: str, *, data: aiohttp.FormData | None = None, json: Json | None = None
) -> Json:
    """A raw request, as a bot that does not use aiogram would make it: a multipart form, or a JSON body."""
    url = f"{tg.base_url}/bot{tg.token}/{method}"
    async with aiohttp.ClientSession() as session, session.post(url, data=data, json=json) as response:
        reply: Json = await response.json()
        return reply


async def test_an_uploaded_document_is_kept_with_its_name_type_and_caption(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    caption = "🔐 Матч <b>7</b>: <code>python -m engine.verify bura-match-7.json</code>"
    sent = await bot.send_document(alice.id, export_file(), caption=caption, parse_mode="HTML")
    assert sent.document is not None
    assert (sent.document.file_name, sent.document.mime_type, sent.document.file_size) == (
        "bura-match-7.json",
        "application/json",
        len(EXPORT),
    )
    assert sent.caption == "🔐 Матч 7: python -m engine.verify bura-match-7.json"
    assert [entity.type for entity in sent.caption_entities or []] == ["bold", "code"]
    [request] = tg.calls("sendDocument")
    assert request.ok and request.result["document"]["file_id"] == sent.document.file_id
    shown = tg.last_message(tg.private_chat(alice), from_bot=True)
    assert shown is not None and shown.text is None
    assert tg.document(shown) == EXPORT
    assert jsonlib.loads(tg.document(shown))["deals"] == [{"number": 1}]
    missing = [name for name in required_fields("Document") if name not in request.result["document"]]
    assert missing == []
    # Sent again by its file_id: the same file, no upload.
    again = await bot.send_document(alice.id, sent.document.file_id)
    assert again.document is not None and again.document.file_unique_id == sent.document.file_unique_id
    text = await bot.send_message(alice.id, "not a file")
    with pytest.raises(ValueError, match="is no document"):
        tg.document(tg.private_chat(alice).messages[text.message_id])


async def test_a_file_part_named_by_its_own_field_is_taken_too(tg: FakeTelegram) -> None:
    alice = started(tg)
    form = aiohttp.FormData()
    form.add_field("chat_id", str(alice.id))
    form.add_field("caption", "матч")
    form.add_field("document", EXPORT, filename="match.json", content_type="application/json")
    reply = await post(tg, "sendDocument", data=form)
    assert reply["ok"], reply
    assert reply["result"]["document"]["file_name"] == "match.json"
    assert reply["result"]["caption"] == "матч"


async def test_a_document_is_required(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    form = aiohttp.FormData()
    form.add_field("chat_id", str(alice.id))
    form.add_field("caption", "без файла")
    reply = await post(tg, "sendDocument", data=form)
    assert reply == {"ok": False, "error_code": 400, "description": "Bad Request: there is no document in the request"}
    empty = await post(tg, "sendDocument", json={"chat_id": alice.id, "document": ""})
    assert empty["description"] == "Bad Request: there is no document in the request"
    with pytest.raises(TelegramBadRequest, match="file must be non-empty"):
        await bot.send_document(alice.id, export_file(b""))
    assert tg.messages(tg.private_chat(alice), from_bot=True) == []


async def test_a_json_body_cannot_carry_a_file_only_a_known_file_id(bot: Bot, tg: FakeTelegram) -> None:
    """A JSON body has no file parts: its document is a string, which must be a file_id Telegram gave out (or a
    URL it would fetch, which the fake does not)."""
    alice = started(tg)
    for document in (EXPORT.decode(), "https://example.org/match.json", "BQACAgIAAx000001-forged", {"a": 1}):
        reply = await post(tg, "sendDocument", json={"chat_id": alice.id, "document": document})
        assert reply["description"] == "Bad Request: wrong file identifier/HTTP URL specified", document
    sent = await bot.send_document(alice.id, export_file())
    assert sent.document is not None
    reply = await post(tg, "sendDocument", json={"chat_id": alice.id, "document": sent.document.file_id})
    assert reply["ok"] and reply["result"]["document"]["file_id"] == sent.document.file_id
    attached = aiohttp.FormData()
    attached.add_field("chat_id", str(alice.id))
    attached.add_field("document", "attach://nowhere")
    missing = await post(tg, "sendDocument", data=attached)
    assert missing["error_code"] == 400 and "attach://nowhere" in missing["description"]


async def test_the_caption_holds_1024_characters_after_parsing(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    fits = "<b>" + "я" * MAX_CAPTION + "</b>"  # the tags are not the caption's
    sent = await bot.send_document(alice.id, export_file(), caption=fits, parse_mode="HTML")
    assert sent.caption == "я" * MAX_CAPTION
    with pytest.raises(TelegramBadRequest, match="message caption is too long"):
        await bot.send_document(alice.id, export_file(), caption="я" * (MAX_CAPTION + 1))
    # An empty caption is no caption.
    bare = await bot.send_document(alice.id, export_file(), caption="")
    assert bare.caption is None


@pytest.mark.parametrize(
    ("caption", "reason"),
    [
        ("<b>матч", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<blink>7</blink>", 'Unsupported start tag "blink" at byte offset 0'),
        ("1 < 2", 'Unsupported start tag "" at byte offset 2'),
    ],
)
async def test_bad_html_in_a_caption_is_refused_as_in_a_text(
    bot: Bot, tg: FakeTelegram, caption: str, reason: str
) -> None:
    alice = started(tg)
    with pytest.raises(TelegramBadRequest) as refused:
        await bot.send_document(alice.id, export_file(), caption=caption, parse_mode="HTML")
    assert refused.value.message == f"Bad Request: can't parse entities: {reason}"
    assert tg.messages(tg.private_chat(alice), from_bot=True) == []


async def test_a_document_replies_in_its_topic_and_follows_the_chats_rules(bot: Bot, tg: FakeTelegram) -> None:
    alice, bob = tg.user("Alice", "alice"), tg.user("Bob", "bob")
    group = tg.group("Стол", owner=alice, members=[bob], supergroup=True)
    tg.add_bot(group, by=alice)
    command = tg.send_message(alice, group, "/verify export")
    sent = await bot.send_document(
        group.id,
        export_file(),
        reply_parameters=ReplyParameters(message_id=command.message_id),
        disable_notification=True,
    )
    shown = group.messages[sent.message_id]
    assert shown.reply_to is command and not shown.notified
    assert sent.reply_to_message is not None and sent.reply_to_message.message_id == command.message_id
    tg.start_bot(bob)
    tg.block_bot(bob)
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_document(bob.id, export_file())
    tg.restrict_bot(group, by=alice)
    with pytest.raises(TelegramBadRequest, match="not enough rights to send documents to the chat"):
        await bot.send_document(group.id, export_file())


async def test_a_document_counts_against_the_flood_limits_as_a_message(
    bot: Bot, tg: FakeTelegram, clock: FakeClock
) -> None:
    alice = started(tg)
    refused = 0
    for _ in range(10):
        try:
            await bot.send_document(alice.id, export_file())
        except TelegramRetryAfter:
            refused += 1
    assert refused, "a private chat takes about one message a second"
    messages = len(tg.messages(tg.private_chat(alice), from_bot=True))
    with pytest.raises(TelegramRetryAfter):
        await bot.send_message(alice.id, "and a text after them")
    clock.advance(60)
    await bot.send_message(alice.id, "a minute later")
    assert len(tg.messages(tg.private_chat(alice), from_bot=True)) == messages + 1


async def test_a_file_over_50_mb_is_too_large(bot: Bot, tg: FakeTelegram) -> None:
    alice = started(tg)
    with pytest.raises(TelegramEntityTooLarge):
        await bot.send_document(alice.id, export_file(b"0" * (MAX_UPLOAD + 1)))
    assert tg.messages(tg.private_chat(alice), from_bot=True) == []
