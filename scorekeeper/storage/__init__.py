"""The store: SQLite through sqlite-utils. Connections, their pool and the
write transaction (db.py), the games and their event logs (store.py), the
schema of every table and its frozen migrations (the rows of the others,
presets, summaries, people, ratings, nights, are the service's own SQL),
backups and the restore's lock. No Flask."""
