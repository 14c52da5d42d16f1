"""The test API of the fake Telegram: act as people in groups and private chats, and see what they see.

Every action here is what a Telegram client would do, and it reaches the bot as the update Telegram would
send: a message with `bot_command` entities, a callback_query for a tap, a my_chat_member when the bot is
added, removed or blocked. Actions are plain calls; waiting for the bot is `await` (`wait_for`,
`wait_bot_message`, `wait_answer`) and returns as soon as the bot has done it.

Misuse of the test API (tapping a button that is not there, writing to a group one is not in) raises
`ValueError` at once: it is a mistake in the test, not something Telegram would answer.

What a chat shows (`messages`, `last_message`, `wait_bot_message`) is what every member sees; an ephemeral
message is seen by its receiver alone, so it is only in `ephemeral_messages(chat, user)` and its kin.
"""

import asyncio
import dataclasses
import re
from collections.abc import Callable, Iterable
from typing import ClassVar, TypeVar

from tests.botapi.clock import Clock
from tests.botapi.html import Entity, utf16_len
from tests.botapi.state import (
    CallbackAnswer,
    CallbackQuery,
    Chat,
    ChatType,
    Json,
    Message,
    Request,
    Status,
    User,
    World,
    member_update,
)

T = TypeVar("T")

# A command is a slash and up to 32 letters, digits or underscores, optionally addressed to a bot by @name.
_COMMAND = re.compile(r"(?<![\w/])/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w/])")
_MENTION = re.compile(r"(?<![\w@])@[A-Za-z0-9_]{4,32}(?!\w)")
MAX_USER_TEXT = 4096


def text_entities(text: str) -> list[Entity]:
    """The entities a Telegram client attaches to typed text: commands and @mentions."""
    found: list[Entity] = []
    for kind, pattern in (("bot_command", _COMMAND), ("mention", _MENTION)):
        for match in pattern.finditer(text):
            offset = utf16_len(text[: match.start()])
            found.append({"type": kind, "offset": offset, "length": utf16_len(match.group())})
    return sorted(found, key=lambda entity: entity["offset"])


