"""The composition root's helpers that need no network."""

import gc

from aiogram.methods import Response

from bot.app import CALLED_METHODS, response_models


def test_the_reply_models_held_are_the_ones_aiogram_parses_with() -> None:
    built = response_models()
    gc.collect()
    assert len(built) == len(CALLED_METHODS)
    for method, model in zip(CALLED_METHODS, built, strict=True):
        assert Response[method.__returning__] is model, method.__name__  # type: ignore[name-defined]
