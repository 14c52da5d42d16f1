## Issue 37: how a table of the Bura family keeps score (/help, /rules), and how a deal ended (the hand's story).

help-scoring-robber = Score: each deal won is a win; the match goes to the first with { $target } { $target ->
    [one] win
   *[other] wins
} and { $margin } more than anyone else.
help-scoring-penalty = Score: everyone who loses a deal gets 2 penalty points; { $limit } penalty points lose the match.
help-scoring-pot = Score: before each deal everyone puts { $ante } in the pot; the winner of the deal takes it; a tie splits it.
help-scoring-single = Score: the match is a single deal.
help-scoring-burkozel =
    Penalty points after a deal: most points — 0; { $good } or more — { $ok }; fewer than { $good } — { $below }; no trick at all — { $none }. Three players count { $good_three } instead of { $good }.
    A tie on points: no penalties, but every penalty of the next deal is doubled. A bura gives { $bura } penalty points to each opponent.
    Whoever has { $limit } penalty points or more is the “kozel” and is out.
stale-stop-seized = Too late: { $name } called “Stop!” and takes the lead.
stale-stop-other = Too late: { $name } called “Stop!”. { $leader } leads.
stale-claim = Too late: { $name } claimed — this deal is over.
