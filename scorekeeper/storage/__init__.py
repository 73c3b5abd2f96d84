"""The store: SQLite through sqlite-utils. Connections, their pool and the
write transaction, the games and their event logs, the presets' and the
summaries' rows, the schema's frozen migrations, backups. No Flask."""
