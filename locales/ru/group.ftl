# What the group sees of a table (issue 37): the move timer as a limit, the pin the bot may not make.

# The move timer on the table: a limit, not a clock that would stand still between edits.
move-limit-minutes = на ход { $minutes } мин
move-limit-seconds = на ход { $seconds } с
