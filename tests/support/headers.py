"""The headers every response must carry."""


def check_security_headers(response) -> None:
    """The headers every response must carry (the security and fuzz tests check them)."""
    policy = response.headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.split()[0], part.split()[1:]) for part in policy.split(";") if part.strip()
    )
    assert directives["default-src"] == ["'self'"], policy
    assert directives["script-src"] == ["'self'"], policy
    assert directives["worker-src"] == ["'self'"], policy  # the service worker, and only ours
    assert directives["style-src"] == ["'self'"], policy
    assert directives["frame-ancestors"] == ["'none'"], policy
    assert directives["base-uri"] == ["'none'"], policy
    assert directives["form-action"] == ["'self'"], policy
    sources = [source for values in directives.values() for source in values]
    # Nothing inline, nothing evaluated, nothing from another site.
    assert all(source in ("'self'", "'none'", "data:") for source in sources), policy
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") in ("same-origin", "no-referrer")
