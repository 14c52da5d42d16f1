### Русские строки игр семьи Бура (Бура, Буркозёл, Козёл): названия и настройки, стол, объявления, рука, помощь.
### Тексты — HTML для Telegram: имена и прочие данные пользователей экранирует тот, кто их подставляет.
### Числа склоняются через CLDR: one (1, 21, 101…), few (2–4, 22–24…), many (5–20, 25–30…).
### Род игрока неизвестен: глаголы в настоящем времени, без «(а)».

## Масти словами

suit-name = { $suit ->
    [spades] пики
    [clubs] трефы
    [hearts] черви
   *[diamonds] бубны
} { $symbol }

## Игры и комбинации

game-name-bura = Бура
game-name-pagat = Бура
game-name-ruwiki = Бура
game-name-bk = Буркозёл
game-name-kozel = Козёл
game-name-kp = Козёл на очки
game-name-b5 = Бура
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

rules-hand = { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
} на руках
rules-claim = вскрываются на { $target }
rules-playout = сдачу решают очки
rules-discards-open = сброс только открытый
rules-discards-closed = можно сбрасывать втёмную
rules-casual = свои очки видны

## Настройки стола

setting-name-match = Матч
setting-name-discards = Сброс
setting-name-casual = Свои очки
setting-profile-bura = Бура (классика)
setting-profile-bura-about = 3 карты, вскрываются на 31 очко, сбрасывать можно втёмную
setting-profile-pagat = Бура (как на pagat.com)
setting-profile-pagat-about = сброс только открытый, игра на фишки, ложное вскрытие удваивает банк
setting-profile-ruwiki = Бура (как в Википедии)
setting-profile-ruwiki-about = с Москвой и малой Москвой, пересдача при комбинации на руках, матч до 21
setting-profile-bk = Буркозёл
setting-profile-bk-about = 4 карты, 2–4 игрока (вчетвером — пара на пару), штрафные очки до 12
setting-profile-kozel = Козёл (на фишки)
setting-profile-kozel-about = 4 карты, 2–5 игроков, сдачу решают очки, расчёт через 20 сдач
setting-profile-kp = Козёл на очки (с шохой)
setting-profile-kp-about = 4 карты, 2–4 игрока, шоха 6♠️ бьёт всё, комбинации дают только ход, штрафные очки до 12
setting-profile-b5 = Бура на 5 карт
setting-profile-b5-about = 5 карт, вдвоём, сдачу решают очки
setting-match-r11 = до 11 побед
setting-match-r11-about = матч выигрывает тот, кто первым возьмёт 11 сдач
setting-match-r21 = до 21 победы
setting-match-r21-about = матч выигрывает тот, кто первым возьмёт 21 сдачу
setting-match-p12 = до 12 штрафных
setting-match-p12-about = проигравшие сдачу получают штрафные; набравший 12 выбывает
setting-match-one = одна сдача
setting-match-one-about = одна сдача — и всё
setting-discards-rule = по правилам
setting-discards-rule-about = как в выбранных правилах
setting-discards-open = только открытый
setting-discards-open-about = все ответы видны
setting-discards-closed = можно втёмную
setting-discards-closed-about = не бьющие карты можно сбросить рубашкой вверх
setting-casual-0 = не показывать
setting-casual-0-about = по правилам: очки во взятках считают в уме
setting-casual-1 = показывать
setting-casual-1-about = очки во взятках видны на столе и в руке

## Стол в группе

