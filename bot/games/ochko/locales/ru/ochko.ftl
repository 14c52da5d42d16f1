### Очко (RULES §20): лобби, стол, рука, объявления, причины отказа.
### Игра на фишки, без денег (§20.3): ни валют, ни «игры на деньги», ни обмена фишек — нигде.
### Слова игры: банк, банкующий, кон, ставка, «Ещё», «Хватит», «В тёмную», «Стук», перебор, очко, зарез.

game-ochko = Очко

## Лобби и настройки

game-name-ochko = Очко
game-name-oczko = Очко (по-польски)
game-name-ochko1 = Очко (одна вскрышка)
setting-profile-ochko = Очко
setting-profile-ochko-about = банкующий играет с каждым по очереди; туз — 11, картинки — 2, 3, 4; на фишки, без денег
setting-profile-oczko = Очко по-польски
setting-profile-oczko-about = пять картинок — очко; банкующий берёт до 15 и стоит с 17; банк переходит к тому, кто его сорвал
setting-profile-ochko1 = Очко: одна вскрышка
setting-profile-ochko1-about = банкующий играет один раз против всех, очко в любом числе карт выигрывает сразу
setting-name-stack = Фишки у каждого
setting-stack-50 = 50 фишек
setting-stack-100 = 100 фишек
setting-stack-200 = 200 фишек
setting-stack-500 = 500 фишек
setting-stack-100-about = обычная игра: банк от 10
setting-name-draw = Банкующий добирает
setting-draw-free = как хочет
setting-draw-free-about = «Ещё» или «Хватит» при любом счёте
setting-draw-s3_15_17 = до 15 — обязан, с 17 — стоп
setting-draw-s3_15_17-about = при 15 и меньше обязан брать, при 17 и больше — стоять; при 16 решает сам
setting-draw-house_17 = до 16 — обязан, с 17 — стоп
setting-draw-house_17-about = берёт, пока меньше 17; с 17 — стоит
setting-name-aces = Два туза
setting-aces-golden = золотое очко
setting-aces-golden-about = два туза — 21
setting-aces-super = суперочко
setting-aces-super-about = два туза — 21 и бьют любое другое очко
setting-aces-bust = перебор
setting-aces-bust-about = два туза — 22, «красная Москва»
setting-name-dark = Карта «в тёмную»
setting-dark-1 = можно
setting-dark-1-about = последняя карта рубашкой вверх: её не видит никто до вскрытия
setting-dark-0 = нельзя
setting-name-knock = «Стук»
setting-knock-from_10x = с банка ×10
setting-knock-from_10x-about = банкующий может объявить последний кон, когда банк вырос в 10 раз
setting-knock-forced_10x = сам при ×10
setting-knock-forced_10x-about = кон, начатый с банком в 10 раз больше начального, — последний
setting-knock-any_round = перед любым коном
setting-knock-any_round-about = банкующий может постучать перед любым коном, хоть перед первым
setting-name-banks = Сколько играем
setting-banks-1 = один круг банков
setting-banks-1-about = каждый держит банк по разу
setting-banks-2 = два круга банков
setting-banks-0 = без конца
setting-banks-0-about = пока кто-то может держать банк

ochko-rules-chips = по { $stack } фишек, банк от { $bank_min }
ochko-rules-banks-1 = один круг банков
ochko-rules-banks-2 = два круга банков
ochko-rules-draw-free = банкующий добирает как хочет
ochko-rules-draw-s3_15_17 = банкующий до 15 обязан брать, с 17 — стоять
ochko-rules-draw-house_17 = банкующий берёт до 17
ochko-rules-aces-golden = два туза — очко
ochko-rules-aces-super = два туза — суперочко
ochko-rules-aces-bust = два туза — перебор
ochko-rules-dark-1 = можно «в тёмную»
ochko-rules-dark-0 = без карты «в тёмную»
ochko-rules-knock-from_10x = «стук» с банка ×10
ochko-rules-knock-forced_10x = при банке ×10 кон последний сам
ochko-rules-knock-any_round = «стук» перед любым коном
ochko-rules-banks-0 = без конца
ochko-rules-no-money = игра на фишки, без денег
flow-help-ochko =
    <b>Очко</b> — игра на фишки, без денег.
    Колода 36 карт. Туз — 11, король — 4, дама — 3, валет — 2, остальные по номиналу. Больше 21 — перебор.
    У каждого по { $stack } фишек. Банкующий ставит в банк от { $bank_min } фишек и сдаёт по карте; его карта открыта.
    Игроки по очереди, слева от банкующего: ставка («минимум», «треть», «половина», «весь банк» или любая в пределах банка) — вторая карта — «Ещё» или «Хватит»{ $dark ->
        [yes] , или одна последняя карта «В тёмную»
       *[no] {""}
    }. Перебор — ставка уходит в банк; очко с двух карт — выигрыш сразу.
    Потом банкующий добирает себе ({ $draw }), и руки вскрываются: больше — выигрывает ставку у банка, поровну — банкующему. Два туза: { $aces }.
    Выиграл весь банк — банк сорван. Когда банк вырос в { $multiple } раз, банкующий может сказать «Стук»: этот кон последний, остаток банка — его. Потом банк переходит к следующему. Итог — фишки.

