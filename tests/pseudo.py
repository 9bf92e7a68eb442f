"""The pseudo-language of the pseudo-locale tests (tests/test_pseudo_locale.py, tests/browser/
test_pseudo_locale_pages.py): every message of the catalogue as ⟦Šáṽéð⟧, so that words a reader would see
outside ⟦…⟧ are words that did not pass through the catalogue."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from app import i18n

# Letters swapped for look-alikes (still readable), placeholders, tags, entities and addresses kept.
_LOOK_ALIKES = str.maketrans("aceinorsuyAEIOUN", "áçéíñóŕšúýÁÉÍÓÚŃ")
_KEEP = re.compile(r"(%\(\w+\)s|\{\w+\}|<[^>]*>|&\w+;|https?://\S+)")
_INNERMOST = re.compile(r"⟦[^⟦⟧]*⟧")
_WORD = re.compile(r"[A-Za-z]{2,}")


def pseudo(text: str) -> str:
    return "⟦" + "".join(part if _KEEP.fullmatch(part) else part.translate(_LOOK_ALIKES)
                         for part in _KEEP.split(text)) + "⟧"


def unmarked(text: str, data: tuple[str, ...] = ()) -> list[str]:
    """The words of ``text`` outside every ⟦…⟧ and outside the person's own data."""
    text = re.sub(r"https?://\S+", " ", text)  # an address is not words
    for value in data:
        text = text.replace(value, " ")
    while True:
        stripped = _INNERMOST.sub(" ", text)
        if stripped == text:
            return _WORD.findall(text)
        text = stripped


class _Visible(HTMLParser):
    """The text a reader meets in a page: text nodes and the attributes read aloud or shown."""
    SKIPPED = {"script", "style", "code"}
    READ = ("title", "aria-label", "placeholder", "alt", "data-preview", "data-form", "data-title")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        skip = tag in self.SKIPPED or attributes.get("translate") == "no"
        if not skip and not self._skipping():
            self.found.extend(f"{tag}[{name}]={attributes[name]}" for name in self.READ if attributes.get(name))
            if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
                self.found.append(f"{tag}[value]={attributes['value']}")
        if tag not in ("br", "hr", "img", "input", "meta", "link", "source", "wbr"):
            self.stack.append((tag, skip))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if data.strip() and not self._skipping():
            self.found.append(data.strip())


def visible(html: str) -> list[str]:
    parser = _Visible()
    parser.feed(html)
    return parser.found


def problems(html: str, data: tuple[str, ...] = ()) -> list[str]:
    return [text for text in visible(html) if unmarked(text.split("]=", 1)[-1], data)]



def write_pseudo_catalogue(root: Path) -> Path:
    """The template's every message, translated into the pseudo-language, as the ``zh`` catalogue of the
    translations folder ``root`` (so a ``zh-cn`` account, or ``Accept-Language: zh``, reads it)."""
    with (i18n.TRANSLATIONS / "messages.pot").open("rb") as source:
        template = read_po(source)
    catalogue = Catalog(locale="zh", fuzzy=False)
    for message in template:
        if message.id:
            catalogue.add(message.id, pseudo(message.id), message.locations, context=message.context)
    path = i18n.catalogue_path("zh", root)
    path.parent.mkdir(parents=True)
    with path.open("wb") as out:
        write_po(out, catalogue)
    i18n.compile_catalogues(root)
    return root