table-title = 🃏 <b>{ $game }</b> · сдача { $deal } · { $match }
table-title-named = 🃏 <b>{ $title }</b> · { $game } · сдача { $deal } · { $match }
table-trump = Козырь — { $suit } (под колодой { $card }) · в колоде { $stock } { $stock ->
    [one] карта
    [few] карты
   *[many] карт
}
table-trump-held = Козырь — { $suit } ({ $card } у игрока { $name }) · { $stock ->
    [0] колода кончилась
    [one] в колоде { $stock } карта
    [few] в колоде { $stock } карты
   *[many] в колоде { $stock } карт
}
table-trump-stock-empty = Козырь — { $suit } ({ $card }) · колода кончилась
table-dead = вне игры { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}
table-dealer = Сдаёт { $name }
table-to-lead = ходит { $name }
table-to-answer = отвечает { $name }
table-to-claim = { $name } решает, вскрываться ли
table-over = Матч окончен.
table-trick = <b>Взятка { $number }</b>
table-beats = ← бьёт
table-last-trick = Взятка { $number }: { $plays } → { $name }
table-shown = Показано: { $name } — { $combo } { $cards }
table-tricks = Взятки: { $tally }
table-points = Очки: { $tally }

## Объявления в группе

deal-start = 🃏 <b>Сдача { $deal }</b>. Сдаёт { $dealer }, козырь — { $trump } ({ $card }). Первым ходит { $leader }.
deal-redealt = { $name }: на руках { $combo } — пересдача.
call-combo = { $name }: { $call } — { $cards }
call-combo-named = { $name }: { $call } — { $combo } { $cards }
call-seized = { $name } забирает ход.
call-kept = { $name } отвечает: { $combo } { $cards } и оставляет ход за собой.
call-claim = { $name }: «Вскрываюсь!»
claim-pile = Взятки, { $count } { $count ->
    [one] карта
    [few] карты
   *[many] карт
}: { $cards } = { $points } { $points ->
    [one] очко
    [few] очка
   *[many] очков
} из { $target } { $success ->
    [yes] ✅
   *[no] ❌
}
claim-face-down = втёмную ({ $count }): { $cards }
deal-won = Сдачу { $count ->
    [one] берёт
   *[other] берут
} { $name }.
deal-false-claim = { $name }: вскрытие ложное — сдача проиграна.
deal-forfeit = ⏳ { $name } проигрывает сдачу: три хода подряд без ответа.
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

hand-header = Стол «{ $table }» · козырь — { $trump } · в колоде { $stock }
hand-header-untitled = Козырь — { $trump } · в колоде { $stock }
hand-your-lead = Ваш ход: отметьте карты одной масти и нажмите «Ходить».
hand-forced-lead = Ваш ход: заходите показанной комбинацией { $cards }.
hand-answer = Ответьте { $count } { $count ->
    [one] картой
   *[other] картами
}{ $face_down ->
    [yes] : побейте или сбросьте втёмную.
   *[no] .
}
hand-marks-no-move = Эти карты так не сыграть.
hand-may-claim = Набрали 31? Можно вскрыться — кнопка внизу.
hand-combo = У вас { $combo } — нажмите «Стоп!», чтобы забрать ход.
hand-final-claim = Последняя взятка ваша: вскрываетесь?
hand-claim-confirm = Вскрыться? Взяток: { $count }. Если в них меньше 31 очка, сдача проиграна.
hand-waiting-answer = Отвечает { $name }.
hand-waiting-claim = { $name } решает, вскрываться ли.
hand-tricks = Ваши взятки: { $count }
hand-tricks-pair = Взятки вашей пары: { $count }
hand-points = Очки: { $count }
hand-button-lead = Ходить ({ $selected })
hand-button-forced = Зайти { $combo ->
    [molodka] молодкой
    [small_moscow] малой Москвой
    [moscow] Москвой
    [three_aces] тремя тузами
    [four_ends] четырьмя концами
    [moscow_three] Москвой
    [bura] бурой
   *[other] комбинацией
} { $cards }
hand-button-beat = Бить ({ $selected } из { $needed })
hand-button-give = Сбросить открыто ({ $selected } из { $needed })
hand-button-discard = Сбросить втёмную
hand-button-claim = Вскрываюсь!
hand-button-claim-yes = ✅ Вскрываюсь
hand-button-claim-no = Отмена
hand-button-combo = Стоп! ({ $combo })
hand-button-combo-pass = Не объявлять
hand-button-claim-pass = Не вскрываться
hand-select-more = Отметьте ещё { $count } { $count ->
    [one] карту
    [few] карты
   *[many] карт
}.
hand-select-more-lead = Можно отметить ещё { $count } { $count ->
    [one] карту
    [few] карты
   *[many] карт
} — или ходите отмеченными.
hand-select-fewer = Снимите отметку с { $count } { $count ->
    [one] карты
   *[other] карт
}.
played-face-down = сбросил { $count } { $count ->
    [one] карту
    [few] карты
   *[many] карт
} втёмную
played-pass = ничего не объявил

