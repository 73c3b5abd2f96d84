"""The dependencies as the code needs them: floors it relies on, an upper
bound where it extends a package's internals, and the versions the tests
passed with written down (constraints.txt) and used by every install."""

import subprocess
import tomllib
from importlib import metadata

from flask import Request
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from support.paths import ROOT

CONSTRAINTS = ROOT / "constraints.txt"


def requirements() -> dict[str, Requirement]:
    """Every requirement of the app and of its extras, but an extra's own
    extras (the tests' `scorekeeper[replica]`)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["dependencies"] + [
        line for extra in project["optional-dependencies"].values() for line in extra]
    return {canonicalize_name(r.name): r for r in map(Requirement, listed)
            if canonicalize_name(r.name) != "scorekeeper"}


def pinned() -> dict[str, str]:
    pins = {}
    for line in CONSTRAINTS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[canonicalize_name(name)] = version
    return pins


def installed_for_the_tests() -> dict[str, str]:
    """Every distribution the app and its tests need, and its version here."""
    found, todo, walked = {}, [Requirement("scorekeeper[test]")], set()
    while todo:
        requirement = todo.pop()
        name = canonicalize_name(requirement.name)
        # The same distribution again with other extras (the tests' own
        # `scorekeeper[replica]`) brings in what those extras need.
        if (name, frozenset(requirement.extras)) in walked:
            continue
        walked.add((name, frozenset(requirement.extras)))
        distribution = metadata.distribution(name)
        found[name] = distribution.version
        for line in distribution.requires or []:
            needed = Requirement(line)
            extras = requirement.extras or {""}
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in extras):
                todo.append(needed)
    del found["scorekeeper"]
    found.pop("pip", None)  # the installer, brought up to date by `make` itself
    return found


def test_the_versions_the_tests_run_with_are_the_ones_written_down():
    assert installed_for_the_tests().items() <= pinned().items()


def test_every_pin_is_within_the_projects_own_ranges():
    pins = pinned()
    for name, requirement in requirements().items():
        assert requirement.specifier.contains(pins[name], prereleases=True), (name, pins[name])


def test_every_install_of_the_makefile_takes_the_pinned_versions():
    for target in ("run", "test", "check", "restore", "run FLASK_REPLICA=/a/folder"):
        commands = subprocess.run(["make", "-n", "-B", *target.split()], cwd=ROOT,
                                  capture_output=True, text=True, timeout=30, check=True).stdout
        # A continued line (the pure openskill's download) is one command.
        for command in commands.replace("\\\n", " ").splitlines():
            if ("pip install" in command or "pip download" in command) and \
                    "--upgrade pip" not in command and ".whl" not in command:
                assert "-c constraints.txt" in command, (target, command)


def test_flask_is_one_where_a_view_may_raise_its_own_body_limit():
    """The import's view sets request.max_content_length, which only Flask
    3.1 lets a view set (before, a read-only property)."""
    flask = requirements()["flask"]
    assert not flask.specifier.contains("3.0.3") and flask.specifier.contains("3.1.0")
    assert Request.max_content_length.fset is not None


def test_waitress_is_bounded_below_a_version_its_internals_were_not_checked_with():
    """scorekeeper/web/guard/server.py subclasses waitress's parser, channel and
    server, which a new minor version may change without notice."""
    waitress = requirements()["waitress"]
    assert waitress.specifier.contains(metadata.version("waitress"))
    assert not waitress.specifier.contains("3.1.0")
