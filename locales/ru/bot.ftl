### Русские строки бота «Бура».
### Только то, что говорят все игры: тексты каждой игры — в bot/games/<игра>/locales/ru/.
### Тексты — HTML для Telegram: имена и прочие данные пользователей экранирует тот, кто их подставляет.
### Числа склоняются через CLDR: one (1, 21, 101…), few (2–4, 22–24…), many (5–20, 25–30…).
### Род игрока неизвестен: глаголы в настоящем времени, без «(а)».

## Единицы

cards-count = { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}
time-seconds = { $count } с
time-minutes = { $count } мин

## Карты: буквы рангов

card-rank-A = Т
card-rank-K = К
card-rank-Q = Д
card-rank-J = В
card-rank-T = 10
card-rank-9 = 9
card-rank-8 = 8
card-rank-7 = 7
card-rank-6 = 6
card-selected = ✅ { $card }
seat-name = Игрок { $number }
pair-names = { $first } и { $second }
list-separator = {", "}
tally-separator = {" · "}

## Лобби

lobby-title = 🃏 { $game } — собираем стол ({ $min }–{ $max } { $max ->
    [one] игрок
    [few] игрока
   *[many] игроков
})
lobby-rules-line = Правила: { $rules }
rules-timer = { $time } на ход
rules-no-timer = без таймера
lobby-players = Игроки: { $players }
lobby-players-none = Игроки: пока никого
lobby-creator = { $name } (собирает стол)
lobby-computer = { $name } ({ $level })
lobby-computer-name = { $number ->
    [0] 🤖 Компьютер
   *[other] 🤖 Компьютер { $number }
}
lobby-button-join = ➕ Присоединиться
lobby-button-leave = ➖ Выйти
lobby-button-start = ▶️ Начать
lobby-button-settings = ⚙️ Настройки
lobby-button-cancel = ✖️ Отмена
lobby-button-add-computer = 🤖 Добавить компьютер
lobby-button-remove-computer = 🤖 Убрать компьютер
lobby-button-remove-player = 🚪 Убрать игрока
lobby-remove-title = Кого убрать из-за стола?
lobby-remove-one = ✖️ { $name }

## Настройки стола

settings-title = ⚙️ <b>Настройки стола</b>
settings-hint = Нажмите на строку, чтобы выбрать значение.
settings-button = { $name }: { $value }
settings-done = ✅ Готово
settings-back = ↩️ Назад
settings-choose = ⚙️ <b>{ $name }</b> — выберите:
settings-current = ✅ { $value }
settings-choice-line = { $value } — { $about }
setting-name-profile = Правила
setting-name-timer = Время на ход
setting-name-language = Язык стола
setting-name-takeover = Если игрок ушёл
setting-name-level = Сила компьютера
setting-timer-30-about = быстрая игра
setting-timer-60-about = обычный темп
setting-timer-120-about = можно подумать
setting-timer-300-about = никто не торопит
setting-timer-0-about = ждём, сколько нужно
setting-language-ru = русский
setting-language-ru-about = стол, объявления и помощь в группе — по-русски
setting-language-en = English
setting-language-en-about = the table, announcements and help in the group in English
setting-takeover-0 = проигрывает сдачу
setting-takeover-0-about = три хода подряд без ответа — игрок проигрывает сдачу
setting-takeover-1 = играет компьютер
setting-takeover-1-about = три хода подряд без ответа — за игрока играет компьютер, пока он не вернётся
setting-level-easy = слабый
setting-level-easy-about = играет по простым правилам
setting-level-hard = сильный
setting-level-hard-about = просчитывает ходы

## Стол в группе

table-clock = ⏳ { $clock }

## Рука в личном чате

hand-waiting = Ходит { $name }.
hand-over = Матч окончен.
hand-timeout-move = ⏳ Время вышло — бот сходил за вас: { $played }.
hand-reminder = ⏳ Осталось { $seconds } с — потом бот сходит за вас.
hand-button-refresh = 🔄 Обновить
hand-paused = ⏸ Игра на паузе: бот не может писать в группе.

## Почему ход не принят (всплывающие подсказки)

reason-match_over = Матч уже окончен.
reason-not_seated = Вы не играете за этим столом.
reason-not_your_turn = Сейчас не ваш ход.
reason-wrong_phase = Сейчас так ходить нельзя.
reason-card_not_in_hand = Этой карты у вас нет.
reason-unknown_action = Непонятный ход.
