"""Telegram adapter for the Бура engine (aiogram 3)."""
