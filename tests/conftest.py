import pytest
from hypothesis import settings

from scorekeeper import create_app
from scorekeeper.storage.db import connect
from scorekeeper.testing import processes
from support.compiled_templates import share_compiled_templates
from support.compiled_url_rules import share_compiled_url_rules
from support.stores import copy_store, migrated_template

share_compiled_templates()
share_compiled_url_rules()

# Every run, on CI and here: no deadline (a loaded machine stretches an
# example's time, which is no defect of ours), and a failure prints the blob
# that replays it (@reproduce_failure). The examples stay random from run to
# run, so that each run tries new ones; the blob and Hypothesis's example
# database (.hypothesis/) replay the one that failed. `--hypothesis-profile
# default` brings Hypothesis's own settings back.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def migrated_store(tmp_path_factory):
    """One store migrated per run (per worker): each test's store is a copy of it."""
    return migrated_template(tmp_path_factory.mktemp("template"))


@pytest.fixture
def fresh_store(tmp_path, migrated_store):
    """The path of a new, empty, migrated store of this test's own."""
    return copy_store(migrated_store, tmp_path / "test.sqlite3")


@pytest.fixture
def app(fresh_store):
    return create_app({"TESTING": True, "DATABASE": str(fresh_store)})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def french(client):
    """The test client of a device that chose French (the lang cookie)."""
    client.set_cookie("lang", "fr")
    return client


@pytest.fixture
def second_phone(app):
    """Another phone at the same table, in French: another browser (its own
    session, so its own device id)."""
    phone = app.test_client()
    phone.set_cookie("lang", "fr")
    return phone


@pytest.fixture
def english(client):
    """The test client of a device that chose English."""
    client.set_cookie("lang", "en")
    return client


@pytest.fixture
def api(client):
    """A small JSON API client: api.post(path, body) -> response."""

    class Api:
        def post(self, path, body=None, **kwargs):
            return client.post(path, json={} if body is None else body, **kwargs)

        def get(self, path):
            return client.get(path)

        def new_game(self, **body):
            body.setdefault("sides", ["A", "B"])
            response = self.post("/api/games", body)
            assert response.status_code == 201, response.get_json()
            return response.get_json()

        def event(self, game_id, **event):
            return self.post(f"/api/games/{game_id}/events", event)

        def undo(self, game_id, body=None):
            return self.post(f"/api/games/{game_id}/undo", body)

        def state(self, game_id):
            return client.get(f"/api/games/{game_id}").get_json()

    return Api()


@pytest.fixture
def db(app):
    """A connection of its own to the app's store."""
    connection = connect(app.config["DATABASE"])
    yield connection
    connection.close()



def pytest_sessionfinish(session):
    """A safety net under the fixtures' finalizers: no server or Caddy that a
    test started outlives its run (its worker's, under xdist)."""
    processes.stop_all()
