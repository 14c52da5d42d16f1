"""What the fake Telegram knows: users, chats and their members, messages as last edited, the files the bot
uploaded, callback queries, the queue of updates for the bot and the record of every request the bot made.

Everything here is plain data plus the `to_api` serializers that turn it into complete Bot API objects
(every field the spec marks required, and the optional ones a real server would fill in).
"""

import asyncio
import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any

from tests.botapi.html import Entity

Json = dict[str, Any]

# Update kinds a bot receives when allowed_updates is empty or was never set (see getUpdates in the spec).
DEFAULT_EXCLUDED_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})


class ChatType(enum.StrEnum):
    PRIVATE = "private"
    GROUP = "group"
    SUPERGROUP = "supergroup"


class Status(enum.StrEnum):
    """A member's standing in a chat, named as ChatMember.status names it."""

    CREATOR = "creator"
    ADMINISTRATOR = "administrator"
    MEMBER = "member"
    RESTRICTED = "restricted"  # a member who may not send messages (here: always the bot)
    LEFT = "left"
    KICKED = "kicked"

    @property
    def is_member(self) -> bool:
        return self in (Status.CREATOR, Status.ADMINISTRATOR, Status.MEMBER, Status.RESTRICTED)

    @property
    def is_admin(self) -> bool:
        return self in (Status.CREATOR, Status.ADMINISTRATOR)


@dataclass(frozen=True)
class User:
    """A Telegram account: a person a test acts as, or the bot itself."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    last_name: str | None = None
    is_bot: bool = False

    def to_api(self) -> Json:
        data: Json = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request, as the bot sent it: the filename and MIME type it gave, the bytes."""

    filename: str | None
    content_type: str | None
    content: bytes


@dataclass(frozen=True)
class StoredFile:
    """A file Telegram keeps once the bot uploaded it: a message's `document`, found again by its file_id."""

    file_id: str
    file_unique_id: str
    file_name: str | None
    mime_type: str | None
    content: bytes

    def to_api(self) -> Json:
        """The Document object (the spec's required file_id and file_unique_id, and what Telegram fills in)."""
        data: Json = {"file_id": self.file_id, "file_unique_id": self.file_unique_id}
        if self.file_name:
            data["file_name"] = self.file_name
        if self.mime_type:
            data["mime_type"] = self.mime_type
        data["file_size"] = len(self.content)
        return data


