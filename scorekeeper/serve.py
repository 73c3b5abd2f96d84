"""`make run`: serve the app with waitress and say where to find it."""

import os

from waitress import serve

from . import create_app


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5000"))
    app = create_app()
    print(f"Ronda scorekeeper: http://{host}:{port}/", flush=True)
    serve(app, host=host, port=port, threads=8)


if __name__ == "__main__":
    main()
