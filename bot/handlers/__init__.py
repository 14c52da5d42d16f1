"""Handlers: one router per feature, each made by its module's `create_router()` and composed in
`bot.dispatcher.create_dispatcher`, behind the outer middlewares there (one handling per update, the per-user
limits of `throttle.py`, people only). A handler translates an update into a call and answers it: most call a
service (`TableService`, `PrivacyService`); `membership.py` (the bot added to a group, blocked or unblocked in
private, a group migrated), `private.py` (/start's started and unblocked flags) and `stats.py` (/stats, /top)
still read and write the storage (`repository`) themselves."""
