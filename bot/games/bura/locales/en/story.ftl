## Issue 37: how a table of the Bura family keeps score (/help, /rules), and how a deal ended (the hand's story).

help-scoring-robber = Score: each deal won is a win; the match goes to the first to have { $target } { $target ->
    [one] win
   *[other] wins
} and a lead of at least { $margin }.
help-scoring-penalty = Score: everyone who loses a deal gets 2 penalty points; whoever reaches { $limit } is out.
help-scoring-pot = Score: before each deal everyone puts { $ante } { $ante ->
    [one] chip
   *[other] chips
} in the pot; the winner of the deal takes it, and a tie splits it.
help-scoring-single = Score: the match is a single deal.
help-scoring-burkozel =
    Penalty points after a deal: most points — 0; { $good } or more — { $ok }; fewer than { $good } — { $below }; no trick at all — { $none }. With three players: { $good_three } instead of { $good }.
    A tie on points: no penalties, but every penalty of the next deal is doubled. A bura gives { $bura } penalty points to each opponent.
    Whoever has { $limit } penalty points or more is the “kozel” and is out.
stale-stop-seized = Too late: { $name } called “Stop!” and takes the lead.
stale-stop-other = Too late: { $name } called “Stop!”. { $leader } leads.
stale-claim = Too late: { $name } claimed — this deal is over.