@dataclass
class Message:
    """A message as its chat shows it now: text, entities and keyboard as last edited (a document: its file and
    caption)."""

    chat: "Chat"
    message_id: int
    sender: User
    date: int
    text: str | None = None
    entities: list[Entity] = field(default_factory=list)
    reply_markup: Json | None = None
    edit_date: int | None = None
    reply_to: "Message | None" = None
    service: Json = field(default_factory=dict)  # new_chat_members, migrate_to_chat_id and such
    deleted: bool = False
    thread_id: int | None = None  # the forum topic it is in (None: not a forum, or its General topic)
    notified: bool = True  # it rang the members' phones (sent without disable_notification)
    protected: bool = False  # sent with protect_content: it cannot be forwarded or saved
    sender_chat: Json | None = None  # sent on behalf of a chat: a channel, or the group (an anonymous admin)
    automatic_forward: bool = False  # a linked channel's post, forwarded into its discussion group by Telegram
    # An ephemeral message (Bot API 10.2) is seen by `receiver` alone; its message_id is 0 and it is addressed
    # by `ephemeral_id`, which the chat may give to another ephemeral message once this one is gone.
    receiver: User | None = None
    ephemeral_id: int | None = None
    expired: bool = False  # Telegram dropped it (an ephemeral message only; see People.expire_ephemeral)
    replaces: "Message | None" = None  # the message it is shown in place of, for its receiver only
    document: StoredFile | None = None  # a document message (sendDocument): the file, its caption below
    caption: str | None = None
    caption_entities: list[Entity] = field(default_factory=list)

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def is_ephemeral(self) -> bool:
        return self.receiver is not None

    @property
    def gone(self) -> bool:
        """Deleted, or (an ephemeral message) expired: nobody sees it any more."""
        return self.deleted or self.expired

    @property
    def keyboard(self) -> list[list[Json]]:
        """Rows of inline buttons as the bot sent them; empty when the message has none."""
        if not self.reply_markup:
            return []
        rows: list[list[Json]] = self.reply_markup.get("inline_keyboard", [])
        return rows

    @property
    def button_texts(self) -> list[list[str]]:
        return [[button["text"] for button in row] for row in self.keyboard]

    def to_api(self, with_reply: bool = True) -> Json:
        data: Json = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.sender_chat is not None:
            data["sender_chat"] = dict(self.sender_chat)
        if self.automatic_forward:
            data["is_automatic_forward"] = True
        if self.thread_id is not None:
            data["message_thread_id"] = self.thread_id
            data["is_topic_message"] = True
        if self.protected:
            data["has_protected_content"] = True
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.reply_to is not None and with_reply:
            # Telegram nests one level only: a replied-to message carries no reply_to_message of its own.
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = [dict(entity) for entity in self.entities]
        if self.document is not None:
            data["document"] = self.document.to_api()
        if self.caption is not None:
            data["caption"] = self.caption
            if self.caption_entities:
                data["caption_entities"] = [dict(entity) for entity in self.caption_entities]
        data.update(self.service)
        if self.reply_markup and "inline_keyboard" in self.reply_markup:
            data["reply_markup"] = self.reply_markup
        if self.receiver is not None:
            data["receiver_user"] = self.receiver.to_api()
            data["ephemeral_message_id"] = self.ephemeral_id
        return data

    def inaccessible(self) -> Json:
        """The InaccessibleMessage a callback query carries once its message is gone."""
        return {"chat": self.chat.to_api(), "message_id": self.message_id, "date": 0}


@dataclass
class Chat:
    """A private chat, group or supergroup, with its members (the bot among them) and its messages."""

    id: int
    type: ChatType
    title: str | None = None
    peer: User | None = None  # the other party of a private chat
    username: str | None = None
    members: dict[int, Status] = field(default_factory=dict)
    messages: dict[int, Message] = field(default_factory=dict)
    last_message_id: int = 0
    pinned: list[int] = field(default_factory=list)  # message ids, the most recent pin last
    migrated_to: int | None = None
    is_forum: bool = False  # a supergroup with topics
    topics: dict[int, str] = field(default_factory=dict)  # thread id (its creation message's id) -> name
    ephemerals: list[Message] = field(default_factory=list)  # every ephemeral message, in the order sent

    @property
    def is_group(self) -> bool:
        return self.type in (ChatType.GROUP, ChatType.SUPERGROUP)

    @property
    def is_private(self) -> bool:
        return self.type is ChatType.PRIVATE

    def status(self, user_id: int) -> Status:
        return self.members.get(user_id, Status.LEFT)

    def next_message_id(self) -> int:
        self.last_message_id += 1
        return self.last_message_id

    def ephemeral(self, ephemeral_id: int) -> Message | None:
        """The live ephemeral message with this id, whoever it is for."""
        return next((m for m in self.ephemerals if m.ephemeral_id == ephemeral_id and not m.gone), None)

    def next_ephemeral_id(self) -> int:
        """The lowest id no live ephemeral message holds. Telegram says ids may be reused once a message is
        deleted or expires; reusing at once is the strictest reading: a bot that keeps a stale id finds out."""
        taken = {m.ephemeral_id for m in self.ephemerals if not m.gone}
        return next(candidate for candidate in range(1, len(taken) + 2) if candidate not in taken)

    def to_api(self) -> Json:
        data: Json = {"id": self.id, "type": str(self.type)}
        if self.peer is not None:
            data["first_name"] = self.peer.first_name
            if self.peer.last_name:
                data["last_name"] = self.peer.last_name
            if self.peer.username:
                data["username"] = self.peer.username
        if self.title is not None:
            data["title"] = self.title
        if self.username is not None:
            data["username"] = self.username
        if self.is_forum:
            data["is_forum"] = True
        return data

    def full_info(self) -> Json:
        """The ChatFullInfo getChat returns: the Chat fields plus the ones the spec makes required."""
        data = self.to_api()
        data.update(
            {
                "accent_color_id": self.id % 7,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": True,
                    "limited_gifts": True,
                    "unique_gifts": True,
                    "premium_subscription": True,
                    "gifts_from_channels": True,
                },
            }
        )
        return data


