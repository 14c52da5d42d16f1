"""A local Telegram Bot API server for end-to-end tests: `FakeTelegram` and the people who use it."""
