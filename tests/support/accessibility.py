"""axe-core on a page: no serious or critical violation, every control named."""

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
# What the dark theme changes is colours only (static/style.css: its
# `prefers-color-scheme: dark` blocks set colours and nothing else), so the
# rules whose verdict a theme can change are axe's colour rules: the text's
# contrast, and a link told from its text by colour alone.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def serious_violations(page, rules=None):
    """axe's serious and critical violations on the page as it is now (every
    rule, or only `rules`); axe is put in the page once per document."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)
    options = {"resultTypes": ["violations"]}
    if rules is not None:
        options["runOnly"] = {"type": "rule", "values": rules}
    results = page.evaluate("options => axe.run(document, options)", options)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def unnamed_controls(page):
    """Buttons, links and fields without an accessible name."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, a[href], input:not([type=hidden]), select, [role=link], [role=button]')]
        .filter(el => {
            const label = el.labels && el.labels.length ? el.labels[0].textContent : '';
            const name = el.getAttribute('aria-label') || label || el.textContent || el.title;
            return !name || !name.trim();
        }).map(el => el.outerHTML.slice(0, 80))""")


def check(page, where):
    assert serious_violations(page) == [], where
    assert unnamed_controls(page) == [], where


def check_both_themes(page, where):
    """Every rule in the light theme, then the colour rules in the dark one,
    on the same page: the page is left in the light theme."""
    page.emulate_media(color_scheme="light")
    check(page, where)
    page.emulate_media(color_scheme="dark")
    try:
        assert serious_violations(page, COLOUR_RULES) == [], (where, "dark")
    finally:
        page.emulate_media(color_scheme="light")
