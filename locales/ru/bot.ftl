### Русские строки бота «Бура».
### Тексты — HTML для Telegram: имена и прочие данные пользователей экранирует тот, кто их подставляет.
### Числа склоняются через CLDR: one (1, 21, 101…), few (2–4, 22–24…), many (5–20, 25–30…).

## Единицы

cards-count = { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}

## Карты: буквы рангов (масти — значки в коде)

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

## Игры и комбинации

game-name = { $profile ->
    [bk] Буркозёл
    [kozel] Козёл
   *[other] Бура
}
combo-bura = бура
combo-moscow = Москва
combo-three_aces = три туза
combo-four_ends = четыре конца
combo-moscow_three = Москва (три туза с козырным)
combo-small_moscow = малая Москва
combo-molodka = молодка
combo-call = { $combo ->
    [bura] «Бура!»
    [moscow] «Москва!»
   *[other] «Стоп!»
}

## Матч: цель и счёт

match-robber = матч до { $target } { $target ->
    [one] победы
   *[other] побед
}
match-penalty = до { $limit } штрафных
match-pot = на банк
match-pot-deals = на банк, { $deals } { $deals ->
    [one] сдача
    [few] сдачи
   *[many] сдач
}
match-single = одна сдача
tally-robber = Матч: { $tally }
tally-penalty = Штрафные (до { $limit }): { $tally }
tally-pot = Фишки: { $tally } · в банке { $pot }
tally-wins = Сдачи: { $tally }
tally-doubled = Следующая сдача считается вдвойне.
tally-out = { $name } ✖
tally-change = { $value } ({ $change })

## Лобби

lobby-title = 🃏 { $game } — набираем стол ({ $min }–{ $max } { $max ->
    [one] игрок
    [few] игрока
   *[many] игроков
})
lobby-rules-line = Правила: { $rules }
rules-hand = { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
} на руках
rules-claim = до { $target }
rules-playout = по очкам, без вскрытия
rules-timer = ход { $seconds } с
rules-no-timer = без таймера
rules-discards-open = сброс открытый
rules-discards-closed = сброс втёмную
rules-casual = очки видны
lobby-players = Игроки: { $players }
lobby-players-none = Игроки: пока никого
lobby-creator = { $name } (создатель)
lobby-computer = 🤖 { $name } (играет { $level })
lobby-computer-name = Компьютер { $number }
lobby-button-join = ➕ Присоединиться
lobby-button-leave = ➖ Выйти
lobby-button-start = ▶️ Начать
lobby-button-settings = ⚙️ Настройки
lobby-button-cancel = ✖️ Отмена
lobby-button-add-computer = 🤖 Добавить компьютер
lobby-button-remove-computer = 🤖 Убрать компьютер

## Настройки стола

settings-title = ⚙️ <b>Настройки стола</b>
settings-hint = Нажмите на строку, чтобы сменить значение.
settings-button = { $name }: { $value }
settings-done = ✅ Готово
setting-name-profile = Правила
setting-name-match = Матч
setting-name-timer = Ход
setting-name-discards = Сброс
setting-name-language = Язык
setting-name-casual = Очки
setting-name-takeover = Компьютер за ушедшего
setting-name-level = Компьютер играет
setting-profile-bura = классика
setting-profile-pagat = Бура по Pagat
setting-profile-ruwiki = Бура по Википедии
setting-profile-bk = Буркозёл
setting-profile-kozel = Козёл на деньги
setting-profile-b5 = Бура на 5 карт
setting-match-r11 = до 11 побед
setting-match-r21 = до 21 победы
setting-match-p12 = до 12 штрафных
setting-match-one = одна сдача
setting-timer-30 = 30 с
setting-timer-60 = 1 мин
setting-timer-120 = 2 мин
setting-timer-300 = 5 мин
setting-timer-0 = без таймера
setting-discards-rule = по правилам
setting-discards-open = открытый
setting-discards-closed = втёмную
setting-language-ru = русский
setting-language-en = English
setting-casual-0 = скрыты
setting-casual-1 = видны
setting-takeover-0 = нет
setting-takeover-1 = да
setting-level-easy = просто
setting-level-hard = сильно

## Стол в группе

table-title = 🃏 <b>{ $game }</b> · сдача { $deal } · { $match }
table-title-named = 🃏 <b>{ $title }</b> · { $game } · сдача { $deal } · { $match }
table-trump = Козырь { $suit } (под колодой { $card }) · в колоде { $stock } { $stock ->
    [one] карта
    [few] карты
   *[many] карт
}
table-trump-held = Козырь { $suit } ({ $card } у игрока { $name }) · { $stock ->
    [0] колода кончилась
    [one] в колоде { $stock } карта
    [few] в колоде { $stock } карты
   *[many] в колоде { $stock } карт
}
table-trump-stock-empty = Козырь { $suit } ({ $card }) · колода кончилась
table-dead = вне игры { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}
table-dealer = Сдавал { $name }
table-to-lead = ходит { $name }
table-to-answer = отвечает { $name }
table-to-claim = { $name } решает, вскрываться ли
table-clock = ⏳ { $clock }
table-over = Матч окончен.
table-trick = <b>Взятка { $number }</b>
table-beats = ← бьёт
table-last-trick = Взятка { $number } → { $name }: { $plays }
table-shown = Показано: { $name } — { $combo } { $cards }
table-tricks = Взятки: { $tally }
table-points = Очки: { $tally }

