# The Mini App (Telegram WebApp, issue 40): the buttons that open it at a table.
# Under the group's table, beside «🃏 Мои карты»: the table in the Mini App, opened over the group.
webapp-table = 🎴 Стол
# Under a private hand: the same table in the Mini App.
webapp-open-table = 🎴 Открыть стол
