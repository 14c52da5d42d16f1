## Issue 37: how a table of the Bura family keeps score (/help, /rules), and how a deal ended (the hand's story).

help-scoring-robber = Счёт: за взятую сдачу — победа; матч выигрывает первый, у кого { $target } { $target ->
    [one] победа
    [few] победы
   *[many] побед
} и на { $margin } больше, чем у соперника.
help-scoring-penalty = Счёт: каждый проигравший сдачу получает 2 штрафных; у кого { $limit } штрафных, тот проигрывает.
help-scoring-pot = Счёт: перед сдачей каждый ставит { $ante } в банк; банк забирает тот, кто берёт сдачу; ничья делит банк.
help-scoring-single = Счёт: матч — одна сдача.
help-scoring-burkozel =
    Штрафные после сдачи: больше всех очков — 0; { $good } и больше — { $ok }; меньше { $good } — { $below }; ни одной взятки — { $none }. Втроём вместо { $good } считают { $good_three }.
    Ничья по очкам: штрафов нет, но в следующей сдаче все штрафы вдвое. Бура — по { $bura } штрафных каждому сопернику.
    У кого { $limit } штрафных и больше, тот «козёл» и выбывает.
stale-stop-seized = Поздно: { $name } говорит «Стоп!» и забирает ход.
stale-stop-other = Поздно: { $name } говорит «Стоп!». Ходит { $leader }.
stale-claim = Поздно: { $name } вскрывается — эта сдача окончена.
