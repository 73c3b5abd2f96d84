"""axe-core on a page: no serious or critical violation, every control named."""

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()


def serious_violations(page):
    results = AXE.run(page)
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
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
