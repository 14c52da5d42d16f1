# The Mini App (Telegram WebApp, issue 40): the buttons that open it at a table.
# Under the group's table, beside «🃏 My cards»: the table in the Mini App, opened over the group.
webapp-table = 🎴 Table
# Under a private hand: the same table in the Mini App.
webapp-open-table = 🎴 Open the table