## Стол

ochko-table-title = 🃏 <b>{ $title }</b> · { $game } · { $session }
ochko-table-title-untitled = 🃏 <b>{ $game }</b> · { $session }
ochko-round = кон { $number }
ochko-banks-of = банк { $held } из { $total }
ochko-banks-unlimited = банк { $held }
ochko-bank = 🏦 Банкует { $name }: в банке <b>{ $bank }</b> (начальный { $initial })
ochko-bank-to-stake = 🏦 Банк ставит { $name }
ochko-last-round = 🔔 Стук: этот кон последний
ochko-banker-cards = Карты банкующего: { $hand }
ochko-marker = Зарез: { $marker } · в колоде { $pack }
ochko-cards-worth = { $cards } — { $total }
ochko-seat-banker = { $name } 🏦
ochko-seat-chips = { $name } — { $chips } { $chips ->
    [one] фишка
    [few] фишки
   *[many] фишек
}
ochko-seat-left = не за столом
ochko-seat-bet = ставка { $bet }: { $cards }
ochko-seat-settled = ставка { $bet }: { $hand }
ochko-seat-waiting = ждёт банкующего
ochko-seat-duel = ← играет
ochko-turn-stake = Банк ставит { $name }.
ochko-turn-knock = { $name } решает: «Стук» или сдавать.
ochko-turn-bet = Ставку делает { $name }.
ochko-turn-play = Играет { $name }: «Ещё» или «Хватит».
ochko-turn-banker = Добирает банкующий — { $name }.
ochko-turn-banker-against = Добирает банкующий — { $name }; вскрытия ждёт { $player }.
ochko-standing = { $place }. { $name } — { $chips }

## Рука

ochko-hand-title = Стол «{ $title }» · Очко
ochko-your-cards = Ваши карты: { $cards } — { $total }
ochko-your-cards-dark = Ваши карты: { $cards } — { $total } и карта в тёмную
ochko-your-settled = Ваша рука вскрыта: { $hand }
ochko-your-bank-cards = Ваши карты (банк): { $hand }
ochko-your-chips = Ваши фишки: { $chips }
ochko-ask-stake = Вы банкуете. Сколько фишек в банк? От { $low } до { $high }.
ochko-ask-knock = В банке { $bank } (начальный { $initial }). «Стук» — этот кон последний, и после него остаток банка ваш. Или сдавайте дальше.
ochko-ask-bet = На сколько идёте? От { $low } до { $high } (в банке { $bank }).
ochko-ask-play = «Ещё», «Хватит» или карту «В тёмную»?
ochko-ask-play-open = «Ещё» или «Хватит»?
ochko-ask-banker = Против вас — { $name }: ставка { $bet }, { $cards ->
    [one] { $cards } карта
    [few] { $cards } карты
   *[many] { $cards } карт
}{ $dark ->
    [yes] , последняя — в тёмную
   *[no] {""}
}. Берёте ещё?
ochko-ask-banker-all = Вы добираете против всех, кто ждёт ({ $count }).
ochko-hand-over = Игра окончена.
ochko-you-left = Вы вышли из-за стола; ваши фишки остаются в итогах.
ochko-refused = Так нельзя: { $reason }
ochko-button-min = Минимум { $amount }
ochko-button-third = Треть { $amount }
ochko-button-half = Половина { $amount }
ochko-button-bank = Весь банк { $amount }
ochko-button-all = Все { $amount }
ochko-button-stake = В банк { $amount }
ochko-button-step = { $step }
ochko-button-bet-n = ✅ Ставка { $amount }
ochko-button-stake-n = ✅ В банк { $amount }
ochko-button-knock = 🔔 Стук
ochko-button-deal = Сдавать
ochko-button-hit = Ещё
ochko-button-stand = Хватит
ochko-button-dark = В тёмную

## Что бот сделал за игрока («бот …»)

ochko-played-stake = поставил в банк { $amount }
ochko-played-bet = поставил { $amount }
ochko-played-knock = постучал
ochko-played-deal = сдал без стука
ochko-played-hit = взял ещё карту
ochko-played-stand = сказал «Хватит»
ochko-played-dark = взял карту в тёмную
ochko-played-leave = вывел игрока из-за стола

flow-timeout-forfeit-ochko = ⏳ { $name }: три хода подряд без ответа.

