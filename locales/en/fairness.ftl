# The verifiable shuffle (issue 38, docs/fairness.md): the lobby's commitment, /seed, the seeds revealed, /verify.

fair-lobby = 🔐 Fair shuffle: commitment <code>{ $commitment }</code> (/verify). Your own seed: /seed text; by default your Telegram id and “{ $word }”.
fair-start = 🔐 Fair shuffle. Match commitment: <code>{ $commitment }</code>. Players' seeds: { $seeds }. Each deal's seed is revealed when it is over: /verify.
fair-seat-seed = { $name } “{ $seed }”
fair-reveal = 🔐 Seed of deal { $deal }: <code>{ $seed }</code> · /verify { $deal }

fair-seed-usage = Write your seed for this table: /seed text (up to { $most } characters). With the server's seed it decides how the cards fall.
fair-seed-too-long = That seed is too long: { $most } characters at most.
fair-seed-no-lobby = You are not seated at a table being gathered: seeds are set in the lobby.
fair-seed-started = The game has started: the seeds can no longer change.
fair-seed-set = Your seed for this table: “{ $seed }”. Everyone's seeds: /verify.
fair-unverifiable = This table is not dealt by the verifiable shuffle.

fair-no-table = There has been no table in this chat yet.
fair-match = 🔐 Match commitment: <code>{ $commitment }</code>
fair-seeds = Players' seeds: { $seeds }
fair-lobby-how = Your own seed: /seed text (before the game starts); by default your Telegram id and “{ $word }”.
fair-current = Deal { $deal } is on, its commitment: <code>{ $commitment }</code>
fair-revealed-one = { $deal }: <code>{ $seed }</code>
fair-revealed = Revealed deal seeds: { $seeds }
fair-how = /verify N: everything about deal N; /verify export: the match as a file to check ({ $command } file.json), once the match is over.
fair-deal-unknown = There is no such deal: there were { $count }.
fair-deal-not-over = Deal { $deal } is still on: its seed is revealed when it is over.
fair-deal =
    🔐 Deal { $deal }
    Server seed: <code>{ $seed }</code>
    Commitment (SHA-256 of the seed): <code>{ $commitment }</code>
    Match commitment: <code>{ $match }</code>
    Players' seeds by seat: { $seeds }
    To check: /verify export sends the match as a file; run <code>{ $command } file.json</code> (docs/fairness.md).
fair-export-not-yet = The data to check is published once the match is over: it shows every card.

## The command menu
flow-command-seed = my seed for the fair shuffle
flow-command-verify = check a deal
fairness-help = Fair shuffle: /seed text sets your seed in the lobby (before the start) · /verify shows the table's commitment and the deals' revealed seeds, /verify N all you need to check deal N.
