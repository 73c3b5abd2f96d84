"""`make run`'s plain-http note names the port the server really uses."""

from scorekeeper import serve


def test_the_plain_http_note_says_the_port_served(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(serve.server, "serve", lambda app, **options: None)
    monkeypatch.setattr(serve, "lan_address", lambda: "192.168.1.50")
    monkeypatch.setenv("FLASK_DATABASE", str(tmp_path / "run.sqlite3"))
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "5077")
    serve.main()
    out = capsys.readouterr().out
    assert "open http://127.0.0.1:5077/ there" in out
    assert ":5000" not in out
