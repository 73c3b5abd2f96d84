"""The Flask app (app.create_app) and everything that speaks HTTP: the JSON
API, the pages' blueprints (views/), every form (forms.py), the board's and
the review's page data, wording, template helpers, access, security,
languages, assets.
The only layer that imports Flask."""