## Почему ход не принят (всплывающие подсказки)

reason-deal_over = Сдача уже окончена.
reason-duplicate_card = Одна и та же карта отмечена дважды.
reason-no_cards = Отметьте карты.
reason-mixed_suits = Заходить можно только картами одной масти.
reason-lead_size_not_allowed = Столько карт сразу заходить нельзя.
reason-lead_too_large = Нельзя заходить большим числом карт, чем есть у соперника.
reason-must_lead_combo = Заходите всеми картами показанной комбинации.
reason-wrong_card_count = Отвечать нужно тем же числом карт, что и заход.
reason-must_follow_suit = Нужно ответить в масть, пока она у вас есть.
reason-face_down_not_allowed = По этим правилам сброс только открытый.
reason-must_play_face_down = Эти карты не бьют: их можно только сбросить втёмную.
reason-claims_not_allowed = В этой игре не вскрываются: сдачу решают очки.
reason-claim_not_now = Вскрываться можно только перед своим заходом.
reason-no_such_combo = У вас нет такой комбинации.
reason-combo_outranked = Комбинация соперника старше.
reason-nothing_to_pass = Сейчас нечего пропускать.
reason-not_legal = Такой ход сейчас не разрешён.

## Итоги

stats-buras = буры: { $count }
stats-false_claims = ложные вскрытия: { $count }

## Общее

flow-help-bura =
    <b>Бура</b>
    Каждому сдают по { $hand } { $hand ->
        [one] карте
        [few] карты
       *[other] карт
    }, нижняя карта колоды назначает козырь. Ходят одной или несколькими картами одной масти; отвечают тем же числом карт и бьют каждую — старшей картой той же масти или козырем. Не можете побить — сбрасываете{ $face_down ->
        [yes] {" "}(можно втёмную, рубашкой вверх)
       *[no] {""}
    }. Кто побил, тот берёт взятку и ходит следующим; после взятки все добирают из колоды, начиная со взявшего.
    Очки: Т = 11, 10 = 10, К = 4, Д = 3, В = 2. Набрали { $target } во взятках — перед своим ходом нажмите «Вскрываюсь!» и берите сдачу. Ошиблись в счёте — сдача проиграна (ложное вскрытие).
    Комбинации: три козыря — бура, сразу выигрывает сдачу; три карты одной масти — молодка: «Стоп!» забирает ход.
flow-help-playout =
    <b>{ $game }</b>
    Каждому сдают по { $hand } { $hand ->
        [few] карты
       *[other] карт
    }, нижняя карта колоды назначает козырь. Ходят одной или несколькими картами одной масти; отвечают тем же числом карт и бьют каждую — старшей картой той же масти или козырем, иначе сбрасывают втёмную. Кто побил, тот берёт взятку и ходит следующим; после взятки все добирают из колоды.
    Очки: Т = 11, 10 = 10, К = 4, Д = 3, В = 2. Здесь не вскрываются: сдачу решают очки во взятках, когда карты кончатся.
flow-help-four-trumps = Четыре козыря на руках (бура) сразу выигрывают сдачу.
flow-help-shokha = Шоха — 6♠️: бьёт любую карту, даже козырного туза, сама стоит 0 очков; её можно добавить к заходу любой масти. Никакая комбинация не выигрывает сдачу сразу.
flow-help-tvaladze-combos = Москва (четыре туза и десятки, хотя бы один туз; шоха идёт за десятку) и молодка (четыре карты одной масти или три и шоха) дают право хода вне очереди.
