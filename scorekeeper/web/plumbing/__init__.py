"""The app's HTTP plumbing: what every request and answer goes through, and
nothing that words the game. The request and response classes, a request's
connection to the store (db.py), the store opened at start-up (startup.py)
and the backup commands (backup_cli.py), every error's answer (errors.py),
static files under versioned addresses, compressed, without comments, the
service worker's script at the site's root, and redirects that stay on this
site (local_paths.py). It imports no other part of web/."""
