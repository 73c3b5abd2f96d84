"""A store the migrations have already brought up to date, copied for each
test that needs a fresh one: migrating a new file takes tens of milliseconds,
a copy a fraction of one, and a thousand tests start from an empty store."""

import shutil
from pathlib import Path

from scorekeeper import create_app


def migrated_template(folder: Path) -> Path:
    """A new store in `folder`, migrated by the app's own start-up, closed."""
    path = folder / "migrated.sqlite3"
    create_app({"TESTING": True, "DATABASE": str(path)})
    return path


def copy_store(template: Path, target: Path) -> Path:
    """`template` copied to `target`, its write-ahead log too if it kept one
    (a closed store keeps none: the last connection folds it in)."""
    shutil.copyfile(template, target)
    for suffix in ("-wal", "-shm"):
        if Path(f"{template}{suffix}").exists():
            shutil.copyfile(f"{template}{suffix}", f"{target}{suffix}")
    return target


def app_on_a_copy(store: Path, folder: Path):
    """(test client, path) of today's app on a copy of `store` in `folder`."""
    path = folder / "store.sqlite3"
    shutil.copyfile(store, path)
    return create_app({"TESTING": True, "DATABASE": str(path)}).test_client(), path
