"""The group's table message, character for character, over random matches of every Бура profile in both
languages: a digest of every picture, recorded from the renderer before it was made cheaper (a speed-up must not
change what a group reads)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

from bot.games.bura.game import BuraGame
from bot.games.bura.lobby import player_range
from bot.games.bura.settings import CASUAL, DISCARDS, MATCH, Profile, variant
from bot.i18n import Translations
from bot.table_settings import TableSettings
from engine.bura.match import Match
from engine.bura.players import random_step

# sha256 of every picture below, recorded at e86c8f3 (before issue 37's table was made cheaper to draw)
GOLDEN = "bb206cd698c865ee21d256641a91c85b52cd1c9f2f305bcbef945d4ae9783424"
MAX_MOVES = 400  # a match's moves rendered at most (a long robber match is cut: its deals are alike)
NAMES = ["Аня", "Борис <b>", "Вика & Ко", "Гена", "Даша", "Елизавета Александровна Длинноименная " * 5]


def pictures() -> Iterator[str]:
    """Every table picture of the cases, in order: each profile, each language, random options and names, a
    title or none, a move timer or a table that ended, after every move of a random match."""
    rng = random.Random(37)
    game = BuraGame()
    translations = Translations()
    for profile in Profile:
        for language in ("ru", "en"):
            for case in range(3):
                options = {
                    MATCH.key: rng.choice(MATCH.choices),
                    DISCARDS.key: rng.choice(DISCARDS.choices),
                    CASUAL.key: rng.choice(CASUAL.choices),
                }
                settings = TableSettings(profile=profile.value, language=language, options=options)
                least, most = player_range(settings)
                players = rng.randint(least, most)
                names = dict(enumerate(rng.sample(NAMES, players)))
                if case == 2:
                    names.pop(players - 1)  # a seat the caller has no name for
                title = rng.choice(["", "Друзья <3"])
                tr = translations.get(language)
                match = Match(variant(settings), players, f"golden-{profile.value}-{language}-{case}")
                for move in range(MAX_MOVES):
                    yield game.table_text(
                        match,
                        names,
                        tr,
                        title=title,
                        settings=settings,
                        deadline_text=rng.choice([None, "1 мин", "<30 s>"]),
                        ended=rng.choice([None] * 9 + ["остановлена"]),
                    )
                    if match.finished or move == MAX_MOVES - 1:
                        break
                    match.apply(random_step(match, rng))


def digest() -> str:
    hasher = hashlib.sha256()
    for picture in pictures():
        hasher.update(picture.encode())
        hasher.update(b"\0")
    return hasher.hexdigest()


def test_the_table_reads_as_it_did_before_it_was_made_cheaper() -> None:
    assert digest() == GOLDEN
