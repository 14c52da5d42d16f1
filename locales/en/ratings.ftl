# Ratings (issue 38): OpenSkill, a conservative estimate on a scale that starts at 1000.

## A match's end

ratings-match-end = 📈 Rating: { $changes }
ratings-change = { $name } { $after } ({ $delta })

## /rating

flow-command-rating = my rating
ratings-mine = 📈 { $name } — rating
ratings-none = No rating yet: it comes with a match against people in a group (games against the computer are not rated).
ratings-game = { $game } — <b>{ $points }</b> · { $matches ->
        [one] { $matches } match
       *[other] { $matches } matches
    }
ratings-rank-chat = #{ $place } of { $total } in this chat
ratings-rank-all = #{ $place } of { $total } overall
ratings-public-yes = Your rating shows in the overall top (/top in your private chat with the bot). Hide it: /rating private
ratings-public-no = Your rating does not show in the overall top. Show it: /rating public
ratings-made-public = Done: your rating now shows in the overall top.
ratings-made-private = Done: your rating no longer shows in the overall top.

## /top

ratings-top-title = 🏆 Top players in this chat by rating (rating · matches)
ratings-top-line = { $place }. { $name } — { $points } · { $won }/{ $played }
ratings-top-overall = 🌍 Overall rating — only players who show theirs (/rating public)
ratings-top-overall-line = { $place }. { $name } — { $points }
ratings-top-overall-empty = Nobody is in the overall rating yet: show yours there with /rating public.

## /help

ratings-help = Rating: /rating — yours and your place · /rating public, /rating private — whether it shows in the overall top (hidden by default). Matches against the computer are not rated.
