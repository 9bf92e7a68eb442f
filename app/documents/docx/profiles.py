"""DOCX style profiles: each template's Word layout, and one derived from any template's CSS.

A template row has no "layout" key and ``Source`` no name, so the profile is found
from the template itself:

1. The design: the template's root element names it, ``<div class="resume horizon">``
   (all shipped templates do). A name in ``DESIGNS`` picks that design's layout and
   decorations; any other name, or none, gets the clean single-column "ruled"
   layout, so a new template has a sensible DOCX with no code.
2. The typography comes from the CSS for every template, known or not
   (``css_profile``): the body's font family (to a family Word has, see
   ``docx_fonts``), serif or sans, sizes and colours, whether the header is centred,
   and the section titles' case, small caps, letter spacing and rule.
3. The sections' titles come from the HTML (``template_sections``): the first
   heading in the template's own words inside each section's block (an ``<h2>``, a
   macro call with literal arguments, or a call's literal argument), so "Selected
   Projects" or "工作经历 Experience" carry over; the sections come in the resume's
   ``sectionOrder``. A two-column template's sidebar sections come from its
   ``{% set side_keys = [...] %}`` when it has one (``template_sidebar``).

Adding a profile for a new template: its root element names it
(``<div class="resume orbit">``); add ``"orbit": dict(layout=..., ...)`` to
``DESIGNS`` with the ``Profile`` fields its design needs (``layout`` is one of
``LAYOUTS``, see ``docx_layouts``; ``titles`` fixes headings the HTML does not
give plainly). Fields left out keep the CSS-derived values. Check it with
tests/documents/test_docx_layouts.py, which runs over every seed template.
The name is a stable key as long as the root class is; if ``Source`` ever carries
the template's name, ``design_of`` is the one place to change.
"""
from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, replace

from app.content import language
from app.content.sections import BODY_SECTIONS
from app.documents import words
from app.documents.docx import fonts

LAYOUTS = ("stacked", "ruled", "timeline", "columns")
SECTION_KEYS = BODY_SECTIONS
DEFAULT_TITLES = {**words.HEADINGS["en"], "customSections": "More"}  # the headings in English


@dataclass(frozen=True)
class Profile:
    """How a template looks in Word. Colours are hex "RRGGBB"; "accent" means the export's accent."""
    design: str = "plain"
    layout: str = "ruled"               # one of LAYOUTS
    latin_font: str = "Calibri"
    east_asian_font: str = fonts.CJK_SANS
    serif: bool = False
    text: str = "1F2937"
    muted: str = "4B5563"
    body_size: float = 10.5
    name_size: float = 24
    name_bold: bool = True
    name_small_caps: bool = False
    name_spacing: float = 0             # letter spacing, points
    centred: bool = False               # the header (name and contact line) centred
    # "rule" (short accent rule), "double" (double accent rule), "stripe" (accent bar left of it),
    # "banner" (accent band)
    header: str = "none"
    contact_sep: str = " | "
    contact_italic: bool = False
    heading_size: float = 11.5
    heading_caps: bool = False
    heading_small_caps: bool = False
    heading_spacing: float = 0
    heading_rule: str | None = "accent"  # colour of the line under section titles, or None
    heading_marker: bool = False        # an accent block left of section titles
    skills: str = "line"                # "line" (joined by " · "), "list", chips: "filled", "outline"
    tags: str = "text"                  # technologies: "text", "stack" (a / b), chips: "grey", "outline"
    summary_box: str | None = None      # fill of a box around the summary, or None
    justify: bool = False               # summary justified
    org_first: bool = False             # entries lead with the organisation, the role below it
    # a job's description lines as bullets: "always", "multi" (when there are several), "never" (paragraphs)
    descriptions: str = "multi"
    titles: tuple = ()                  # (section, title) pairs replacing those read from the HTML
    # "columns": the sidebar's blocks, any body section but customSections (the others: the main column)
    sidebar: tuple = ("contact", "skills", "education")
    sidebar_fill: str = "F1F4F8"        # "columns": the sidebar's shading ("tint": a pale accent)


