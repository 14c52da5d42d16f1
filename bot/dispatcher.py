"""The composition root of the aiogram side: one `Dispatcher`, its dependencies, its routers."""

from aiogram import Dispatcher

from bot.config import Settings
from bot.i18n import Translations
from bot.sender import Sender
from bot.storage import Storage


def create_dispatcher(settings: Settings, storage: Storage, translations: Translations, sender: Sender) -> Dispatcher:
    """Build the dispatcher with everything a handler may ask for by name and type:

    `settings: Settings`, `repository: Storage`, `translations: Translations`, `sender: Sender`.
    (`repository`, not `storage`: aiogram's own FSM storage already answers to that name.)
    Feature routers are included here, one per module, when they exist.
    """
    dispatcher = Dispatcher(name="bura")
    dispatcher.workflow_data.update(
        settings=settings,
        repository=storage,
        translations=translations,
        sender=sender,
    )
    return dispatcher
