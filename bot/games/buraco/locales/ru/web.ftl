### Бурако в мини-приложении: подписи нарисованного стола (текст без разметки)

buraco-web-title = { $game } · сдача { $deal }
buraco-web-table = Стол
buraco-web-stock = Колода
buraco-web-pile = Сброс
buraco-web-drawn = Первая карта сдачи
buraco-web-morto = Морто: { $pair }
buraco-web-morto-taken = взято: { $name }
buraco-web-morto-waiting = ещё не взято
buraco-web-morto-shared = ещё не взято · осталось одно на обе пары
buraco-web-morto-none = морто не осталось
buraco-web-run = Ряд { $number }
buraco-web-draft = выкладка, ещё не на столе
buraco-web-canastra = { $kind } · +{ $points }
buraco-web-partner = Партнёр: { $name }
buraco-web-points = Очки пары: { $points }
buraco-web-points-vulnerable = Очки пары: { $points } · уязвимы
buraco-web-dealer = сдаёт
