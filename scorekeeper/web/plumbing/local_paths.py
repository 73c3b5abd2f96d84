"""Addresses of this site only, for redirects, form actions and links built
from the request's own path.

`/%09/evil.example` arrives as the path "/\\t/evil.example"; a browser drops
the tab and reads `//evil.example`, another site. So a path is used only when
it has one leading slash and no control character or backslash; else "/".
"""

import re

LOCAL_PATH = re.compile(r"/(?![/\\])[^\x00-\x1f\x7f\\]*")


def local_path(path: str | None) -> str:
    return path if path and LOCAL_PATH.fullmatch(path) else "/"
