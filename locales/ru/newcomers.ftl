# Newcomers (issue 37): the host who never opened the private chat, /rules, the private chat's commands,
# «Ещё матч», /new with a game's name.

flow-need-private-group = { $names }: не могу прислать вам карты. Нажмите кнопку ниже, затем «Запустить» — и возвращайтесь сюда.
flow-need-private-button = 📩 Открыть личный чат с ботом
flow-table-waits = Готово: теперь ваши карты будут приходить сюда. Вас ждут за столом — возвращайтесь в группу, можно начинать.
flow-player-ready = ✅ Теперь { $name } получит карты — можно начинать.
flow-player-ready-others-wait = ✅ Теперь { $name } получит карты. Ещё нужно открыть личный чат с ботом: { $names }.
flow-new-which-game = Не знаю такой игры. Во что играем?
flow-rules-which-game = Правила какой игры?
flow-private-new = Столы собирают в группе: добавьте меня в группу и отправьте там /new. Сыграть здесь с компьютером: /play.
flow-private-settings = Настройки меняют за столом в группе: отправьте там /settings, пока стол собирается. Сыграть здесь с компьютером: /play.
flow-add-to-group = ➕ Добавить в группу
flow-stats-mine-everywhere = 📊 { $name } — во всех чатах
flow-stats-none-everywhere = Вы ещё нигде не играли. Соберите стол в группе (/new) или сыграйте здесь с компьютером: /play.
flow-top-private = 🏆 Лучшие игроки — у каждой группы свои: отправьте /top там. А вот ваши итоги:
flow-command-rules = правила игры
flow-score-last-over = 🏁 Сейчас здесь не играют. Последний матч окончен:
flow-score-last-stopped = 🏁 Сейчас здесь не играют. Последний матч остановлен:
flow-score-next = Новый стол: /new
flow-rematch-button = 🔁 Ещё матч
flow-rematch-opened = Новый стол открыт: остальные садятся той же кнопкой «Ещё матч» или кнопкой «Присоединиться».
flow-rematch-started = Все снова за столом — новый матч начался.
flow-rematch-not-yours = Эта кнопка — для игроков этого матча. Чтобы сыграть, присоединяйтесь к новому столу или соберите его: /new.
