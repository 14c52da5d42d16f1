### Бурако (Buraco Aberto, RULES §17): стол, рука, объявления, причины отказа.
### Морто и канастра — по-русски кириллицей, как их называют игроки.

game-buraco = Бурако

## Стол

buraco-table-title = 🃏 <b>{ $title }</b> · { $game } · сдача { $deal } · до { $target }
buraco-table-title-untitled = 🃏 <b>{ $game }</b> · сдача { $deal } · до { $target }
buraco-score = { $side } — { $points }
buraco-score-vulnerable = { $side } — { $points } (уязвимы: первая выкладка от 75)
buraco-stock = В колоде { $stock } · морто нетронутых: { $mortos }
buraco-pile = Сброс ({ $count }): { $cards }
buraco-pile-empty = Сброс пуст
buraco-side-runs = <b>{ $side }</b>: { $count ->
    [0] рядов нет
    [one] { $count } ряд
    [few] { $count } ряда
   *[many] { $count } рядов
}
buraco-morto-taken = морто взято
buraco-canastra-clean = чистая канастра
buraco-canastra-dirty = грязная канастра
buraco-hands = Карт на руках: { $sizes }
buraco-turn = Ходит { $name }.
buraco-match-won = Матч выиграли { $side }.

## Рука

buraco-hand-title = Стол «{ $title }» · Бурако
buraco-your-draw = Ваш ход: возьмите карту из колоды или весь сброс.
buraco-your-draw-morto = Ваш ход. Колода пуста: при доборе нетронутое морто станет колодой. Или возьмите весь сброс — морто тогда останется морто.
buraco-first-choice = Вы взяли { $card }. Оставить её или открыть и взять следующую?
buraco-your-melds = Отметьте карты: выложите новый ряд, добавьте их к ряду своей пары или сбросьте одну карту, чтобы закончить ход.
buraco-forbidden = Карту { $card } (и такую же) в этот ход не сбросить: её взяли из сброса.
buraco-draft = Первая выкладка: { $points } из { $needed } очков. Пока не сброшена карта, её можно отменить.
buraco-your-hand = Ваши карты ({ $count }):
buraco-refused = Так нельзя: { $reason }
buraco-button-stock = 🂠 Из колоды
buraco-button-pile = Забрать сброс ({ $count })
buraco-button-keep = Оставить { $card }
buraco-button-reject = Открыть и взять следующую
buraco-button-meld = Выложить { $cards }
buraco-button-meld-as = Выложить как { $cards }
buraco-button-add = К ряду { $run }
# Карты можно добавить к ряду по-разному (куда встанет джокер или двойка): кнопка называет ряд, который получится
buraco-button-add-as = Добавить → { $cards }
buraco-button-discard = Сбросить { $card }
buraco-button-cancel = Отменить выкладку
buraco-button-sort-rank = Сортировать по рангу
buraco-button-sort-suit = Сортировать по масти
## Что бот сделал за игрока («бот …»): глагол в прошедшем времени
buraco-played-stock = взял карту из колоды
buraco-played-pile = забрал сброс
buraco-played-meld = выложил { $count ->
    [one] ряд
    [few] { $count } ряда
   *[many] { $count } рядов
}
buraco-played-discard = сбросил { $card }

## Объявления

buraco-deal-started = Сдача { $deal }. Сдаёт { $dealer }, начинает { $first }.
buraco-vulnerable = { $side } уязвимы: первая выкладка — от 75 очков за один ход.
buraco-morto-direta = { $name } выкладывает последнюю карту и берёт морто — ход продолжается.
buraco-morto-indireta = { $name } сбрасывает последнюю карту и берёт морто — сыграет со следующего хода.
buraco-canastra-made-clean = { $side }: ряд { $number } — чистая канастра!
buraco-canastra-made-dirty = { $side }: ряд { $number } — грязная канастра.
buraco-stock-renewed = Колода кончилась, и при доборе нетронутое морто стало колодой ({ $count } карт).
buraco-deal-out = Сдача { $deal } окончена: вышли { $side }.
buraco-deal-exhausted = Сдача { $deal } окончена: колода и морто кончились.
buraco-deal-score = { $side }: карты { $melded } + канастры { $bonuses } + выход { $going_out } − на руках { $in_hands } − морто { $morto } = { $total }
buraco-totals = Счёт: { $tally }
buraco-match-ended = Матч окончен: выиграли { $side } ({ $first } : { $second }).

## Почему нельзя

reason-meld_too_short = В ряду не меньше трёх карт.
reason-meld_too_long = В ряду не больше 14 карт.
reason-not_same_suit = Ряд — карты одной масти.
reason-sets_not_allowed = Карты одного ранга рядом не выложить: только ряды одной масти.
reason-duplicate_rank = Ранг в ряду не повторяется.
reason-two_substitutes = В ряду не больше одной замены (джокер или двойка).
reason-not_consecutive = Карты не идут подряд.
reason-wraps_around = Ряд не переходит через туза: К-Т-2 нельзя.
reason-bad_arrangement = Так эти карты в ряд не встают.
reason-no_such_meld = Такого ряда нет.
reason-not_own_meld = Добавлять можно только к рядам своей пары.
reason-not_adjacent = Эти карты к ряду не подходят.
reason-no_run_for_marks = К рядам вашей пары эти карты не подходят, а новый ряд — от трёх карт.
reason-no_place_for_substitute = Замене некуда перейти: в ряду уже 14 карт.
reason-cannot_discard_pile_card = Эту карту взяли из сброса: в этот ход её не сбросить.
reason-opening_below_minimum = Первая выкладка уязвимой пары — от 75 очков.
reason-no_morto_available = Морто не осталось: последнюю карту нужно сохранить.
reason-no_clean_canastra = Выйти можно только с чистой канастрой.
reason-last_card_must_be_discarded = Последнюю карту нужно сбросить, а не выложить.
reason-no_legal_discard_left = Тогда нечего будет сбросить в конце хода.
reason-nothing_to_cancel = Отменять нечего.
reason-pile_empty = Сброс пуст.
reason-pile_take_blocks_discard = Со сброса из одной такой карты потом нечего будет сбросить.

rules-buraco = четыре места, пара на пару, компьютеры на свободных · матч до 3000
flow-help-buraco =
    <b>Бурако</b>
    Двое на двое, партнёры сидят напротив; 108 карт (две колоды и четыре джокера), по 11 карт, два морто по 11 в стороне.
    Ход: возьмите верхнюю карту колоды или весь сброс, выкладывайте ряды одной масти от трёх карт (одна замена — джокер или двойка) и добавляйте к рядам своей пары, закончите ход сбросом одной карты.
    Семь карт в ряду — канастра: чистая без замены (200), грязная с заменой (100). Кто первым избавился от карт, берёт морто; выйти можно с морто и чистой канастрой.
    Очки: карты в рядах и канастры, +100 за выход, минус карты на руках. Матч до 3000; с 1500 первая выкладка пары — от 75 очков.

## Название, правила в лобби, итоги

game-name-buraco = Бурако
setting-profile-buraco = Бурако
setting-profile-buraco-about = бразильский рамми: двое на двое, ряды одной масти, канастры и морто, матч до 3000; свободные места занимают компьютеры
stats-canastras = канастры: { $count }
stats-outs = выходы: { $count }
