"""The Mini App's page as files (bot/webapp/static/): small (no build step, no third-party script) and
self-contained: index.html and the modules load nothing but files of the folder (the bot is self-hosted: no
telegram.org script, no CDN)."""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

from bot.i18n import Translations
from bot.webapp import api
from bot.webapp.server import PAGE_TEXTS, STATIC, page_html

MAX_BYTES = 200 * 1024
# A module's static imports: `import ... from "x"` and `import "x"`.
IMPORT = re.compile(r"""^\s*import\s+(?:[^'";]*?\s+from\s+)?["']([^"']+)["']""", re.MULTILINE)
# An address on another host (the SVG namespace is a name, not a request).
ELSEWHERE = re.compile(r"(?:https?:)?//(?!www\.w3\.org/2000/svg\b)[\w.-]+\.[a-z]{2,}")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)""")


class References(HTMLParser):
    """Every src and href of the page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [value for name, value in attrs if name in {"src", "href"} and value is not None]


def local(reference: str, base: Path) -> Path | None:
    """The file of the folder a reference names, None for anything elsewhere (another host, a path from the
    root); a data: URL is inline, the referring file itself."""
    parts = urlsplit(reference)
    if parts.scheme or parts.netloc or reference.startswith("/"):
        return None
    path = (base / parts.path).resolve()
    return path if path.is_file() and path.is_relative_to(STATIC.resolve()) else None


def inline(reference: str) -> bool:
    return urlsplit(reference).scheme == "data"


def test_the_static_folder_is_small() -> None:
    files = [path for path in STATIC.rglob("*") if path.is_file()]
    assert {path.name for path in files} >= {"index.html", "app.js", "cards.js", "telegram.js", "style.css"}
    total = sum(path.stat().st_size for path in files)
    assert total <= MAX_BYTES, f"{total} bytes in {STATIC}"


def test_the_page_loads_only_its_own_files() -> None:
    parser = References()
    parser.feed((STATIC / "index.html").read_text(encoding="utf-8"))
    assert parser.found, "index.html loads its script and style"
    for reference in parser.found:
        # index.html is served at /webapp/, the folder at /webapp/static/
        assert inline(reference) or local(reference, STATIC.parent) is not None, reference
    for module in STATIC.glob("*.js"):
        source = module.read_text(encoding="utf-8")
        for reference in IMPORT.findall(source):
            assert reference.startswith("./") and local(reference, STATIC) is not None, (module.name, reference)
        assert not ELSEWHERE.search(source) and "innerHTML" not in source, module.name
    for sheet in STATIC.glob("*.css"):
        for reference in CSS_URL.findall(sheet.read_text(encoding="utf-8")):
            assert inline(reference) or local(reference, STATIC) is not None, (sheet.name, reference)


def test_the_pages_own_lines_come_from_the_locales_in_every_language() -> None:
    """Every line the page says of itself (`t("…")` in app.js) is one of PAGE_TEXTS, which the served page carries
    in every language of the bot from locales/*/webapp.ftl; so do the API's refusal codes the page names."""
    script = (STATIC / "app.js").read_text(encoding="utf-8")
    used = set(re.findall(r"""\bt\(["']([a-z_]+)["']\)""", script))
    assert used and used <= set(PAGE_TEXTS), used - set(PAGE_TEXTS)
    refusals = set(re.findall(r"``([a-z_]+)``", api.__doc__ or "")) & {"bad_request", "not_allowed", "no_table"}
    assert refusals <= set(PAGE_TEXTS)
    translations = Translations()
    page = page_html(translations)
    found = re.search(r'<html lang="ru" data-texts="([^"]*)">', page)
    assert found is not None
    texts = json.loads(html.unescape(found.group(1)))
    assert set(texts) == set(translations.languages)
    for language, lines in texts.items():
        assert set(lines) == set(PAGE_TEXTS)
        for key, line in lines.items():
            assert line and "webapp-page" not in line, (language, key, line)  # a line, not a missing key's name
    assert texts["ru"]["no_table"] != texts["en"]["no_table"]
