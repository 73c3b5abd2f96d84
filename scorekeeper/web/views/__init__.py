"""The HTML pages: thin blueprints over the service layer and the engine."""
