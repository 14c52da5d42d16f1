"""`python -m bot`: read the settings and run the bot; a bad configuration is one line and exit code 2."""

import sys

from pydantic import ValidationError

from bot.config import Settings


def main() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]).upper() or "configuration"
        print(f"bura-bot: {field}: {first['msg']}", file=sys.stderr)
        return 2
    print(
        f"bura-bot: configured for {settings.telegram_api_base}; the bot itself is not built yet",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
