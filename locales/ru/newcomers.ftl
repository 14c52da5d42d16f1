# Newcomers (issue 37): the host who never opened the private chat, /rules, the private chat's commands,
# «Ещё матч», /new with a game's name.

flow-need-private-group = Не могу прислать карты: { $names }. Нажмите кнопку ниже, затем «Запустить» — и возвращайтесь сюда.
flow-need-private-button = 📩 Открыть личный чат с ботом
flow-table-waits = Готово: теперь карты придут сюда. Вас ждут за столом — возвращайтесь в группу, можно начинать.
flow-player-ready = ✅ { $name }: личный чат открыт — можно начинать.