# The shipped designs (see migrations/seed/templates_v2/*.html and .css).
DESIGNS: dict[str, dict] = {
    # Modern sans: the name in the accent above a short accent rule, spaced capitals for section
    # titles over a grey hairline, dates under each entry, outlined skill chips, grey tags.
    "horizon": dict(layout="stacked", header="rule", skills="outline", tags="grey",
                    descriptions="always"),
    # Classic serif: centred small-caps name over a double rule, small-caps titles ruled in the
    # accent, organisation left and dates right on one line, the role in italics.
    "heritage": dict(layout="ruled", header="double", centred=True, name_bold=False, name_small_caps=True,
                     contact_sep="  \u2022  ", contact_italic=True, org_first=True, justify=True),
    # Executive two columns: an accent banner, then a shaded sidebar (contact, skills, education)
    # beside the main column (profile, experience, projects).
    "meridian": dict(layout="columns", header="banner", skills="list", tags="stack",
                     titles=(("summary", "Profile"), ("workExperience", "Work Experience"))),
    # Creative: an accent stripe by the name, the summary in a tinted box, accent markers before
    # titles, a timeline (dates left, in the accent), filled skill chips and outlined tags.
    "canvas": dict(layout="timeline", header="stripe", contact_sep="  /  ", heading_marker=True,
                   skills="filled", tags="outline", summary_box="F7F5F2", descriptions="never"),
    # Templates v3. Atlas: an accent banner holding name and contact, a sidebar (skills, education)
    # beside the main column. Jinghua (Chinese resumes): organisation first, accent bars by the titles.
    "atlas": dict(layout="columns", header="banner", skills="list", tags="stack",
                  sidebar=("skills", "education"), sidebar_fill="tint"),
    "jinghua": dict(layout="ruled", org_first=True, heading_marker=True, contact_sep="  |  "),
}


# --- CSS -------------------------------------------------------------------------------------------

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_RULE = re.compile(r"([^{}@]+)\{([^{}]*)\}")
_HEX = re.compile(r"#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b")


def _rules(css: str) -> list[tuple[list[str], dict[str, str]]]:
    css = re.sub(r"@[\w-]+[^{]*\{[^{}]*\}", "", _COMMENT.sub("", css))   # @page and the like
    rules = []
    for selectors, body in _RULE.findall(css):
        declarations = {}
        for declaration in body.split(";"):
            name, _, value = declaration.partition(":")
            if value.strip():
                declarations[name.strip().lower()] = value.replace("!important", "").strip()
        rules.append(([s.strip() for s in selectors.split(",")], declarations))
    return rules


def _value(rules, selector: str, prop: str) -> str | None:
    """The last value of ``prop`` in a rule one of whose selectors ends in ``selector``."""
    glued = "|[a-z0-9]" if selector.startswith(".") else ""   # "h2.section-title", but not "tbody"
    pattern = re.compile(rf"(^|[\s>+~]{glued})({re.escape(selector)})$")
    found = None
    for selectors, declarations in rules:
        if prop in declarations and any(pattern.search(s) for s in selectors):
            found = declarations[prop]
    return found


def _first(rules, selectors: tuple[str, ...], prop: str) -> str | None:
    """The value for the first of ``selectors`` (a class, then the element it is usually on) that has one."""
    return next((v for v in (_value(rules, s, prop) for s in selectors) if v), None)


def _points(value: str | None, base: float, default: float) -> float:
    """A CSS length or font size in points (pt, px, em, rem, %)."""
    match = re.match(r"^\s*(-?[\d.]+)\s*(pt|px|em|rem|%)?", value or "")
    if not match:
        return default
    number, unit = float(match.group(1)), match.group(2) or "px"
    return round({"pt": number, "px": number * 0.75, "em": number * base, "rem": number * base,
                  "%": number * base / 100}[unit], 1)


def _hex(value: str | None, default: str) -> str:
    match = _HEX.search(value or "")
    if not match:
        return default
    colour = match.group(1)
    return (colour if len(colour) == 6 else "".join(c * 2 for c in colour)).upper()


