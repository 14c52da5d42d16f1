"""Where the Mini App is opened from: the links the bot's messages carry to a table (issue 40, "opened where the
players are").

A private hand carries «🎴 Открыть стол», a ``web_app`` button to WEBAPP_URL with ``?t=<table token>`` (Telegram
allows such a button in private chats only). The group's table carries «🎴 Стол», a URL button to
``t.me/<bot>/<WEBAPP_NAME>?startapp=<table token>``: a group takes no web_app button, and that link opens the
named Mini App over the group, the token in initData's ``start_param``. Both are the same for a table every time
they are drawn, so a message drawn again without news stays the same (no edit out of nowhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bot.config import Settings
from bot.webapp.tokens import table_key, table_link, table_token

TOKEN_PARAMETER = "t"  # the page's query parameter, as its API's (bot/webapp/api.py)


@dataclass(frozen=True, slots=True)
class MiniAppLinks:
    """The Mini App's addresses for a bot: its page (WEBAPP_URL), its short name at @BotFather (WEBAPP_NAME), the
    key of its table tokens and the bot's username (known from getMe at start)."""

    page_url: str
    key: bytes
    app_name: str | None = None
    bot_username: str | None = None

    @classmethod
    def from_settings(cls, settings: Settings, bot_username: str | None) -> MiniAppLinks | None:
        """The links for these settings; None without WEBAPP_URL (no Mini App at all)."""
        if settings.webapp_url is None:
            return None
        return cls(
            page_url=settings.webapp_url,
            key=table_key(settings.bot_token.get_secret_value()),
            app_name=settings.webapp_name,
            bot_username=bot_username or None,
        )

    def page(self, table_id: int) -> str:
        """The page at a table, for a private chat's web_app button: WEBAPP_URL with ``t=<token>`` added to its
        query (any other parameters it has kept; a ``t`` of its own replaced)."""
        url = urlsplit(self.page_url)
        kept = parse_qsl(url.query, keep_blank_values=True)
        query = [(name, value) for name, value in kept if name != TOKEN_PARAMETER]
        query.append((TOKEN_PARAMETER, table_token(self.key, table_id)))
        return urlunsplit(url._replace(query=urlencode(query)))

    def startapp(self, table_id: int) -> str | None:
        """The t.me link that opens the named Mini App at a table (for the group); None without WEBAPP_NAME or
        while the bot's username is unknown."""
        if self.app_name is None or self.bot_username is None:
            return None
        return table_link(self.bot_username, self.app_name, self.key, table_id)
