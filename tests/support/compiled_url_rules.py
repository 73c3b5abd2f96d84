"""Each URL rule's builders compiled once per test process, not once per app.

The tests build a new app for almost every test (a store of its own), and
werkzeug compiles each rule it is given into two Python functions that
build its URLs (an AST, then `compile`): about 20 ms of a new app's 24, for
some 50 rules. A builder takes the rule as its first argument and depends on
nothing else than what the key below holds (the rule's text and its parsed
parts, its defaults, the map's host matching, whether unknown values are
appended), so every later app with the same rule gets the function the first
one compiled. tests/test_compiled_url_rules.py checks that the shared
builders are the ones werkzeug would compile.

Leans on a private method of werkzeug (`Rule._compile_builder`), pinned in
constraints.txt; if it went away, nothing would be shared and the tests
would only be slower.
"""

from werkzeug.routing.rules import Rule

_ORIGINAL = Rule._compile_builder


def builder_key(rule: Rule, append_unknown: bool) -> tuple:
    domain = rule.host if rule.map.host_matching else rule.subdomain
    return (rule.rule, domain, rule.map.host_matching, tuple(rule._trace),
            repr(sorted((rule.defaults or {}).items())), append_unknown)


def share_compiled_url_rules() -> None:
    if getattr(Rule._compile_builder, "shared", False):
        return
    builders: dict[tuple, object] = {}

    def compile_builder(self: Rule, append_unknown: bool = True):
        key = builder_key(self, append_unknown)
        builder = builders.get(key)
        if builder is None:
            builder = builders[key] = _ORIGINAL(self, append_unknown)
        return builder

    compile_builder.shared = True
    Rule._compile_builder = compile_builder


def compile_alone(rule: Rule, append_unknown: bool):
    """What werkzeug compiles for this rule, unshared."""
    return _ORIGINAL(rule, append_unknown)