def _readable(colour: str, default: str) -> str:
    """``colour`` if text in it shows on white paper; the template may have meant it for a dark band
    (white on an accent banner), which the Word layout may not draw behind it."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return colour if 0.2126 * red + 0.7152 * green + 0.0722 * blue < 170 else default


def css_profile(css: str) -> Profile:
    """The typography of a template, read from its CSS (fonts, sizes, colours, title styling)."""
    rules = _rules(css or "")
    family = _value(rules, "body", "font-family") or _value(rules, "html", "font-family") or ""
    serif = fonts.is_serif(family)
    body = _points(_value(rules, "body", "font-size"), 10.5, 10.5)
    title = {prop: _first(rules, (".section-title", "h2"), prop) or "" for prop in
             ("font-size", "text-transform", "font-variant", "letter-spacing", "border-bottom",
              "border-bottom-style", "border-bottom-color")}
    ruled = bool(title["border-bottom"] or title["border-bottom-style"]) and "none" not in title["border-bottom"]
    name = {prop: _first(rules, (".name", "h1"), prop) or "" for prop in
            ("font-size", "font-weight", "font-variant", "letter-spacing", "text-align")}
    centred = "center" in (_value(rules, ".header", "text-align") or "") + name["text-align"]
    return Profile(
        latin_font=fonts.latin_font(family, "Cambria" if serif else "Calibri"),
        east_asian_font=fonts.east_asian_font(family, serif),
        serif=serif,
        text=_readable(_hex(_value(rules, "body", "color"), "1F2937"), "1F2937"),
        muted=_readable(_hex(_value(rules, ".contact", "color"), "4B5563"), "4B5563"),
        body_size=body,
        name_size=min(_points(name["font-size"], body, 24), 36),
        name_bold=name["font-weight"] not in ("normal", "400", "300", "lighter"),
        name_small_caps="small-caps" in name["font-variant"],
        name_spacing=_points(name["letter-spacing"], body, 0),
        centred=centred,
        heading_size=_points(title["font-size"], body, 11.5),
        heading_caps="uppercase" in title["text-transform"],
        heading_small_caps="small-caps" in title["font-variant"],
        heading_spacing=_points(title["letter-spacing"], body, 0),
        heading_rule=(_hex(title["border-bottom"] + " " + title["border-bottom-color"], "accent")
                      if ruled else None),
    )


def design_of(html_template: str) -> str | None:
    """The design named by the template's root ``resume`` element, if ``DESIGNS`` knows it."""
    for classes in re.findall(r"class=\"([^\"]*\bresume\b[^\"]*)\"", html_template or ""):
        for name in re.sub(r"\{[{%].*?[%}]\}", " ", classes).split():  # {% if ... %} rtl{% endif %} aside
            if name in DESIGNS:
                return name
    return None


def profile_for(html_template: str, css: str) -> Profile:
    """The template's profile: its design's layout over its CSS typography (see the module docstring)."""
    base = css_profile(css)
    design = design_of(html_template)
    if design is None:
        return base
    profile = replace(base, design=design, **DESIGNS[design])
    side = template_sidebar(html_template) if profile.layout == "columns" else None
    if side is not None:     # the template's own column assignment (the contact block stays the design's)
        profile = replace(profile, sidebar=(*(("contact",) if "contact" in profile.sidebar else ()), *side))
    return profile


# --- sections --------------------------------------------------------------------------------------

_HEADING = re.compile(r"<h[1-6][^>]*>(.*?)</h[1-6]>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")
# A macro drawing the heading from literal strings: {{ heading("工作经历", "Experience") }}.
_LITERAL = r"(?:\"[^\"{}\\]*\"|'[^'{}\\]*')"
_MACRO = re.compile(rf"\{{\{{-?\s*\w+\(\s*({_LITERAL}(?:\s*,\s*{_LITERAL})*)\s*\)\s*-?\}}\}}")
# A call with a literal argument among others: {% call section(key, "Experience") %} or
# {{ entry("Experience" if loop.first, job.position, ...) }}: the first such literal with a letter.
_CALL = re.compile(r"(?:\{\{-?|\{%-?\s*call)\s*\w+\((?:[^{}]*?[(,])??\s*(" + _LITERAL
                   + r")\s*(?:if\s+loop\.first\s*)?[,)]")
# A heading drawn by section_title (templates v5): its default words, and the language they are in.
_SECTION_TITLE = re.compile(rf"section_title\(\s*[^,()]+,\s*({_LITERAL})(?:\s*,\s*({_LITERAL}))?\s*\)")
# A two-column template names its sidebar's sections: {% set side_keys = ["skills", "education"] %}.
_SIDE_KEYS = re.compile(r"\{%-?\s*set\s+side_keys\s*=\s*\[([^\]]*)\]")


