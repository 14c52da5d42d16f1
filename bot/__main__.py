"""`python -m bot`: read the settings and run the bot; a bad configuration, or anything else that keeps the bot
from starting, is one line on stderr and exit code 2.

`python -m bot --healthcheck` exits 0 when the settings load and the database opens (Docker HEALTHCHECK).
"""

import argparse
import asyncio
import logging
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from bot.config import Settings, describe_settings_error
from bot.startup import StartupError, healthcheck


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="The Бура bot for Telegram groups.")
    parser.add_argument("--healthcheck", action="store_true", help="check the settings and the database, then exit")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"bura-bot: {describe_settings_error(error)}", file=sys.stderr)
        return 2
    try:
        if args.healthcheck:
            asyncio.run(healthcheck(settings))
        else:
            from bot.app import run  # aiogram takes seconds to import: not for a healthcheck or a typo

            asyncio.run(run(settings))
    except StartupError as error:
        print(f"bura-bot: {error}", file=sys.stderr)
        # The healthcheck tells an unusable database (1) from one a running bot holds (2); the bot itself
        # refuses to start with 2, whatever the reason (something for the admin to fix).
        return error.exit_code if args.healthcheck else 2
    except KeyboardInterrupt:
        pass
    except Exception:
        # Through the log, whose handlers take the secrets out (bot/logs.py), not Python's own traceback.
        logging.getLogger("bot").exception("the bot stopped on an unexpected error")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
