"""`make restore REPLICA=<where>`: the store brought back from the replica that
`make run FLASK_REPLICA=<where>` kept, into the place `make run` opens it
(FLASK_INSTANCE_PATH and FLASK_DATABASE honoured alike), on a new machine
(storage/replica.py). It refuses to overwrite a store, checks what it brings
back, and says what the store holds."""

import sys
from datetime import datetime
from pathlib import Path

from .storage import replica
from .web.app import configured_app


def counted(number: int, thing: str) -> str:
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


def when(stored: str | None) -> str:
    """A stored UTC time as a reader reads it, in this machine's time zone too."""
    if stored is None:
        return "no event yet"
    moment = datetime.fromisoformat(stored)
    local = moment.astimezone()
    return (f"the last at {moment:%Y-%m-%d %H:%M:%S} UTC "
            f"({local:%Y-%m-%d %H:%M:%S} here, {local:%Z})")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or not args[0]:
        sys.exit("Say which replica to restore from: make restore REPLICA=<the folder or "
                 "address that make run FLASK_REPLICA=... replicated to>")
    where = args[0]
    app = configured_app()  # where the store goes; nothing opened or created yet
    database = app.config["DATABASE"]
    try:
        held = replica.restore(where, database, Path(app.config["BACKUP_DIR"]))
    except replica.ReplicaError as error:
        sys.exit(f"The restore was refused: {error}")
    print(f"Restored the store from {where} into {database}, checked whole (SQLite's "
          f"integrity check, the app's migrations): {counted(held.games, 'game')}, "
          f"{counted(held.events, 'event')}, {when(held.last_event_at)}.", flush=True)
    print(f"To serve it and go on replicating: make run FLASK_REPLICA={where}", flush=True)


if __name__ == "__main__":
    main()
