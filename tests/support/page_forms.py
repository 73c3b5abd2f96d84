"""Reading a page's forms and buttons the way a browser would, to drive the
HTML pages through the test client without JavaScript."""

from dataclasses import dataclass, field
from html.parser import HTMLParser

from werkzeug.datastructures import MultiDict


@dataclass
class Button:
    name: str | None
    value: str
    label: str
    disabled: bool
    attrs: dict


@dataclass
class Form:
    action: str
    method: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)


class _FormParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.current: Form | None = None
        self.button: Button | None = None
        self.select: list | None = None  # [name, first option, selected option]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            self.current = Form(attrs.get("action") or "", (attrs.get("method") or "get").lower())
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input" and attrs.get("name"):
            kind = attrs.get("type", "text")
            if kind in ("radio", "checkbox") and "checked" not in attrs:
                return
            self.current.fields.append((attrs["name"], attrs.get("value") or ""))
        elif tag == "select" and attrs.get("name"):
            self.select = [attrs["name"], None, None]
        elif tag == "option" and self.select is not None:
            value = attrs.get("value", "")
            if self.select[1] is None:
                self.select[1] = value
            if "selected" in attrs:
                self.select[2] = value
        elif tag == "button":
            # Off: disabled, or (the board's buttons, which say why when
            # tapped) aria-disabled.
            off = "disabled" in attrs or attrs.get("aria-disabled") == "true"
            self.button = Button(attrs.get("name"), attrs.get("value") or "", "", off, attrs)
            self.current.buttons.append(self.button)

    def handle_data(self, data):
        if self.button is not None:
            self.button.label += data

    def handle_endtag(self, tag):
        if tag == "select" and self.select is not None:
            name, first, selected = self.select
            self.current.fields.append((name, selected if selected is not None else first or ""))
            self.select = None
        elif tag == "button" and self.button is not None:
            self.button.label = " ".join(self.button.label.split())
            self.button = None
        elif tag == "form":
            self.current = None


def forms_of(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    return parser.forms


def find_button(html: str, value: str) -> tuple[Form, Button]:
    """The form holding the button that posts `value`, and the button."""
    for form in forms_of(html):
        for button in form.buttons:
            if button.value == value:
                return form, button
    raise AssertionError(f"no button with value {value!r}")


def press(client, page_url: str, value: str, extra: dict | None = None, **kwargs):
    """Load `page_url`, press the button that posts `value` (with `extra`
    fields set as a person would fill them in), and return the response."""
    html = client.get(page_url).get_data(as_text=True)
    form, button = find_button(html, value)
    assert not button.disabled, f"{value} is disabled"
    return submit(client, form, button, extra, **kwargs)


def submit(client, form: Form, button: Button | None = None, extra: dict | None = None, **kwargs):
    data = [(k, v) for k, v in form.fields if k not in (extra or {})]
    data += list((extra or {}).items())
    if button is not None and button.name:
        data.append((button.name, button.value))
    return client.post(form.action, data=MultiDict(data), **kwargs)
