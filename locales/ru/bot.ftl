### Русские строки бота «Бура».
### Тексты — HTML для Telegram: имена и прочие данные пользователей экранирует тот, кто их подставляет.
### Числа склоняются через CLDR: one (1, 21, 101…), few (2–4, 22–24…), many (5–20, 25–30…).

## Единицы

cards-count = { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}
points-count = { $count } { $count ->
    [one] очко
    [few] очка
   *[many] очков
}
tricks-count = { $count } { $count ->
    [one] взятка
    [few] взятки
   *[many] взяток
}
players-count = { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}
seconds-count = { $count } с

## Общее

bot-start-private =
    Привет! Я веду «Буру» в групповых чатах.
    Добавьте меня в группу и напишите /bura, чтобы собрать стол. Сюда, в личный чат, я буду присылать ваши карты.
bot-start-private-ready = Готово: теперь я смогу присылать вам карты. Возвращайтесь в группу!
bot-start-group = Напишите /bura, чтобы собрать стол.
bot-help =
    /bura — собрать стол
    /stop — закончить игру (создатель стола)
    /stats — итоги чата
    /language — язык бота
bot-language-set = Язык бота: русский.
error-unexpected = Что-то пошло не так. Попробуйте ещё раз.
error-stale-button = Эта кнопка устарела: стол уже изменился.
error-not-your-turn = Сейчас не ваш ход.
error-not-at-table = Вы не сидите за этим столом.
error-illegal-move = Так ходить нельзя.
error-group-only = Эта команда работает только в группе.
error-private-only = Эта команда работает только в личном чате со мной.
need-private-chat = { $name }, откройте личный чат со мной и нажмите «Старт» — туда придут ваши карты.
player-unreachable = { $name } закрыл(а) личный чат с ботом и не получит карты.
bot-removed-from-group = Меня удалили из группы — игра остановлена.

## Варианты

variant-bura = классика
variant-burkozel = Буркозёл
variant-kozel = Козёл

## Лобби

lobby-title = 🃏 Бура — набираем стол ({ $min }–{ $max } { $max ->
    [one] игрок
    [few] игрока
   *[many] игроков
})
lobby-rules = Правила: { $variant }, { $hand_size } { $hand_size ->
    [one] карта
    [few] карты
   *[many] карт
} на руках, до { $target } · матч до { $match_target } { $match_target ->
    [one] победы
   *[other] побед
} · ход { $turn_seconds } с
lobby-players = Игроки: { $players }
lobby-players-none = Игроки: пока никого
lobby-creator = { $name } (создатель)
lobby-computer-name = Компьютер { $number }
lobby-button-join = ➕ Присоединиться
lobby-button-leave = ➖ Выйти
lobby-button-start = ▶️ Начать
lobby-button-settings = ⚙️ Настройки
lobby-button-cancel = ✖️ Отмена
lobby-button-add-computer = 🤖 Добавить компьютер
lobby-joined = Вы за столом.
lobby-left = Вы вышли из-за стола.
lobby-already-seated = Вы уже за столом.
lobby-full = Стол полон: { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}.
lobby-need-players = Нужно хотя бы { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}.
lobby-only-creator = Это может сделать только создатель стола.
lobby-cancelled = Стол распущен.
lobby-exists = В этом чате уже собирают стол или идёт игра.

## Стол в группе

table-header = 🃏 Бура · сдача { $deal } · матч до { $match_target } { $match_target ->
    [one] победы
   *[other] побед
}
table-trump = Козырь { $suit } (под колодой { $card }) · в колоде { $stock } { $stock ->
    [one] карта
    [few] карты
   *[many] карт
}
table-trump-stock-empty = Козырь { $suit } · колода кончилась
table-turn = Сдавал { $dealer } · ходит { $player } ⏳ { $clock }
table-trick = Взятка { $number }
table-beats = ← бьёт
table-tricks = Взятки: { $tally }
table-match = Матч: { $tally }
table-timeout = Время вышло: за игрока { $name } сходил компьютер.

## Объявления

deal-start = Сдача { $deal }. Сдаёт { $dealer }, козырь { $suit }.
call-bura = { $name }: «Бура!»
call-stop = { $name }: «Стоп!»
call-claim = { $name }: «Вскрываюсь!»
claim-cards = Взятки игрока { $name }: { $cards } = { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
}
claim-true = { $name } берёт сдачу ✅
claim-false = Не хватает до { $target } ❌ — { $name } проигрывает сдачу.
deal-won = { $name } берёт сдачу. Матч: { $tally }
match-won = 🏆 { $name } выигрывает матч!

## Рука в личном чате

hand-header = Стол «{ $table }» · козырь { $suit } · в колоде { $stock }
hand-your-lead = Ваш ход: отметьте карты и нажмите «Ходить».
hand-respond = { $name } ходит { $cards } — ответьте { $count } { $count ->
    [one] картой
   *[other] картами
}
hand-waiting = Ходит { $name }.
hand-tricks = Ваши взятки: { $count }
hand-button-lead = Ходить ({ $selected })
hand-button-beat = Бить ({ $selected } из { $needed })
hand-button-discard = Сбросить втёмную
hand-button-claim = Вскрываюсь!
hand-button-stop = Стоп!
hand-select-more = Отметьте ещё { $count } { $count ->
    [one] карту
    [few] карты
   *[many] карт
}.

## Итоги

stats-title = 📊 Итоги чата
stats-line = { $name }: матчей выиграно { $matches_won }, сдач { $deals_won }, бур { $buras }
stats-empty = В этом чате ещё не играли.
