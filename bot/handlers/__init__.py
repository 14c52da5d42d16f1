"""Handlers: one router per feature, each made by its module's `create_router()` and composed in
`bot.dispatcher.create_dispatcher`, behind the outer middlewares there (one handling per update with its actor,
translator and update id, the per-user limits of `throttle.py`, people only). A handler translates an update into
a call of a service (`TableService`, `MembershipService`, `StatsService`, `PrivacyService`) and answers it; none
reads or writes the storage itself."""
