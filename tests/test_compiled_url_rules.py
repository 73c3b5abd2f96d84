"""The URL builders the tests share between apps (support/compiled_url_rules.py)
are the very ones werkzeug compiles for each rule of this app."""

from support.compiled_url_rules import compile_alone


def test_every_shared_builder_is_what_werkzeug_compiles_for_its_rule(app):
    rules = list(app.url_map.iter_rules())
    assert len(rules) > 40
    for rule in rules:
        for append_unknown, built in [(False, rule._build), (True, rule._build_unknown)]:
            assert built.__func__.__code__ == compile_alone(rule, append_unknown).__code__, rule


def test_each_rule_builds_its_own_urls(app):
    built = set()
    for rule in app.url_map.iter_rules():
        values = {name: 7 for name in rule.arguments if name not in (rule.defaults or {})}
        url = rule._build(**values)
        assert url == compile_alone(rule, False).__get__(rule)(**values), rule
        built.add(url)
    assert len(built) == len(list(app.url_map.iter_rules())) - duplicates(app)


def duplicates(app) -> int:
    """Rules that share a path (one per method, or defaults that fill the path)."""
    paths = [rule.rule for rule in app.url_map.iter_rules()]
    return len(paths) - len(set(paths))
