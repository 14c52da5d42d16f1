# Рейтинги (issue 38): OpenSkill, консервативная оценка на шкале от 1000.

## Конец матча

ratings-match-end = 📈 Рейтинг: { $changes }
ratings-change = { $name } { $after } ({ $delta })

## /rating

flow-command-rating = мой рейтинг
ratings-mine = 📈 { $name } — рейтинг
ratings-none = Рейтинга пока нет: он появляется после матча с людьми в группе (игры с компьютером в рейтинг не идут).
ratings-game = { $game } — <b>{ $points }</b> · { $matches ->
        [one] { $matches } матч
        [few] { $matches } матча
       *[many] { $matches } матчей
    }
ratings-rank-chat = { $place }-е место в чате из { $total }
ratings-rank-all = { $place }-е из { $total } всего
ratings-public-yes = Ваш рейтинг виден в общем топе (/top в личном чате с ботом). Скрыть: /rating private
ratings-public-no = Ваш рейтинг не виден в общем топе. Показать: /rating public
ratings-made-public = Готово: ваш рейтинг теперь виден в общем топе.
ratings-made-private = Готово: ваш рейтинг больше не виден в общем топе.

## /top

ratings-top-title = 🏆 Лучшие игроки чата по рейтингу (рейтинг · матчи)
ratings-top-line = { $place }. { $name } — { $points } · { $won }/{ $played }
ratings-top-overall = 🌍 Общий рейтинг — только те, кто его открыл (/rating public)
ratings-top-overall-line = { $place }. { $name } — { $points }
ratings-top-overall-empty = В общем рейтинге пока никого: свой рейтинг туда можно открыть командой /rating public.

## /help

ratings-help = Рейтинг: /rating — ваш рейтинг и место · /rating public, /rating private — показывать ли его в общем топе (по умолчанию не показывается). Матчи с компьютером в рейтинг не идут.
