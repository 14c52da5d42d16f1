"""The Mini App (Telegram WebApp, issue 40): the table in a web page Telegram opens, served by the bot itself.

On only when WEBAPP_URL is set. `initdata` checks who opened it, `tokens` names a table in a ``startapp`` link,
`api` is the HTTP API over the same services a button tap uses, and `server` says where it is served.
"""
