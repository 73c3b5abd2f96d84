"""What the app does, without the web: load, create, record, undo and
correct games; presets, players, ratings, club nights, history, statistics,
export and import. Each call reads the store, asks the engine, writes back
in one transaction. No Flask: the web layer and the command line call in."""
