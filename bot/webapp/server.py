"""Where the Mini App is served: on for WEBAPP_URL only, and then on the server Telegram's clients already reach.

With WEBHOOK_URL, the webhook's server: the proxy that forwards Telegram's updates to it forwards ``/webapp/``
too, one port and one certificate. Without, a server of its own at WEBAPP_HOST:WEBAPP_PORT. Never the health
server (HTTP_PORT): /metrics is the bot's, not the public's. The page is the package's ``static/`` folder at
``/webapp/`` (``index.html``) and ``/webapp/static/``; the API is under ``/webapp/api/`` (bot/webapp/api.py).
"""

from __future__ import annotations

import html
import json
import logging
from pathlib import Path

from aiogram import Bot
from aiohttp import web

from bot.config import Settings
from bot.handlers.throttle import TAPS, Buckets
from bot.i18n import Translations
from bot.services import TableService
from bot.startup import StartupError
from bot.telegram.members import Members
from bot.webapp.api import MemberCheck, WebAppApi

logger = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
SHUTDOWN_TIMEOUT = 2.0  # the streams end at once (`WebAppApi` hears of the shutdown); a tap under way is answered


def webapp_api(settings: Settings, tables: TableService, is_member: MemberCheck) -> WebAppApi | None:
    """The Mini App's API, or None when WEBAPP_URL is unset: then nothing of it exists."""
    if settings.webapp_url is None:
        return None
    taps = TAPS.scaled(settings.send_interval)  # a player's taps, as his button taps, at the pacer's scale
    return WebAppApi(
        tables,
        bot_token=settings.bot_token.get_secret_value(),
        is_member=is_member,
        max_age=settings.webapp_auth_seconds,
        taps=Buckets(taps) if taps is not None else None,
    )


CSP = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",  # the page's own modules; no inline script, no other host (no telegram.org either)
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",  # the API, and nothing else: a card or a name never leaves for another host
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org",  # Telegram's web clients frame it
    )
)
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}


async def _secured(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer under /webapp/ says what the page may load and that it is not to be sniffed or referred."""
    if request.path.startswith("/webapp/"):
        response.headers.update(HEADERS)


PAGE_TEXTS = (
    "loading",
    "table",
    "lobby",
    "replays",
    "deal",
    "reconnecting",
    "ok",
    "unauthorized",
    "not_allowed",
    "no_table",
    "slow_down",
    "try_again",
    "bad_request",
    "no_deal",
    "offline",
    "failed",
)
"""The page's own lines (``webapp-page-<key>`` in locales/, ``_`` as ``-``): its loading and error lines, which it
needs before any answer of the API; the API's refusal codes among them."""


def page_html(translations: Translations) -> str:
    """``index.html`` with the page's own lines in every language of the bot on its root element (``data-texts``):
    the page runs no inline script (its Content-Security-Policy forbids one), and learns the viewer's language from
    Telegram's launch parameters, which the server never sees."""
    texts = {
        language: {key: translations.get(language).t(f"webapp-page-{key.replace('_', '-')}") for key in PAGE_TEXTS}
        for language in translations.languages
    }
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    root = '<html lang="ru">'
    if root not in page:
        raise RuntimeError(f"bot/webapp/static/index.html has no {root}: the page's lines have no place")
    attribute = html.escape(json.dumps(texts, ensure_ascii=False), quote=True)
    return page.replace(root, f'<html lang="ru" data-texts="{attribute}">', 1)


def add_page(app: web.Application, translations: Translations) -> None:
    """The page: ``index.html`` (with its lines, `page_html`) at /webapp/ and its files at /webapp/static/, with
    `HEADERS`."""
    page = page_html(translations)

    async def index(_request: web.Request) -> web.Response:
        return web.Response(text=page, content_type="text/html", headers={"Cache-Control": "no-cache"})

    app.router.add_get("/webapp/", index)
    app.router.add_static("/webapp/static/", STATIC)
    app.on_response_prepare.append(_secured)


def add_routes(app: web.Application, api: WebAppApi) -> None:
    """The page and the API on `app` (before it starts: a running app takes no more routes)."""
    add_page(app, api.tables.core.translations)
    api.add_routes(app)


async def serve(api: WebAppApi, host: str, port: int) -> web.AppRunner:
    """The Mini App's own server (no webhook to share); the caller cleans the runner up when the bot stops."""
    app = web.Application(client_max_size=64 * 1024)
    add_routes(app, api)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as error:
        await runner.cleanup()
        raise StartupError(f"WEBAPP_PORT {port}: cannot listen on {host}: {error.strerror or error}") from error
    logger.info("the Mini App is served on %s:%s/webapp/", host, port)
    return runner


def member_check(bot: Bot, members: Members) -> MemberCheck:
    """Membership as the lobby asks it (getChatMember, kept briefly: bot/telegram/members.py)."""

    async def is_member(chat_id: int, user_id: int) -> bool | None:
        return (await members.standing(bot, chat_id, user_id)).is_member

    return is_member


async def start(
    settings: Settings, tables: TableService, is_member: MemberCheck, webhook_app: web.Application | None
) -> web.AppRunner | None:
    """The Mini App, if WEBAPP_URL is set: its routes on the webhook's app (not started yet), or a server of its
    own, whose runner is returned for the caller to clean up. Unset: nothing at all."""
    api = webapp_api(settings, tables, is_member)
    if api is None:
        return None
    if webhook_app is not None:
        add_routes(webhook_app, api)
        logger.info("the Mini App is served on the webhook's server at /webapp/")
        return None
    return await serve(api, settings.webapp_host, settings.webapp_port)