## Объявления в группе

deal-start = 🃏 <b>Сдача { $deal }</b>. Сдаёт { $dealer }, козырь { $card }. Первым ходит { $leader }.
deal-redealt = У игрока { $name } на сдаче { $combo } — пересдача.
call-combo = { $name }: { $call } { $combo } { $cards }
call-seized = { $name } перехватывает ход у игрока { $previous }.
call-kept = { $name } отвечает: { $combo } { $cards } — ход остаётся за ним(ней).
call-claim = { $name }: «Вскрываюсь!»
claim-pile = Взятки: { $cards } = { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
} { $success ->
    [yes] ✅
   *[no] ❌ нужно { $target }
}
deal-won = Сдачу { $count ->
    [one] берёт
   *[other] берут
} { $name }.
deal-false-claim = { $name }: вскрытие ложное — сдача проиграна.
deal-forfeit = { $name } проигрывает сдачу: три хода подряд без ответа.
deal-void = Никто не вскрылся — сдача не в счёт.
deal-played-out = Сдача сыграна. Очки: { $tally }
deal-tie = Ничья по очкам.
player-eliminated = { $name } выбывает.
match-won = 🏆 { $name } { $count ->
    [one] выигрывает
   *[other] выигрывают
} матч!
match-draw = 🏆 Матч окончен вничью.

## Рука в личном чате

hand-header = Стол «{ $table }» · козырь { $suit } · в колоде { $stock }
hand-header-untitled = Козырь { $suit } · в колоде { $stock }
hand-your-lead = Ваш ход: отметьте карты и нажмите «Ходить».
hand-forced-lead = Ваш ход: заходите картами комбинации { $cards }.
hand-answer = Ответьте { $count } { $count ->
    [one] картой
   *[other] картами
}{ $face_down ->
    [yes] : побейте или сбросьте втёмную.
   *[no] .
}
hand-combo = У вас { $combo }: «Стоп!» заберёт ход.
hand-final-claim = Последняя взятка ваша: вскрываетесь?
hand-waiting = Ходит { $name }.
hand-waiting-answer = Отвечает { $name }.
hand-waiting-claim = { $name } решает, вскрываться ли.
hand-tricks = Ваши взятки: { $count }
hand-tricks-pair = Взятки вашей пары: { $count }
hand-points = Очки: { $count }
hand-over = Матч окончен.
hand-button-lead = Ходить ({ $selected })
hand-button-lead-illegal = ⛔ Ходить ({ $selected })
hand-button-lead-empty = Отметьте карты для хода
hand-button-beat = Бить ({ $selected } из { $needed })
hand-button-beat-illegal = ⛔ Бить ({ $selected } из { $needed })
hand-button-give = Отдать открыто ({ $selected } из { $needed })
hand-button-discard = Сбросить втёмную
hand-button-claim = Вскрываюсь!
hand-button-combo = Стоп! ({ $combo })
hand-button-combo-pass = Не объявлять
hand-button-claim-pass = Не вскрываться
hand-button-refresh = 🔄
hand-paused = ⏸ Игра на паузе: бот не может писать в группе.
hand-select-more = Отметьте ещё { $count } { $count ->
    [one] карту
    [few] карты
   *[many] карт
}
hand-select-fewer = Снимите отметку с { $count } { $count ->
    [one] карты
   *[other] карт
}

## Почему ход не принят (всплывающие подсказки)

reason-match_over = Матч уже окончен.
reason-deal_over = Сдача уже окончена.
reason-not_seated = Вы не играете за этим столом.
reason-not_your_turn = Сейчас не ваш ход.
reason-wrong_phase = Сейчас так ходить нельзя.
reason-card_not_in_hand = Этой карты у вас нет.
reason-duplicate_card = Одна и та же карта отмечена дважды.
reason-no_cards = Отметьте карты.
reason-mixed_suits = Заходить можно только картами одной масти.
reason-lead_size_not_allowed = Столько карт сразу заходить нельзя.
reason-lead_too_large = Нельзя заходить большим числом карт, чем есть у соперника.
reason-must_lead_combo = Заходите всеми картами показанной комбинации.
reason-wrong_card_count = Отвечать нужно столькими же картами, сколькими зашли.
reason-must_follow_suit = Нужно ответить в масть, пока она у вас есть.
reason-face_down_not_allowed = По этим правилам сброс только открытый.
reason-must_play_face_down = Эти карты не бьют: их можно только сбросить втёмную.
reason-claims_not_allowed = В этой игре не вскрываются: сдачу решают очки.
reason-claim_not_now = Вскрываться можно только перед своим заходом.
reason-no_such_combo = У вас нет такой комбинации.
reason-combo_outranked = Комбинация соперника старше.
reason-nothing_to_pass = Сейчас нечего пропускать.
reason-unknown_action = Непонятный ход.