def _static_heading(fragment: str) -> str | None:
    """The first heading of an HTML fragment in the template's own words (no Jinja in it): a
    ``section_title(key, "Experience")`` call's words (with the language they are in after a tab:
    "工作经历\tzh-Hans"), an ``<h2>``-like element, a macro call with literal arguments (their words
    joined), or the first literal argument (with a letter) of a call that has others."""
    titled = _SECTION_TITLE.search(fragment)
    if titled:
        words = " ".join(html_lib.unescape(titled.group(1)[1:-1]).split())
        return words + (f"\t{titled.group(2)[1:-1]}" if titled.group(2) else "")
    found = []
    for match in _HEADING.finditer(fragment):
        text = " ".join(html_lib.unescape(_TAG.sub(" ", match.group(1))).split())
        if text and "{" not in text and "%" not in text:
            found.append((match.start(), 0, text))
            break
    macro = _MACRO.search(fragment)
    if macro:
        words = [w[1:-1] for w in re.findall(_LITERAL, macro.group(1))]
        found.append((macro.start(), 1,
                      " ".join(" ".join(html_lib.unescape(w).split()) for w in words if w.strip())))
    for call in _CALL.finditer(fragment):
        text = " ".join(html_lib.unescape(call.group(1)[1:-1]).split())
        if re.search(r"[^\W\d_]", text):
            found.append((call.start(), 2, text))
            break
    return min(found)[2] if found else None


def template_sidebar(html_template: str) -> tuple[str, ...] | None:
    """The sections a two-column template puts in its sidebar (``side_keys``), if it names them."""
    match = _SIDE_KEYS.search(html_template or "")
    if not match:
        return None
    keys = [k[1:-1] for k in re.findall(_LITERAL, match.group(1))]
    return tuple(k for k in keys if k in SECTION_KEYS and k != "customSections")


def section_titles(html_template: str, titles: tuple, content: dict) -> dict[str, str]:
    """Each section's heading as the resume prints it: the template's (``template_sections``, then
    the design's ``titles``) through ``words.heading`` (the user's own, or the resume's language)."""
    found = {**dict(template_sections(html_template)), **dict(titles)}
    printed_in = language.of(content)
    headings = {}
    for key, title in found.items():
        title, _tab, written_in = (title or "").partition("\t")
        headings[key] = words.heading(key, title, printed_in, content.get("sectionTitles"),
                                      default_language=written_in or "en")
    return headings


def template_sections(html_template: str) -> list[tuple[str, str | None]]:
    """(section, title) in the template's order; "summary" first, with None if it has no heading.
    A title in a language other than English names it after a tab ("工作经历\tzh-Hans").

    A section is found by its ``{% if visible.<key> ... %}`` block (or an ``{% if``/``{% elif``
    whose condition names ``visible.<key>``, or is ``key == "<key>"`` in a loop over the
    sections), a summary by an ``{% if ... summary %}`` one; a
    section the template does not show that way follows the others in the default order, with its
    default title. The document shows the sections in the resume's ``sectionOrder``: the
    template gives their titles.
    """
    html_template = html_template or ""
    marks: list[tuple[int, str]] = []
    for key in SECTION_KEYS:
        match = re.search(rf"\{{%-?\s*(?:el)?if\s+(?:[^%]*?\bvisible\.{key}\b|key\s*==\s*[\"']{key}[\"'])",
                          html_template)
        if match:
            marks.append((match.start(), key))
    summary = re.search(r"\{%-?\s*if\s+[\w.]*summary\b", html_template)
    marks.sort()
    found: list[tuple[str, str | None]] = []
    positions = [p for p, _ in marks] + [len(html_template)]
    if summary:
        end = next((p for p in positions if p > summary.start()), len(html_template))
        found.append(("summary", _static_heading(html_template[summary.start():end])))
    else:
        found.append(("summary", DEFAULT_TITLES["summary"]))
    for index, (start, key) in enumerate(marks):
        found.append((key, _static_heading(html_template[start:positions[index + 1]]) or DEFAULT_TITLES[key]))
    shown = {key for key, _ in found}
    found += [(key, DEFAULT_TITLES[key]) for key in SECTION_KEYS if key not in shown]
    return found
