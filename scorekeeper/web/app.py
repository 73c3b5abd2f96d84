"""The application factory: configuration, the store, extensions, blueprints."""

import os
from pathlib import Path

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from . import api
from .guard import access, phones_cli, security
from .guard.secret import load_or_create_secret
from .pages import resume, template_helpers
from .plumbing import (
    assets,
    backup_cli,
    compress,
    db,
    errors,
    phone_engine,
    service_worker,
    slim,
    startup,
)
from .plumbing.app_request import Request
from .plumbing.app_response import Response
from .wording import describe, i18n

# Templates, static files, translations and the instance folder sit at the
# top of the repository, beside the package.
ROOT = Path(__file__).resolve().parents[2]
csrf = CSRFProtect()


def configured_app(test_config: dict | None = None) -> Flask:
    """The app's Flask object and its configuration, nothing on disk yet: where
    the store and its folder are, for a command that must not create them
    (restoring a store from its replica)."""
    config = test_config or {}
    app = Flask(
        "scorekeeper",
        # FLASK_INSTANCE_PATH: the secrets and the store elsewhere than instance/.
        instance_path=config.get("INSTANCE_PATH") or os.environ.get("FLASK_INSTANCE_PATH")
        or str(ROOT / "instance"),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.request_class = Request  # a query string that is not UTF-8 is no 500
    app.response_class = Response  # nor is a lone surrogate in a page
    app.session_interface = api.NoSessionOnTheApi()
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.sqlite3"),
        MAX_CONTENT_LENGTH=api.MAX_BODY_BYTES,
        BABEL_DEFAULT_LOCALE=i18n.DEFAULT_LANGUAGE,
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,  # a game can stay open all evening
        **template_helpers.BOARD_TIMINGS,
    )
    app.config.from_prefixed_env()
    if test_config is not None:
        app.config.from_mapping(test_config)
    backup_cli.configure(app)
    return app


def create_app(test_config: dict | None = None) -> Flask:
    """The app; `test_config` overrides the configuration (API.md)."""
    app = configured_app(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret(app.instance_path)
    access.init_app(app)  # first of the before-request hooks: strangers stop here

    backup_cli.init_app(app)
    phones_cli.init_app(app)
    startup.open_store(app)  # a start-up backup, then migrations; never a crash
    app.teardown_appcontext(db.close_db)
    security.init_app(app)

    i18n.init_app(app)
    csrf.init_app(app)
    csrf.exempt(api.bp)  # JSON only: a foreign page cannot send it without a preflight
    app.register_blueprint(api.bp)

    assets.init_app(app)
    compress.init_app(app)  # gzip for the clients that accept it
    slim.init_app(app)  # the static view serves the script and style sheet without comments
    phone_engine.init_app(app)  # the engine's files for the board's own count, offline
    service_worker.init_app(app)  # /sw.js: the board kept for a reload while the server is away
    template_helpers.init_app(app)  # every template filter and global
    resume.init_app(app)

    from .views import (
        games,
        history,
        main,
        nights,
        pairing,
        phones,
        players,
        settings,
        stats,
        transfer,
    )

    app.register_blueprint(main.bp)
    app.register_blueprint(pairing.bp)
    app.register_blueprint(phones.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(settings.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(nights.bp)
    app.register_blueprint(transfer.bp)
    # The import form's CSRF token is checked by its form, once the view has
    # raised the body limit: the global check would read the body first.
    csrf.exempt(transfer.import_page)
    csrf.exempt(transfer.api_bp)  # JSON only, as the API
    app.register_blueprint(transfer.api_bp)
    errors.register_error_handlers(app, describe.sentence_of)
    return app
