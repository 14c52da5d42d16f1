# The Mini App (Telegram WebApp, issue 40): the buttons that open it at a table.
# Under the group's table, beside «🃏 Мои карты»: the table in the Mini App, opened over the group.
webapp-table = 🎴 Стол
# Under a private hand: the same table in the Mini App.
webapp-open-table = 🎴 Открыть стол

# The Mini App page's own lines (bot/webapp/static/app.js reads them from the page: bot/webapp/server.py).
webapp-page-loading = Загружаю стол…
webapp-page-table = Стол
webapp-page-lobby = Ждём игроков…
webapp-page-replays = Как это было
webapp-page-deal = Сдача
webapp-page-reconnecting = Связь потеряна, переподключаюсь…
webapp-page-ok = Понятно
webapp-page-unauthorized = Не удалось проверить вход. Откройте стол из Telegram ещё раз.
webapp-page-not-allowed = Этот стол вам не виден.
webapp-page-no-table = Стол не найден: откройте его кнопкой из чата.
webapp-page-slow-down = Слишком быстро — подождите секунду.
webapp-page-try-again = Сервер занят, пробую ещё раз…
webapp-page-bad-request = Запрос не понят. Обновите стол.
webapp-page-no-deal = Эта сдача ещё не закончилась.
webapp-page-offline = Нет связи с сервером, пробую ещё раз…
webapp-page-failed = Что-то пошло не так. Попробуйте ещё раз.