def chat_member(user: User, status: Status) -> Json:
    """A ChatMember object of the subtype `status` calls for, with every field the spec requires."""
    data: Json = {"status": str(status), "user": user.to_api()}
    if status is Status.CREATOR:
        data["is_anonymous"] = False
    elif status is Status.ADMINISTRATOR:
        rights = (
            "can_manage_chat can_delete_messages can_manage_video_chats can_restrict_members can_change_info "
            "can_invite_users can_pin_messages"
        )
        data.update({"can_be_edited": False, "is_anonymous": False, "can_promote_members": False})
        data.update(dict.fromkeys(rights.split(), True))
        data.update(
            dict.fromkeys(
                ("can_post_stories", "can_edit_stories", "can_delete_stories", "can_send_welcome_messages"),
                False,
            )
        )
    elif status is Status.RESTRICTED:
        rights = (
            "can_send_messages can_send_audios can_send_documents can_send_photos can_send_videos"
            " can_send_video_notes can_send_voice_notes can_send_polls can_send_other_messages"
            " can_add_web_page_previews can_react_to_messages can_edit_tag can_change_info can_invite_users"
            " can_pin_messages can_manage_topics"
        )
        data.update(dict.fromkeys(rights.split(), False))
        data.update({"is_member": True, "until_date": 0})
    elif status is Status.KICKED:
        data["until_date"] = 0
    return data


def member_update(chat: "Chat", actor: User, member: User, old: Status, new: Status, date: int) -> Json:
    """A ChatMemberUpdated: `actor` moved `member` from `old` to `new` standing in `chat`."""
    return {
        "chat": chat.to_api(),
        "from": actor.to_api(),
        "date": date,
        "old_chat_member": chat_member(member, old),
        "new_chat_member": chat_member(member, new),
    }


@dataclass(frozen=True)
class CallbackAnswer:
    """How the bot answered a callback query: what the tapping user saw."""

    text: str | None
    show_alert: bool
    url: str | None
    cache_time: int


@dataclass
class CallbackQuery:
    """One tap on an inline button, waiting for the bot's answerCallbackQuery."""

    id: str
    user: User
    message: Message
    data: str
    created: float
    answer: CallbackAnswer | None = None


@dataclass(frozen=True)
class Request:
    """One call the bot made, as the server saw it: decoded parameters and what it got back."""

    method: str
    params: Json
    time: float
    ok: bool
    result: Any = None
    error_code: int | None = None
    description: str | None = None
    parameters: Json | None = None


@dataclass
class Update:
    update_id: int
    kind: str
    payload: Json

    def to_api(self) -> Json:
        return {"update_id": self.update_id, self.kind: self.payload}


class Signal:
    """Wakes everyone waiting for a change: a long poll waiting for updates, a test waiting for the bot."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def wait(self, timeout: float) -> bool:
        """True when something changed within `timeout` seconds of real time."""
        event = self._event
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            return False
        return True


@dataclass
class Webhook:
    """What setWebhook set: updates are POSTed there instead of waiting for getUpdates."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    last_error_date: int | None = None
    last_error_message: str | None = None
    delivered: int = 0  # updates the bot's server answered with a 2xx


