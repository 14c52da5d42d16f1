### Бурако: последние ходы на столе группы (issue 37) — строка на игрока, его последний ход в этой сдаче.
### Настоящее время, как в объявлениях: без рода («берёт», «сбрасывает»).

buraco-turn-line = <b>{ $name }</b>: { $parts }
# ход ещё идёт
buraco-turn-line-playing = <b>{ $name }</b>: { $parts } …
buraco-turn-separator = {", "}
buraco-turn-stock = берёт из колоды
# первый ход сдачи (RULES §17.3): первую карту показывают и кладут в сброс
buraco-turn-rejected = берёт из колоды, открывает { $card } в сброс и берёт следующую
buraco-turn-pile = забирает сброс ({ $count ->
    [one] { $count } карта
    [few] { $count } карты
   *[many] { $count } карт
})
buraco-turn-opening = первая выкладка на { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
}
buraco-turn-run = выкладывает ряд { $number }: { $cards }
buraco-turn-run-short = выкладывает ряд { $number }
buraco-turn-add = добавляет к ряду { $number }: { $cards }
buraco-turn-add-short = добавляет { $count ->
    [one] { $count } карту
    [few] { $count } карты
   *[many] { $count } карт
} к ряду { $number }
buraco-turn-morto = берёт морто
buraco-turn-discard = сбрасывает { $card }
buraco-turn-out = сбрасывает { $card } и выходит
# ходы, которыми кончилась прошлая сдача: пока игрок не сходил в новой
buraco-turns-ended = Конец сдачи { $deal }:
buraco-turns-now = Сдача { $deal }:
