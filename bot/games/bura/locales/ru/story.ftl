## Issue 37: how a table of the Bura family keeps score (/help, /rules), and how a deal ended (the hand's story).

help-scoring-robber = Счёт: каждая взятая сдача — победа; матч выигрывает тот, кто первым наберёт { $target } { $target ->
    [one] победу
    [few] победы
   *[many] побед
}, опережая остальных хотя бы на { $margin }.
help-scoring-penalty = Счёт: каждый, кто проиграл сдачу, получает 2 штрафных; набравший { $limit } выбывает.
help-scoring-pot = Счёт: перед каждой сдачей все ставят в банк по { $ante } { $ante ->
    [one] фишке
    [few] фишки
   *[many] фишек
}; банк забирает тот, кто берёт сдачу, а при ничьей его делят.
help-scoring-single = Счёт: матч — одна сдача.
help-scoring-burkozel =
    Штрафные после сдачи: больше всех очков — 0; { $good } и больше — { $ok }; меньше { $good } — { $below }; ни одной взятки — { $none }. Втроём — { $good_three } вместо { $good }.
    Ничья по очкам: штрафов нет, но в следующей сдаче все штрафы вдвое. Бура — по { $bura } штрафных каждому сопернику.
    У кого { $limit } штрафных и больше, тот «козёл» и выбывает.
stale-stop-seized = Поздно: { $name } говорит «Стоп!» и забирает ход.
stale-stop-other = Поздно: { $name } говорит «Стоп!». Ходит { $leader }.
stale-claim = Поздно: { $name } вскрывается — эта сдача окончена.
