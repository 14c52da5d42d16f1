### Бурако: рука (что на столе, что можно сделать) и что бот сделал за игрока

buraco-played-add = дополнил { $count ->
    [one] ряд
    [few] { $count } ряда
   *[many] { $count } рядов
}

## Что на столе (игра в группе: стол — в другом чате)
buraco-hand-pile = Сброс ({ $count }): { $cards }
buraco-hand-pile-top = Сброс ({ $count }), сверху: … { $cards }
buraco-hand-our-runs = <b>Ваши ряды</b> ({ $pair }){ $count ->
    [0] { ": " }пока нет
   *[other] { ":" }
}
buraco-hand-their-runs = <b>Ряды соперников</b> ({ $pair }){ $count ->
    [0] { ": " }пока нет
   *[other] { ":" }
}

## Ход
buraco-fresh = Вы взяли из колоды { $card }.
buraco-your-melds-draft = Выкладывайте ряды: сбросить карту и закончить ход можно, когда первая выкладка наберёт { $needed } очков. Или отмените её.
buraco-mark-more = Отметьте ещё карты: ряд — от трёх карт одной масти подряд.
