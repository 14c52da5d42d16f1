"""SQL that both storage engines speak alike, shared by their migrations (bot/storage/sqlite/migrations.py,
bot/storage/postgres/migrations.py). A released migration never changes, so neither does what is here."""

# The stats table's counters, one column each, become rows of the per-game tallies table: every old row was
# counted as Бура (the only game there was), and a zero is no row.
TALLIES_FROM_STATS = (
    "INSERT INTO tallies (chat_id, user_id, game, name, value)"
    " SELECT chat_id, user_id, 'bura', 'deals_played', deals_played"
    " FROM stats WHERE deals_played <> 0"
    " UNION ALL SELECT chat_id, user_id, 'bura', 'deals_won', deals_won"
    " FROM stats WHERE deals_won <> 0"
    " UNION ALL SELECT chat_id, user_id, 'bura', 'matches_played', matches_played"
    " FROM stats WHERE matches_played <> 0"
    " UNION ALL SELECT chat_id, user_id, 'bura', 'matches_won', matches_won"
    " FROM stats WHERE matches_won <> 0"
    " UNION ALL SELECT chat_id, user_id, 'bura', 'buras', buras"
    " FROM stats WHERE buras <> 0"
    " UNION ALL SELECT chat_id, user_id, 'bura', 'false_claims', false_claims"
    " FROM stats WHERE false_claims <> 0"
)
