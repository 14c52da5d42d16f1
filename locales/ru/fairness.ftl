# The verifiable shuffle (issue 38, docs/fairness.md): the lobby's commitment, /seed, the seeds revealed, /verify.

fair-lobby = 🔐 Честная тасовка: обязательство <code>{ $commitment }</code> (/verify). Свой сид: /seed текст; по умолчанию — ваш Telegram id и «{ $word }».
fair-start = 🔐 Честная тасовка. Обязательство матча: <code>{ $commitment }</code>. Сиды игроков: { $seeds }. Сид каждой сдачи откроется, когда она кончится: /verify.
fair-seat-seed = { $name } «{ $seed }»
fair-reveal = 🔐 Сид сдачи { $deal }: <code>{ $seed }</code> · /verify { $deal }

fair-seed-usage = Напишите свой сид для этого стола: /seed текст (до { $most } знаков). Он вместе с сидом сервера решает, как лягут карты.
fair-seed-too-long = Сид длинноват: не больше { $most } знаков.
fair-seed-no-lobby = Вы не сидите за собираемым столом: сид задают в лобби.
fair-seed-started = Игра уже началась: сиды больше не меняются.
fair-seed-set = Ваш сид для этого стола: «{ $seed }». Все сиды — /verify.
fair-unverifiable = Этот стол тасует без проверяемой тасовки.

fair-no-table = В этом чате ещё не было стола.
fair-match = 🔐 Обязательство матча: <code>{ $commitment }</code>
fair-seeds = Сиды игроков: { $seeds }
fair-lobby-how = Свой сид: /seed текст (до начала игры); по умолчанию — Telegram id и «{ $word }».
fair-current = Идёт сдача { $deal }, её обязательство: <code>{ $commitment }</code>
fair-revealed-one = { $deal }: <code>{ $seed }</code>
fair-revealed = Открытые сиды сдач: { $seeds }
fair-how = /verify N — всё о сдаче N; /verify export — файл матча для проверки ({ $command } файл.json), когда матч окончен.
fair-deal-unknown = Такой сдачи нет: их было { $count }.
fair-deal-not-over = Сдача { $deal } ещё идёт: её сид откроется, когда она кончится.
fair-deal =
    🔐 Сдача { $deal }
    Сид сервера: <code>{ $seed }</code>
    Обязательство (SHA-256 сида): <code>{ $commitment }</code>
    Обязательство матча: <code>{ $match }</code>
    Сиды игроков по местам: { $seeds }
    Проверить: /verify export пришлёт файл матча; запустите <code>{ $command } файл.json</code> (docs/fairness.md).
fair-export-not-yet = Данные для проверки публикуются, когда матч окончен: в них все карты.

## The command menu
flow-command-seed = мой сид для честной тасовки
flow-command-verify = проверить сдачу
fairness-help = Честная тасовка: /seed текст — свой сид в лобби (до начала) · /verify — обязательство стола и открытые сиды сдач, /verify N — всё для проверки сдачи N.