class People:
    """Users, groups and what they do; the base of `FakeTelegram`."""

    def __init__(self, world: World, clock: Clock) -> None:
        self.world = world
        self.clock = clock

    @property
    def bot(self) -> User:
        return self.world.bot

    def _now(self) -> int:
        return int(self.clock.now())

    # --- people and chats -----------------------------------------------------------------------------

    def user(
        self,
        first_name: str,
        username: str | None = None,
        language_code: str | None = "ru",
        last_name: str | None = None,
    ) -> User:
        """A new Telegram user the bot has not heard of yet."""
        user = User(self.world.new_user_id(), first_name, username, language_code, last_name)
        self.world.users[user.id] = user
        return user

    def group(
        self,
        title: str,
        owner: User,
        members: Iterable[User] = (),
        admins: Iterable[User] = (),
        supergroup: bool = False,
        username: str | None = None,
    ) -> Chat:
        """A group (or supergroup) that `owner` created with these people in it; the bot is not there yet."""
        kind = ChatType.SUPERGROUP if supergroup else ChatType.GROUP
        chat = Chat(self.world.new_group_id(supergroup), kind, title=title, username=username)
        chat.members[owner.id] = Status.CREATOR
        for member in members:
            chat.members.setdefault(member.id, Status.MEMBER)
        for admin in admins:
            if chat.members.get(admin.id) is not Status.CREATOR:
                chat.members[admin.id] = Status.ADMINISTRATOR
        self.world.chats[chat.id] = chat
        return chat

    def forum(self, title: str, owner: User, members: Iterable[User] = (), admins: Iterable[User] = ()) -> Chat:
        """A supergroup with topics; create them with `topic`."""
        chat = self.group(title, owner, members, admins, supergroup=True)
        chat.is_forum = True
        return chat

    def topic(self, chat: Chat, name: str, by: User | None = None) -> int:
        """`by` creates a forum topic; returns its thread id (the id of the service message that opens it)."""
        if not chat.is_forum:
            raise ValueError("only a forum supergroup has topics")
        actor = by or self._creator(chat)
        opened = self._service(chat, actor, {"forum_topic_created": {"name": name, "icon_color": 7322096}})
        chat.topics[opened.message_id] = name
        opened.thread_id = opened.message_id
        return opened.message_id

    def private_chat(self, user: User) -> Chat:
        """The bot's private chat with `user` (its id is the user's id)."""
        return self.world.private_chat(user)

    def chat(self, chat_id: int) -> Chat:
        """The chat with this id, following a migration to the supergroup it became."""
        chat = self.world.chats[chat_id]
        while chat.migrated_to is not None:
            chat = self.world.chats[chat.migrated_to]
        return chat

    def add_bot(self, chat: Chat, by: User | None = None, admin: bool = False) -> None:
        """`by` (the creator by default) adds the bot to a group, or promotes it there with admin=True.

        The bot gets my_chat_member and, when it was not in the group before, the new_chat_members message.
        """
        by = by or self._creator(chat)
        self._require_member(by, chat)
        old = chat.status(self.bot.id)
        new = Status.ADMINISTRATOR if admin else Status.MEMBER
        chat.members[self.bot.id] = new
        self.world.push("my_chat_member", member_update(chat, by, self.bot, old, new, self._now()))
        if not old.is_member:
            self._service(chat, by, {"new_chat_members": [self.bot.to_api()]})

    def remove_bot(self, chat: Chat, by: User | None = None) -> None:
        """An admin removes the bot: it gets my_chat_member (kicked) and loses the chat."""
        actor = by or self._creator(chat)
        old = chat.status(self.bot.id)
        if not old.is_member:
            raise ValueError("the bot is not in this chat")
        chat.members[self.bot.id] = Status.KICKED
        self.world.push("my_chat_member", member_update(chat, actor, self.bot, old, Status.KICKED, self._now()))

    def restrict_bot(self, chat: Chat, by: User | None = None, *, tell: bool = True) -> None:
        """An admin takes the bot's right to send messages: it stays in the group, and gets my_chat_member (unless
        `tell` is False: a change the bot hears nothing of, as when the group's own permissions change); its
        messages are refused with a 400 until `unrestrict_bot`."""
        actor = by or self._creator(chat)
        old = chat.status(self.bot.id)
        if old not in (Status.MEMBER, Status.ADMINISTRATOR):
            raise ValueError("only a member or an admin bot can be restricted")
        chat.members[self.bot.id] = Status.RESTRICTED
        if tell:
            update = member_update(chat, actor, self.bot, old, Status.RESTRICTED, self._now())
            self.world.push("my_chat_member", update)

    def unrestrict_bot(self, chat: Chat, by: User | None = None, *, tell: bool = True) -> None:
        """An admin gives the bot its rights back (it is a plain member again)."""
        actor = by or self._creator(chat)
        if chat.status(self.bot.id) is not Status.RESTRICTED:
            raise ValueError("the bot is not restricted in this chat")
        chat.members[self.bot.id] = Status.MEMBER
        if tell:
            update = member_update(chat, actor, self.bot, Status.RESTRICTED, Status.MEMBER, self._now())
            self.world.push("my_chat_member", update)

    def join(self, user: User, chat: Chat) -> Message:
        """`user` joins a group; the bot sees the new_chat_members service message."""
        old = chat.status(user.id)
        if old.is_member:
            raise ValueError(f"{user.first_name} is already in {chat.title}")
        chat.members[user.id] = Status.MEMBER
        self._chat_member_update(chat, user, old, Status.MEMBER)
        return self._service(chat, user, {"new_chat_members": [user.to_api()]})

    def leave(self, user: User, chat: Chat) -> Message:
        """`user` leaves a group; the bot sees the left_chat_member service message."""
        old = chat.status(user.id)
        self._require_member(user, chat)
        chat.members[user.id] = Status.LEFT
        self._chat_member_update(chat, user, old, Status.LEFT)
        return self._service(chat, user, {"left_chat_member": user.to_api()})

    def migrate_to_supergroup(self, chat: Chat, by: User | None = None) -> Chat:
        """The group becomes a supergroup with a new id; the old id answers with migrate_to_chat_id."""
        if chat.type is not ChatType.GROUP or chat.migrated_to is not None:
            raise ValueError("only a basic group that has not migrated yet can migrate")
        actor = by or self._creator(chat)
        new = Chat(self.world.new_group_id(supergroup=True), ChatType.SUPERGROUP, title=chat.title)
        new.members, new.pinned = dict(chat.members), list(chat.pinned)
        self._service(chat, actor, {"migrate_to_chat_id": new.id})
        chat.migrated_to = new.id
        for message_id, message in chat.messages.items():
            # History moves to the supergroup under the same message ids.
            new.messages[message_id] = dataclasses.replace(message, chat=new, reply_to=None)
        new.last_message_id = chat.last_message_id
        self.world.chats[new.id] = new
        self._service(new, actor, {"migrate_from_chat_id": chat.id})
        return new

    # --- private chats --------------------------------------------------------------------------------

    def start_bot(self, user: User, payload: str | None = None) -> Message:
        """`user` presses Start (through a t.me/<bot>?start=<payload> link when a payload is given)."""
        if user.id in self.world.blocked:
            self.unblock_bot(user)
        self.world.started.add(user.id)
        text = "/start" if payload is None else f"/start {payload}"
        return self.send_message(user, self.private_chat(user), text)

    def block_bot(self, user: User) -> None:
        """`user` blocks the bot: my_chat_member (kicked) and 403 on every later message to them."""
        if user.id in self.world.blocked:
            raise ValueError(f"{user.first_name} has already blocked the bot")
        chat = self.private_chat(user)
        self.world.blocked.add(user.id)
        update = member_update(chat, user, self.bot, Status.MEMBER, Status.KICKED, self._now())
        self.world.push("my_chat_member", update)

    def unblock_bot(self, user: User) -> None:
        if user.id not in self.world.blocked:
            raise ValueError(f"{user.first_name} has not blocked the bot")
        chat = self.private_chat(user)
        self.world.blocked.discard(user.id)
        update = member_update(chat, user, self.bot, Status.KICKED, Status.MEMBER, self._now())
        self.world.push("my_chat_member", update)

    # --- messages and taps ----------------------------------------------------------------------------

    def send_message(
        self, user: User, chat: Chat, text: str, reply_to: Message | None = None, topic: int | None = None
    ) -> Message:
        """`user` types `text` into `chat` (into a forum topic, by its thread id); the bot gets it if Telegram
        would deliver it."""
        if not 1 <= len(text.strip()) <= MAX_USER_TEXT:
            raise ValueError("a message holds 1-4096 characters")
        if chat.type is ChatType.PRIVATE:
            if chat.peer != user:
                raise ValueError(f"this is not {user.first_name}'s private chat with the bot")
            if user.id in self.world.blocked:
                raise ValueError(f"{user.first_name} blocked the bot; start_bot unblocks")
            # Any message opens the conversation: the bot may answer from now on.
            self.world.started.add(user.id)
        else:
            self._require_member(user, chat)
        if chat.migrated_to is not None:
            raise ValueError("this group has migrated; use tg.chat(old_id) to find the supergroup")
        if topic is not None and topic not in chat.topics:
            raise ValueError(f"{chat.title} has no topic {topic}")
        message = Message(chat, chat.next_message_id(), user, self._now(), text, text_entities(text))
        message.reply_to = reply_to
        message.thread_id = topic if topic is not None else (reply_to.thread_id if reply_to is not None else None)
        chat.messages[message.message_id] = message
        if self._bot_sees(chat, message):
            self.world.push("message", message.to_api())
        return message

    # Telegram's stand-ins for a message sent on behalf of a chat, as the Bot API shows them in `from`.
    STAND_INS: ClassVar[dict[str, tuple[int, str, str, bool]]] = {
        "channel": (136817688, "Channel", "Channel_Bot", True),  # a channel's post in a group
        "anonymous": (1087968824, "Group", "GroupAnonymousBot", True),  # an anonymous admin
        "forward": (777000, "Telegram", "", False),  # a linked channel's post forwarded into its group
    }

    def post_as(self, kind: str, chat: Chat, text: str, channel_id: int = -1001234567890) -> Message:
        """A message in the group `chat` sent on behalf of a chat, as Telegram delivers it: ``"channel"`` (a post
        made as the channel `channel_id`), ``"anonymous"`` (an anonymous admin: the group itself is the sender)
        or ``"forward"`` (a linked channel's post, forwarded automatically)."""
        if chat.type is ChatType.PRIVATE:
            raise ValueError("only groups have messages sent on behalf of a chat")
        user_id, first_name, username, is_bot = self.STAND_INS[kind]
        sender = self.world.users.get(user_id)
        if sender is None:
            sender = User(user_id, first_name, username or None, None, None, is_bot=is_bot)
            self.world.users[user_id] = sender
        channel = {"id": channel_id, "type": "channel", "title": "Канал"}
        message = Message(chat, chat.next_message_id(), sender, self._now(), text, text_entities(text))
        message.sender_chat = chat.to_api() if kind == "anonymous" else channel
        message.automatic_forward = kind == "forward"
        chat.messages[message.message_id] = message
        if self._bot_sees(chat, message):
            self.world.push("message", message.to_api())
        return message

    def _bot_sees(self, chat: Chat, message: Message) -> bool:
        if chat.type is ChatType.PRIVATE:
            return True
        status = chat.status(self.bot.id)
        if not status.is_member:
            return False
        if not self.world.privacy_mode or status.is_admin or message.service:
            return True
        if message.reply_to is not None and message.reply_to.from_bot:
            return True
        text = message.text or ""
        if not text.startswith("/") or not message.entities or message.entities[0]["offset"] != 0:
            return False
        command = text[: message.entities[0]["length"]]
        _, _, addressee = command.partition("@")
        return not addressee or addressee.lower() == (self.bot.username or "").lower()

    def tap(
        self,
        user: User,
        message: Message,
        text: str | None = None,
        row: int | None = None,
        col: int | None = None,
    ) -> CallbackQuery:
        """`user` taps a callback button, found by its label or by row and column (from 0)."""
        button = self._button(message, text, row, col)
        if "callback_data" not in button:
            raise ValueError(f"button {button['text']!r} is not a callback button")
        return self.tap_data(user, message, button["callback_data"])

    def tap_data(self, user: User, message: Message, data: str) -> CallbackQuery:
        """A tap carrying any callback data: a stale keyboard still on a lagging phone, or a forged one.

        The update shows `message` as it is now, which may no longer have that button; a deleted
        message arrives as an InaccessibleMessage, as Telegram sends it.
        """
        chat = message.chat
        if message.receiver is not None:
            # Nobody else sees an ephemeral message, and once it is gone its receiver does not either.
            if message.receiver.id != user.id:
                raise ValueError(f"only {message.receiver.first_name} sees this ephemeral message")
            if message.gone:
                raise ValueError("the ephemeral message is gone; there is nothing to tap")
        if chat.type is ChatType.PRIVATE and chat.peer != user:
            raise ValueError(f"{user.first_name} cannot see another person's private chat")
        if chat.is_group and chat.username is None:
            # A public supergroup (one with a username) can be read, and its buttons tapped, without joining it.
            self._require_member(user, chat)
        query = CallbackQuery(self.world.new_query_id(), user, message, data, self.clock.now())
        self.world.queries[query.id] = query
        payload: Json = {
            "id": query.id,
            "from": user.to_api(),
            "message": message.inaccessible() if message.deleted else message.to_api(),
            "chat_instance": str(abs(chat.id) * 7919 % 10**18),
            "data": query.data,
        }
        self.world.push("callback_query", payload)
        return query

    @staticmethod
    def _button(message: Message, text: str | None, row: int | None, col: int | None) -> Json:
        if message.gone:
            raise ValueError("the message is gone; there is nothing to tap")
        if text is not None:
            for line in message.keyboard:
                for button in line:
                    if button["text"] == text:
                        return button
            raise ValueError(f"no button {text!r}; the keyboard is {message.button_texts}")
        if row is None or col is None:
            raise ValueError("say which button: text=... or row=... and col=...")
        try:
            return message.keyboard[row][col]
        except IndexError:
            raise ValueError(f"no button at {row}, {col}; the keyboard is {message.button_texts}") from None

    @staticmethod
    def answer(query: CallbackQuery) -> CallbackAnswer | None:
        """How the bot answered the tap, or None while it has not."""
        return query.answer

    # --- what the chats show --------------------------------------------------------------------------

    def messages(self, chat: Chat, from_bot: bool | None = None, topic: int | bool | None = False) -> list[Message]:
        """The chat as it looks now: every message not deleted, as last edited, oldest first; with `topic`, only
        those in that forum topic (None: General)."""
        shown = [message for message in chat.messages.values() if not message.deleted]
        if topic is not False:
            shown = [message for message in shown if message.thread_id == topic]
        if from_bot is not None:
            shown = [message for message in shown if message.from_bot == from_bot]
        return shown

    def last_message(self, chat: Chat, from_bot: bool | None = None) -> Message | None:
        shown = self.messages(chat, from_bot)
        return shown[-1] if shown else None

    def document(self, message: Message) -> bytes:
        """The bytes of the file a document message carries, as the bot uploaded them."""
        if message.document is None:
            raise ValueError(f"message {message.message_id} in chat {message.chat.id} is no document")
        return self.world.files[message.document.file_id].content

    def ephemeral_messages(self, chat: Chat, user: User) -> list[Message]:
        """The ephemeral messages `user` alone sees in `chat`, oldest first, as last edited; deleted or expired
        ones are not shown."""
        return [m for m in chat.ephemerals if m.receiver is not None and m.receiver.id == user.id and not m.gone]

    def last_ephemeral(self, chat: Chat, user: User) -> Message | None:
        shown = self.ephemeral_messages(chat, user)
        return shown[-1] if shown else None

    def expire_ephemeral(self, chat: Chat, user: User, ephemeral_message_id: int) -> Message:
        """Telegram drops `user`'s ephemeral message (it promises no delivery): the bot can no longer edit or
        delete it, and the chat may give its id to the next ephemeral message."""
        message = chat.ephemeral(ephemeral_message_id)
        if message is None or message.receiver is None or message.receiver.id != user.id:
            raise ValueError(f"{user.first_name} has no ephemeral message {ephemeral_message_id} in {chat.title}")
        message.expired = True
        self.world.touch(chat.id)
        return message

    @property
    def history(self) -> list[Request]:
        """Every request the bot made, in order, with its parameters and outcome."""
        return self.world.history

    def calls(self, method: str) -> list[Request]:
        return [request for request in self.world.history if request.method == method]

    # --- waiting for the bot --------------------------------------------------------------------------

    async def wait_for(
        self, condition: Callable[[], T | None], timeout: float = 5.0, what: str = "", on: int | str | None = None
    ) -> T:
        """The first truthy value of `condition()`, re-checked after every change; TimeoutError otherwise.

        `on`: re-checked only after a change in that chat (its id) or callback query ("query:<id>"), for a
        condition that reads nothing else (the load benchmark's thousands of waiters need it)."""
        loop_time = asyncio.get_running_loop().time
        signal = self.world.changed if on is None else self.world.signal(on)
        deadline = loop_time() + timeout
        while True:
            value = condition()
            if value:
                return value
            remaining = deadline - loop_time()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout}s for {what or condition!r}")
            await signal.wait(remaining)

    async def wait_bot_message(self, chat: Chat, after: Message | None = None, timeout: float = 5.0) -> Message:
        """The first message the bot sends to `chat` after `after` (or its first message at all)."""
        after_id = after.message_id if after is not None else 0

        def sent() -> Message | None:
            return next(
                (m for m in self.messages(chat, from_bot=True) if m.message_id > after_id),
                None,
            )

        return await self.wait_for(sent, timeout, f"a bot message in chat {chat.id}")

    async def wait_ephemeral(
        self,
        chat: Chat,
        user: User,
        predicate: Callable[[Message], bool] | None = None,
        after: Message | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """The first live ephemeral message for `user` in `chat` sent after `after` (or at all) that `predicate`
        accepts as it is now, so a predicate on the text also waits for an edit. Order is the order sent, not the
        id, which the chat reuses."""

        def shown() -> Message | None:
            start = next((i + 1 for i, m in enumerate(chat.ephemerals) if m is after), 0)
            return next(
                (
                    m
                    for m in chat.ephemerals[start:]
                    if m.receiver is not None
                    and m.receiver.id == user.id
                    and not m.gone
                    and (predicate is None or predicate(m))
                ),
                None,
            )

        return await self.wait_for(shown, timeout, f"an ephemeral message for {user.first_name} in chat {chat.id}")

    async def wait_answer(self, query: CallbackQuery, timeout: float = 5.0) -> CallbackAnswer:
        return await self.wait_for(
            lambda: query.answer, timeout, f"an answer to callback query {query.id}", on=f"query:{query.id}"
        )

    # --- helpers --------------------------------------------------------------------------------------

    def _service(self, chat: Chat, actor: User, fields: Json) -> Message:
        message = Message(chat, chat.next_message_id(), actor, self._now(), service=fields)
        chat.messages[message.message_id] = message
        if chat.status(self.bot.id).is_member:
            self.world.push("message", message.to_api())
        return message

    def _chat_member_update(self, chat: Chat, user: User, old: Status, new: Status) -> None:
        # chat_member updates reach only admin bots, and only when asked for in allowed_updates.
        if chat.status(self.bot.id).is_admin:
            self.world.push("chat_member", member_update(chat, user, user, old, new, self._now()))

    def _creator(self, chat: Chat) -> User:
        for user_id, status in chat.members.items():
            if status is Status.CREATOR:
                return self.world.users[user_id]
        raise ValueError("this chat has no creator; say who acts with by=...")

    @staticmethod
    def _require_member(user: User, chat: Chat) -> None:
        if not chat.status(user.id).is_member:
            raise ValueError(f"{user.first_name} is not a member of {chat.title}")
