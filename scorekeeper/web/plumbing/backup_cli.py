"""The `flask` commands `backup` and `restore`, and the app's backup settings
(the copies themselves: storage/backup.py)."""

import os
import sqlite3
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from ...storage import db
from ...storage.backup import DEFAULT_KEEP, BackupError, make_backup, restore


def configure(app: Flask) -> None:
    """The backup settings' defaults (nothing on disk yet)."""
    app.config.setdefault("BACKUP_DIR", os.path.join(app.instance_path, "backups"))
    app.config.setdefault("BACKUP_KEEP", DEFAULT_KEEP)
    # None: at start-up, except in tests and under the `flask` command line
    # (whose backup and restore commands make their own copy).
    app.config.setdefault("BACKUP_ON_START", None)


def init_app(app: Flask) -> None:
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)


def wanted_on_start(app: Flask) -> bool:
    wanted = app.config["BACKUP_ON_START"]
    if wanted is None:
        return not app.config.get("TESTING") and click.get_current_context(silent=True) is None
    return bool(wanted)


def backup_app(app: Flask) -> Path | None:
    """A new copy of the app's store, or None when the store holds nothing yet."""
    return make_backup(
        app.config["DATABASE"], Path(app.config["BACKUP_DIR"]), int(app.config["BACKUP_KEEP"]),
        _timeout(app),
    )


def _timeout(app: Flask) -> float:
    return float(app.config.get("DB_BUSY_TIMEOUT", db.BUSY_TIMEOUT_SECONDS))


@click.command("backup")
@with_appcontext
def backup_command() -> None:
    """Copy the score store into the backup folder (keeping the newest BACKUP_KEEP)."""
    try:
        path = backup_app(current_app)
    except (sqlite3.DatabaseError, OSError) as error:
        raise click.ClickException(f"No backup was made: {error}.")
    if path is None:
        click.echo("The store holds nothing yet: no backup was made.")
    else:
        click.echo(f"Backed up {current_app.config['DATABASE']} to {path}")


@click.command("restore")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@with_appcontext
def restore_command(file: Path) -> None:
    """Replace the score store with the backup FILE (the current store is backed up first)."""
    config = current_app.config
    try:
        saved, left_out = restore(
            config["DATABASE"], file, Path(config["BACKUP_DIR"]), int(config["BACKUP_KEEP"]),
            _timeout(current_app),
        )
    except (sqlite3.DatabaseError, OSError) as error:
        raise click.ClickException(f"The restore failed: {error}.")
    except BackupError as error:
        raise click.ClickException(str(error))
    if saved is not None:
        click.echo(f"The previous store was saved as {saved}")
    click.echo(f"Restored {file} into {config['DATABASE']}")
    if left_out:
        click.echo(f"Left out, as the scorekeeper does not make them: {', '.join(left_out)}. "
                   f"The games, players and nights are whole.")
