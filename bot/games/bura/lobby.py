"""What the lobby and /help say of a table of the Bura family: its rules in a line, its rules told in full,
who may sit and which settings it lets the table change."""

from __future__ import annotations

from bot.games.bura.common import match_goal
from bot.games.bura.settings import PROFILE_VARIANTS, DiscardChoice, casual, discard_choice, profile_of, variant
from bot.i18n import Translator
from bot.table_settings import TableSettings
from engine.bura.variant import BuraCombo, Discards, MatchKind, Variant


def rules_parts(settings: TableSettings, tr: Translator) -> list[str]:
    """ "Бура (классика), 3 карты на руках, до 31", "матч до 11 побед"."""
    rules = variant(settings)
    game = [tr.t(f"setting-profile-{profile_of(settings).value}"), tr.t("rules-hand", count=rules.hand_size)]
    if rules.claim_threshold is not None:
        game.append(tr.t("rules-claim", target=rules.claim_threshold))
    else:
        game.append(tr.t("rules-playout"))
    discards = discard_choice(settings)
    if discards is DiscardChoice.OPEN or (discards is DiscardChoice.CLOSED and rules.discards is not Discards.OPEN):
        game.append(tr.t(f"rules-discards-{discards.value}"))
    if casual(settings):
        game.append(tr.t("rules-casual"))
    return [tr.t("list-separator").join(game), match_goal(rules.match, tr)]


def help_text(settings: TableSettings, tr: Translator) -> str:
    """How the table's game is played: the cards, a trick, drawing, the points, claims and false claims or the
    count at the end, the combinations the rules have."""
    rules = variant(settings)
    if rules.claim_threshold is not None:
        told = tr.t(
            "flow-help-bura",
            hand=rules.hand_size,
            face_down="no" if rules.discards is Discards.OPEN else "yes",
            target=rules.claim_threshold,
        )
        return f"{told}\n{scoring_text(rules, tr)}"
    return f"{_playout_text(settings, rules, tr)}\n{scoring_text(rules, tr)}"


def scoring_text(rules: Variant, tr: Translator) -> str:
    """How the deals add up to a match: wins, penalty points (Буркозёл's table, RULES §12.4), or chips."""
    model = rules.match
    if model.kind is MatchKind.ROBBER:
        return tr.t("help-scoring-robber", target=model.target, margin=model.margin)
    if model.kind is MatchKind.PENALTY_12:
        return tr.t("help-scoring-penalty", limit=model.limit)
    if model.kind is MatchKind.POT:
        return tr.t("help-scoring-pot", ante=model.ante)
    if model.kind is MatchKind.BURKOZEL:
        return tr.t(
            "help-scoring-burkozel",
            good=rules.penalty_threshold,
            good_three=rules.penalty_threshold_three,
            ok=rules.penalty_good,
            below=rules.penalty_below,
            none=rules.penalty_no_tricks,
            bura=rules.bura_penalty,
            limit=model.limit,
        )
    return tr.t("help-scoring-single")


def _playout_text(settings: TableSettings, rules: Variant, tr: Translator) -> str:
    """A game played to the last card: its deal, then the combinations it has."""
    game = tr.t(f"game-name-{profile_of(settings).value}")
    text = tr.t("flow-help-playout", game=game, hand=rules.hand_size)
    if rules.bura is BuraCombo.INSTANT_WIN and rules.hand_size == 4:
        text += "\n" + tr.t("flow-help-four-trumps")
    if rules.shokha:
        text += "\n" + tr.t("flow-help-shokha")  # RULES §3.4
    if rules.tvaladze_combos:
        text += "\n" + tr.t("flow-help-tvaladze-combos")  # RULES §13 KOZEL_TVALADZE
    return text


def player_range(settings: TableSettings) -> tuple[int, int]:
    rules = PROFILE_VARIANTS[profile_of(settings)]
    return rules.min_players, rules.max_players
