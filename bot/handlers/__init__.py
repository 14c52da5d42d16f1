"""Handlers: one router per feature, each made by its module's `create_router()` and composed in
`bot.dispatcher.create_dispatcher`. Handlers only translate an update into a service call and answer it."""
