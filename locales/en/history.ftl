# The chat's history (issue 38): /history — the last matches; «How it went» — a deal as a player saw it.

## /history

flow-command-history = the chat's last matches
history-title = 📜 <b>Last matches</b>
history-empty = No match has been played to its end here yet. Gather a table: /new
history-match = <b>{ $number }.</b> { $rules } · { $when }
history-won = 🏆 { $names }
history-draw = 🤝 A draw
history-stopped = ⏹ Stopped { $deal ->
        [0] before the first deal
       *[other] in deal { $deal }
    }
history-just-now = just now
history-minutes-ago = { $count } min ago
history-hours-ago = { $count } h ago
history-days-ago = { $count ->
        [one] { $count } day ago
       *[other] { $count } days ago
    }
history-help = /history — the chat's last matches · «🔎 How it went» under a deal's result — the deal trick by trick as you saw it (in your private chat).

## «How it went»

replay-button = 🔎 How it went
replay-sent = Sent deal { $deal } to your private chat.
replay-not-yours = «How it went» is for those who played this deal.
replay-gone = This deal is no longer kept.
replay-not-over = Deal { $deal } is not over yet.
replay-unknown = There was no such deal. Deals played: { $count }.
replay-no-table = Nothing to show here yet: play a deal first (/play).
flow-command-replay = how a deal went (/replay N)
