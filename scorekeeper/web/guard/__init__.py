"""Who gets in, and the server at the door: the access check (access.py),
pairing codes (pairing.py), a club night's read-only screen link
(screen_access.py), the phones let in from the command line (phones_cli.py),
the secrets made at first start (secret.py), the headers every answer
carries (security.py), and waitress hardened against a stranger on the
network (server.py). It imports the plumbing, never a page, a view or the
wording."""
