"""The HTML pages: thin blueprints over games.py and the engine."""
