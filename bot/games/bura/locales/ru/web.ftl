# Стол Буры в мини-приложении (bot/games/bura/web.py): подписи стопок, строки игроков. Обычный текст, без HTML.

bura-board-title = { $game } · сдача { $deal } · { $match }
bura-board-table = На столе
bura-board-history = Взятки этой сдачи
bura-board-trump = Козырь — { $suit }
bura-board-trump-held = у игрока { $name }
bura-board-stock = Колода
bura-board-stock-empty = колода кончилась
bura-board-trick-owner = пока берёт { $name }
bura-board-taken = берёт { $name }
bura-board-face-down = { $name }, втёмную
bura-board-shown = Показано: { $combo }
bura-board-dealer = сдаёт
bura-board-tricks = взяток: { $count }
bura-board-tricks-pair = взяток у пары: { $count }
bura-board-points = очков во взятках: { $count }
bura-board-score = счёт матча: { $count }
bura-board-penalty = штрафных: { $count }
bura-board-chips = фишки: { $chips }
bura-board-out = ✖ вне игры
