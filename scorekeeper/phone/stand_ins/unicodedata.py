"""The phone's `unicodedata`: none. MicroPython has no Unicode database, so
a name is cleaned on the server (engine.names), which judges every tap
again anyway; a phone that tries says so instead of keeping a name unclean.
"""


def _server_only(*_):
    raise NotImplementedError("names are cleaned on the server, not on the phone")


category = normalize = _server_only
