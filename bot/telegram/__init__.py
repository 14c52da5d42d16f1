"""The Telegram side of the bot: the Bot API client, delivery and pacing, polling, button data."""
