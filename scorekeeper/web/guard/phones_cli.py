"""`flask --app scorekeeper phones`: the phones let in, `--away ID` to turn one away
and `--host ID` to mark one as a host (the same as the Phones page, for a host
that reaches the table only through a proxy: this command is this machine)."""

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from ...engine.errors import ScoringError
from ...service import phones
from ...service.clock import utc_now
from ...storage.db import connect
from .access import gate


@click.command("phones")
@click.option("--away", "away", type=int, metavar="ID", help="Turn this phone away.")
@click.option("--host", "host", type=int, metavar="ID",
              help="Mark this phone as one of the table's hosts.")
@with_appcontext
def phones_command(away: int | None, host: int | None) -> None:
    """List the phones let in to the table, turn one away, or mark one as a host."""
    connection = connect(current_app.config["DATABASE"])
    try:
        mark = gate(current_app).mark
        if host is not None:
            try:
                phone = phones.make_host(connection, host, mark)
            except ScoringError as error:
                raise click.ClickException(str(error))
            click.echo(f"Phone {phone.id} ({phone.browser}) is one of the table's hosts: it "
                       f"adds phones and turns them away.")
            return
        if away is not None:
            try:
                phone = phones.turn_away(connection, away, mark, utc_now())
            except ScoringError as error:
                raise click.ClickException(str(error))
            click.echo(f"Turned away phone {phone.id} ({phone.browser}): its next request "
                       f"gets the key page.")
            return
        found = phones.listed(connection, mark)
        if not found:
            click.echo("No phone has been let in with the current access key.")
        for phone in found:
            how = "pairing code" if phone.how == "code" else "access key"
            click.echo(f"{phone.id}\t{phone.browser}\tcame in with the {how} at "
                       f"{phone.created_at}\tlast seen {phone.last_seen}"
                       + ("\thost" if phone.host else ""))
    finally:
        connection.close()


def init_app(app: Flask) -> None:
    app.cli.add_command(phones_command)
