# История чата (issue 38): /history — последние матчи, «Как это было» — сдача глазами игрока.

## /history

flow-command-history = последние матчи чата
history-title = 📜 <b>Последние матчи</b>
history-empty = Здесь ещё не доиграли ни одного матча. Собрать стол: /new
history-match = <b>{ $number }.</b> { $rules } · { $when }
history-won = 🏆 { $names }
history-draw = 🤝 Ничья
history-stopped = ⏹ Остановлен { $deal ->
        [0] до первой сдачи
       *[other] на { $deal }-й сдаче
    }
history-just-now = только что
history-minutes-ago = { $count } мин назад
history-hours-ago = { $count } ч назад
history-days-ago = { $count ->
        [one] { $count } день назад
        [few] { $count } дня назад
       *[many] { $count } дней назад
    }
history-help = /history — последние матчи чата · «🔎 Как это было» под итогом сдачи — сдача взятка за взяткой, как вы её видели (в личный чат).

## «Как это было»

replay-button = 🔎 Как это было
replay-sent = Отправил сдачу { $deal } в личный чат.
replay-not-yours = «Как это было» — для тех, кто играл эту сдачу.
replay-gone = Эта сдача больше не хранится.
replay-not-over = Сдача { $deal } ещё не кончилась.
replay-unknown = Такой сдачи не было. Сыграно сдач: { $count }.
replay-no-table = Здесь нечего показать: сначала сыграйте сдачу (/play).
flow-command-replay = как прошла сдача (/replay N)
