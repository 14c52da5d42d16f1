### Русские строки хода игры: лобби, ходы, таймеры, команды (bot/services, bot/handlers).
### Тексты — HTML для Telegram: имена экранирует тот, кто их подставляет.

## Лобби

flow-lobby-exists = В этом чате уже собирают стол — присоединяйтесь кнопкой под ним.
flow-game-in-progress = В этом чате уже идёт игра. Закончить её: /stop (создатель стола или админ).
flow-stale-button = Эта кнопка устарела: стол уже изменился.
flow-computer-added = Компьютер за столом.
flow-computer-removed = Компьютер встал из-за стола.
flow-play-exists = У нас уже идёт игра — доиграйте её или напишите /stop.
flow-play-title = Против компьютера
flow-command-play = сыграть с компьютером
flow-only-creator = Это может сделать только создатель стола или админ группы.
flow-already-seated = Вы уже за столом.
flow-not-seated = Вас нет за этим столом.
flow-lobby-full = Стол полон: { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}.
flow-joined = Вы за столом.
flow-left = Вы вышли из-за стола.
flow-link-expired = Этого стола уже нет. Напишите /new в группе, чтобы собрать новый.
flow-ready-private = Вы уже за столом — карты придут сюда, когда начнётся сдача.
flow-joined-private = Вы за столом! Карты придут сюда, когда начнётся сдача. Возвращайтесь в группу.
flow-need-players = Нужно хотя бы { $count } { $count ->
    [one] игрок
    [few] игрока
   *[many] игроков
}.
flow-need-private = Не могу прислать карты: { $names }. Откройте личный чат со мной и нажмите «Старт».
flow-started = Сдаю!
flow-lobby-cancelled = Стол распущен.
flow-lobby-expired = Стол распущен: 30 минут никто не начинал игру.

## Игра

flow-reminder = ⏳ Ваш ход за столом «{ $title }»: осталось { $seconds } с.
flow-game-over = Эта игра уже закончилась.
flow-not-at-table = Вы не сидите за этим столом.
flow-timeout-move = ⏳ { $name } не успел(а) — за него (неё) сходил бот самой дешёвой картой.
flow-timeout-away = ⏳ { $name } пропустил(а) три хода подряд — бот ходит за него (неё), пока он(а) не вернётся.
flow-all-away = Все игроки пропустили по три хода подряд — игра остановлена.
flow-no-game = Сейчас здесь не играют. Собрать стол: /new
flow-score-title = 📋 Счёт матча (сдача { $deal })
flow-score-line = { $name }: { $score } · выиграно сдач: { $wins }
flow-no-table = В этом чате нет открытого стола.
flow-stopped = Игру остановил(а) { $name }.
flow-bot-removed = Меня удалили из группы — игра остановлена.
flow-player-unreachable = { $name } закрыл(а) личный чат с ботом и не получит карты. Если он(а) не вернётся, за него (неё) будет ходить бот.

## Итоги

flow-stats-mine = 📊 { $name }: матчей { $matches_won } из { $matches_played }, сдач { $deals_won } из { $deals_played }, бур { $buras }, ложных «Вскрываюсь» { $false_claims }
flow-top-empty = В этом чате ещё не играли.
flow-top-title = 🏆 Лучшие игроки чата
flow-top-line = { $place }. { $name } — матчей { $matches_won } из { $matches_played }, сдач { $deals_won } из { $deals_played }, бур { $buras }

## Общее

flow-start-private =
    Привет! Я веду карточную игру «Бура» в групповых чатах.
    Добавьте меня в группу и напишите там /new — соберём стол. Сюда, в личный чат, я буду присылать ваши карты.
flow-help =
    <b>Бура</b> — каждому по 3 карты, одна масть — козырь. Ходят 1–3 картами одной масти; отвечают столько же карт и бьют каждую (старшей картой той же масти или козырем), иначе сбрасывают. Кто набрал 31 очко во взятках, говорит «Вскрываюсь!» и берёт сдачу. Т=11, 10=10, К=4, Д=3, В=2.
    В группе: /new — собрать стол · /addbot — посадить компьютер (/addbot hard — сильный) · /settings — настройки · /score — счёт · /stats, /top — итоги · /stop — закончить игру
    В личном чате: /play — сыграть с компьютером (/play hard — с сильным)
flow-private-fallback = Я веду игру в группах: добавьте меня в группу и напишите там /new. Помощь: /help
flow-hello-group = Привет! Чтобы сыграть в «Буру», напишите /new.
flow-error = Что-то пошло не так. Попробуйте ещё раз.

## Меню команд

flow-command-new = собрать стол
flow-command-score = счёт матча
flow-command-stats = мои итоги в этом чате
flow-command-top = лучшие игроки чата
flow-command-stop = закончить игру
flow-command-help = правила и команды
flow-command-start = начать
flow-settings-no-lobby = Настройки меняют до сдачи: сначала соберите стол командой /new.
flow-settings-playing = Игра уже идёт: настройки меняют до сдачи.
flow-command-settings = настройки стола
flow-timeout-forfeit = ⏳ { $name } пропустил(а) три хода подряд и проигрывает сдачу.
flow-command-addbot = посадить за стол компьютер
flow-addbot-no-lobby = Компьютер садится за собранный стол: сначала напишите /new.
flow-addbot-playing = Игра уже идёт: компьютер садится за стол до сдачи.
