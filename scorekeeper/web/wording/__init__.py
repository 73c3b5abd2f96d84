"""The game's words, in the page's language: the catalogs compiled at
start-up and the language a request is answered in (catalogs.py, i18n.py),
what a name does to the words around it (elision.py), events, gains and
refusals in the scorer's words (describe.py), the house rules' labels and
explanations (rule_texts.py). It reads the engine's plain data and the
plumbing, never the service: what it says comes in as plain data."""