## Объявления

ochko-cut-card = { $name } { $card }
ochko-cut = Тянут на старшего: { $cards }
ochko-banker-chosen = 🏦 Первым банкует { $name }.
ochko-staked = 🏦 { $name } ставит банк: { $amount }.
ochko-last-knocked = 🔔 { $name }: «Стук!» Этот кон последний.
ochko-last-forced = 🔔 Банк вырос в десять раз: этот кон последний.
ochko-last-banker_left = { $name } выходит из-за стола: этот кон последний, за банкующего добирает бот.
ochko-hand-dark = { $hand } (последняя — в тёмную)
ochko-settled-won = ✅ { $name } выигрывает { $amount }: { $hand } — { $case }
ochko-settled-lost = ❌ { $name } проигрывает { $amount }: { $hand } — { $case }
ochko-settled-banker = {"   "}у банкующего ({ $name }): { $hand }
ochko-settled-after = {"   "}в банке { $bank } · { $name }: { $chips } { $chips ->
    [one] фишка
    [few] фишки
   *[many] фишек
}
ochko-case-player_bust = перебор
ochko-case-immediate = очко сразу
ochko-case-any_21 = очко
ochko-case-two_aces_bust = два туза — перебор
ochko-case-banker_bust = банкующий перебрал
ochko-case-dark_over = перебор в тёмную
ochko-case-higher = больше, чем у банкующего
ochko-case-lower = меньше, чем у банкующего
ochko-case-tie = поровну — банкующему
ochko-case-dark_21 = очко в тёмную пришло раньше
ochko-case-super = суперочко
ochko-skipped-cannot_afford = { $name } пропускает кон: фишек не хватает на ставку.
ochko-skipped-no_cover = { $name } пропускает кон: весь банк уже под ставками.
ochko-skipped-left = { $name } выходит до ставки — карта возвращается в колоду.
ochko-reshuffled = Свежие карты кончились: отыгранные перетасованы ({ $count }).
ochko-closed-broken = 💥 { $breaker } срывает банк: в банке не осталось ни фишки.
ochko-closed-knock = 🏦 Банк закрыт после стука: { $name } забирает { $paid }.
ochko-closed-left = 🏦 Банк закрыт: банкующий { $name } выходит из-за стола и забирает { $paid }.
ochko-closed-no_players = 🏦 Против банка играть некому: { $name } забирает { $paid }.
ochko-bank-passed = Банк переходит дальше: теперь банкует { $name }.
ochko-left = { $name } выходит из-за стола; фишки остаются в итогах.
ochko-session-ended = 🏁 Игра окончена. Итог по фишкам:

## /score, /history, «Как это было», статистика

ochko-score-title = 🃏 Очко · кон { $round }
ochko-chips = Фишки: { $standings }
ochko-replay-title = 🎞 <b>Как это было: кон { $deal }</b>
ochko-replay-title-more = 🎞 <b>Как это было: кон { $deal }</b> (продолжение)
ochko-replay-start = Банкует { $name }, в банке { $bank }. Карта банкующего: { $card }, зарез: { $marker }.
ochko-replay-first = Ваша первая карта: { $card }
ochko-replay-own = {"   "}ваши карты: { $cards } — { $total }
ochko-replay-bet = { $name } ставит { $amount }.
ochko-replay-stood = { $name }: «Хватит».
ochko-replay-dark = { $name } берёт карту в тёмную.
ochko-replay-banker-drew = {"   "}банкующему: { $card } — { $total }
ochko-replay-banker-stood = {"   "}банкующий останавливается на { $total }
ochko-replay-banker-bust = {"   "}у банкующего перебор: { $total }
stats-chips_won = фишек выиграно: { $count }
stats-banks_broken = сорвано банков: { $count }

## Почему нельзя

reason-session_over = Игра уже окончена.
reason-has_left = Вы уже вышли из-за стола.
reason-stake_below_minimum = Банк не меньше минимального.
reason-stake_above_chips = В банк не поставить больше, чем у вас фишек.
reason-bet_below_minimum = Ставка меньше минимальной.
reason-bet_above_bank = Ставка больше, чем в банке.
reason-bet_above_chips = Ставка больше, чем у вас фишек.
reason-dark_not_played = За этим столом «в тёмную» не играют.
reason-no_card_left = Карт больше нет.
reason-banker_must_hit = По правилам стола банкующий при таком счёте обязан брать.
reason-banker_must_stand = По правилам стола банкующий при таком счёте обязан остановиться.

## Общая настройка «если игрок ушёл», сказанная по-своему (Translator.own)

setting-takeover-0-ochko = уходит из-за стола
setting-takeover-0-about-ochko = три хода подряд без ответа — игрок уходит из-за стола, его фишки остаются в итогах
