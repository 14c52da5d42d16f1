# The Mini App (Telegram WebApp, issue 40): the buttons that open it at a table.
# Under the group's table, beside «🃏 My cards»: the table in the Mini App, opened over the group.
webapp-table = 🎴 Table
# Under a private hand: the same table in the Mini App.
webapp-open-table = 🎴 Open the table

# The Mini App page's own lines (bot/webapp/static/app.js reads them from the page: bot/webapp/server.py).
webapp-page-loading = Loading the table…
webapp-page-table = Table
webapp-page-lobby = Waiting for players…
webapp-page-replays = How it went
webapp-page-deal = Deal
webapp-page-reconnecting = Connection lost, reconnecting…
webapp-page-ok = OK
webapp-page-unauthorized = Could not check who you are. Open the table from Telegram again.
webapp-page-not-allowed = You cannot see this table.
webapp-page-no-table = Table not found: open it with the button in the chat.
webapp-page-slow-down = Too fast: wait a second.
webapp-page-try-again = The server is busy, trying again…
webapp-page-bad-request = The request was not understood. Reload the table.
webapp-page-no-deal = This deal is not over yet.
webapp-page-offline = No connection to the server, trying again…
webapp-page-failed = Something went wrong. Try again.
