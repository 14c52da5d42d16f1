# What the group sees of a table (issue 37): the move timer as a limit, the pin the bot may not make.

# The move timer on the table: a limit, not a clock that would stand still between edits.
move-limit-minutes = { $minutes } min per move
move-limit-seconds = { $seconds } s per move

# The bot could not pin the table (it is not an admin of the group): said once, in the group.
group-pin-refused = 📌 I can't pin the table: I'm not an admin here. To keep the table in sight, make me an admin with the right to pin messages (group settings → Administrators). Until then, if the table scrolls far up, I'll send it again at the bottom.