@dataclass
class World:
    """All state of the fake Telegram; the server and the people API both read and change it."""

    bot: User
    # With privacy mode on (Telegram's default) a bot that is not an admin sees in groups only commands,
    # replies to its own messages and service messages.
    privacy_mode: bool = True
    users: dict[int, User] = field(default_factory=dict)
    chats: dict[int, Chat] = field(default_factory=dict)
    started: set[int] = field(default_factory=set)  # users who pressed Start in the bot's private chat
    blocked: set[int] = field(default_factory=set)
    queries: dict[str, CallbackQuery] = field(default_factory=dict)
    updates: list[Update] = field(default_factory=list)  # not yet confirmed by getUpdates offset
    dropped_updates: list[Update] = field(default_factory=list)  # refused by allowed_updates
    allowed_updates: frozenset[str] | None = None  # None: every kind but DEFAULT_EXCLUDED_UPDATES
    commands: dict[tuple[str, str], list[Json]] = field(default_factory=dict)  # (scope, language) -> commands
    descriptions: dict[tuple[str, str], str] = field(default_factory=dict)  # (kind, language) -> text
    history: list[Request] = field(default_factory=list)
    files: dict[str, StoredFile] = field(default_factory=dict)  # file_id -> a file the bot uploaded
    changed: Signal = field(default_factory=Signal)
    signals: dict[int | str, Signal] = field(default_factory=dict)  # per chat id / "query:<id>", see touch()
    last_update_id: int = 100_000
    last_user_id: int = 100_000_000
    last_group_id: int = 4_000_000_000
    last_query_id: int = 7_000_000_000
    webhook: Webhook | None = None

    def __post_init__(self) -> None:
        self.users[self.bot.id] = self.bot

    def new_user_id(self) -> int:
        self.last_user_id += 1
        return self.last_user_id

    def new_group_id(self, supergroup: bool) -> int:
        self.last_group_id += 1
        # Supergroup ids are -100 followed by the channel id; basic groups are a plain negative number.
        return -(1_000_000_000_000 + self.last_group_id) if supergroup else -self.last_group_id

    def store_file(self, content: bytes, file_name: str | None, mime_type: str | None) -> StoredFile:
        """Keep an uploaded file under a new file_id. As Telegram's, its file_unique_id is the same for the same
        content, and its file_id new at every upload."""
        unique = hashlib.sha256(content).hexdigest()[:16]
        file_id = f"BQACAgIAAx{len(self.files) + 1:06d}-{unique}"
        stored = StoredFile(file_id, f"AgAD{unique}", file_name, mime_type, content)
        self.files[stored.file_id] = stored
        return stored

    def new_query_id(self) -> str:
        self.last_query_id += 1
        return str(self.last_query_id)

    def accepts(self, kind: str) -> bool:
        if not self.allowed_updates:
            return kind not in DEFAULT_EXCLUDED_UPDATES
        return kind in self.allowed_updates

    def push(self, kind: str, payload: Json) -> Update:
        """Queue an update; allowed_updates applies when it is created, as in Telegram."""
        self.last_update_id += 1
        update = Update(self.last_update_id, kind, payload)
        (self.updates if self.accepts(kind) else self.dropped_updates).append(update)
        self.changed.fire()
        return update

    def signal(self, key: int | str) -> Signal:
        """The signal of one chat (its id) or one callback query ("query:<id>"): a waiter that cares about one
        thing is not woken by every call of a thousand tables (see `FakeTelegram.wait_for`)."""
        found = self.signals.get(key)
        if found is None:
            found = self.signals[key] = Signal()
        return found

    def touch(self, *keys: int | str) -> None:
        """Something changed in these chats or queries (and so in the world)."""
        for key in keys:
            found = self.signals.get(key)
            if found is not None:
                found.fire()
        self.changed.fire()

    def private_chat(self, user: User) -> Chat:
        """The bot's private chat with `user`; its id is the user's id."""
        chat = self.chats.get(user.id)
        if chat is None:
            members = {user.id: Status.MEMBER, self.bot.id: Status.MEMBER}
            chat = Chat(user.id, ChatType.PRIVATE, peer=user, members=members)
            self.chats[user.id] = chat
        return chat
