"""Where a board's controls are, and the two phones, for the browser tests that check nothing moves."""

# Every control whose place is checked: the side buttons, then the actions.
CONTROLS = "#board .pad .button, #board .pad button, #board .actions button, #board .actions .button"
# Their places in the page (scrolled or not) and the page's width.
MEASURE = """sel => ({
  boxes: [...document.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    return [Math.round(r.x + scrollX), Math.round(r.y + scrollY), Math.round(r.width),
            Math.round(r.height)];
  }),
  width: document.documentElement.scrollWidth,
  // The phone's screen: a mobile page wider than it widens innerWidth too.
  viewport: screen.width,
})"""

PHONES = {"small": {"width": 360, "height": 640}, "tall": {"width": 390, "height": 844}}
