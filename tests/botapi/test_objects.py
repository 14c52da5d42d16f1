"""Every object the fake hands out carries the fields the Bot API spec marks required for its type."""

from tests.botapi.clock import FakeClock
from tests.botapi.server import FakeTelegram
from tests.botapi.spec import method_names, required_fields
from tests.botapi.state import Json, Status, chat_member

MEMBER_TYPES = {
    Status.CREATOR: "ChatMemberOwner",
    Status.ADMINISTRATOR: "ChatMemberAdministrator",
    Status.MEMBER: "ChatMemberMember",
    Status.LEFT: "ChatMemberLeft",
    Status.KICKED: "ChatMemberBanned",
}


def missing(obj: Json, type_name: str) -> list[str]:
    return [name for name in required_fields(type_name) if name not in obj]


def test_users_chats_and_members_are_complete() -> None:
    tg = FakeTelegram(clock=FakeClock())
    alice = tg.user("Alice")
    group = tg.group("Стол", owner=alice, supergroup=True)
    for chat in (group, tg.private_chat(alice)):
        assert missing(chat.to_api(), "Chat") == []
        assert missing(chat.full_info(), "ChatFullInfo") == []
    assert missing(alice.to_api(), "User") == []
    for status, type_name in MEMBER_TYPES.items():
        assert missing(chat_member(alice, status), type_name) == []


async def test_updates_are_complete() -> None:
    tg = FakeTelegram(clock=FakeClock())
    alice = tg.user("Alice")
    group = tg.group("Стол", owner=alice)
    tg.add_bot(group, by=alice)
    tg.send_message(alice, group, "/play")
    keyboard = {"inline_keyboard": [[{"text": "Я", "callback_data": "me"}]]}
    sent = await tg.api.send_message({"chat_id": group.id, "text": "Кто?", "reply_markup": keyboard})
    assert missing(sent, "Message") == []
    tg.tap(alice, group.messages[sent["message_id"]], text="Я")
    updates = [update.to_api() for update in tg.world.updates]
    kinds = [next(key for key in update if key != "update_id") for update in updates]
    assert kinds == ["my_chat_member", "message", "message", "callback_query"]
    for update, kind in zip(updates, kinds, strict=True):
        assert missing(update, "Update") == []
        payload = update[kind]
        type_name = {"my_chat_member": "ChatMemberUpdated", "callback_query": "CallbackQuery"}.get(kind, "Message")
        assert missing(payload, type_name) == []
    assert missing(updates[2]["message"]["entities"][0], "MessageEntity") == []


def test_every_served_method_is_in_the_spec_slice() -> None:
    # Parameters are typed by the spec, so a handler without its spec entry could not read its request.
    assert set(FakeTelegram().api.handlers) == set(method_names())
