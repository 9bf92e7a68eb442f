"""A resume's blocks to ``contentJson``: the header, the section headings, the sections.

Headings. A block is a heading when it has a heading's shape (short, one line, not a bullet, no
date, address or sentence punctuation) and either names a known section (``words.section_of``) and
stands out (bold, larger than the body text, capitals, a Word heading style), or looks exactly like
such a heading (``Block.signature``: style, size, weight, slant, colour) without naming a known
section: that is a custom section, titled as printed.

Columns. A two-column PDF reads column by column on each page, so a column continued from the page
before starts without its heading. When the headings start at more than one place across the page
(columns, ``COLUMN_GAP`` apart), a block belongs to the latest heading of its column: the rightmost
column that starts at or left of the block. In a single column it belongs to the latest heading.

The order of the sections becomes ``sectionOrder`` when the headings stand in one column in one
look (a sidebar's sections read first whatever order they were given).

The header is what comes before the first heading, plus sections headed "Contact" (a sidebar's
details); it holds the name (Word's Title, else the largest text), the label (a job title under
it), e-mail, phone, address, web site and profiles, and a summary when it is long text.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from app.importing import dates, entries, records, words
from app.importing.layout import Block, blocks as make_blocks, is_cjk

COLUMN_SLACK = 15.0     # points a block may start left of its column's heading
COLUMN_GAP = 50.0       # points between the left edges of headings of two columns
SENTENCE_END = (".", "。", "!", "！", "?", "？", ";", "；", ",", "，")
QUIET_HEADINGS = 3  # sections named, in one look, by lines that do not stand out
_EMAIL = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
_URL = re.compile(r"(?:https?://|www\.)[^\s|,;，；]+|(?<![@\w.])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|me|cn|co|uk|de|"
                  r"app|ai|info|page|site|xyz|tech|blog)(?:/[^\s|,;，；]*)?(?![\w@])", re.IGNORECASE)
# "GitHub: ewhitfield", "GitHub: https://github.com/ewhitfield", "GitHub: ewhitfield (https://github.com/ewhitfield)"
_PROFILE = re.compile(r"^(?P<network>[^:：()（）]{2,30}?)(?:[:：]\s*|\s+(?=https?://))(?P<value>[^()（）]+?)?\s*"
                      r"(?:[(（]\s*(?P<url>[^()（）\s]+)\s*[)）])?$")
_PHONE = re.compile(r"^\+?[\d\s().\-/]{7,}$|^[(（]\+\d{1,3}[)）][\d\s().\-/]{6,}$")
_SEPARATORS = re.compile(r"\s+[|•·●◦/｜]\s+|\s*[|｜•●◦]\s*|\s{3,}|\s+[–—-]\s+(?=\S*[@\d+])")
_ADDRESS_HINTS = re.compile(r"\d|,|，|路|街|号|区|市|省|县|镇|村|道|巷|弄|大厦|园区|road|street|\bst\b|avenue|\bave\b|lane|"
                            r"boulevard|drive|square|city|\bcounty\b|remote", re.IGNORECASE)
NETWORKS = {"github.com": "GitHub", "gitlab.com": "GitLab", "linkedin.com": "LinkedIn", "twitter.com": "Twitter",
            "x.com": "X", "stackoverflow.com": "Stack Overflow", "medium.com": "Medium", "behance.net": "Behance",
            "dribbble.com": "Dribbble", "gitee.com": "Gitee", "zhihu.com": "知乎", "weibo.com": "微博",
            "juejin.cn": "掘金", "bitbucket.org": "Bitbucket", "kaggle.com": "Kaggle", "youtube.com": "YouTube",
            "instagram.com": "Instagram", "facebook.com": "Facebook", "mastodon.social": "Mastodon"}

NETWORK_ALIASES = {"码云": "gitee.com", "领英": "linkedin.com", "推特": "twitter.com", "知乎": "zhihu.com",
                   "微博": "weibo.com", "掘金": "juejin.cn"}


@dataclass
class Section:
    key: str                     # a content key, "summary", "contact" or "custom"
    title: str
    heading: Block | None
    blocks: list[Block] = field(default_factory=list)


def parse(lines: list[dict], notes: list[dict] | None = None) -> dict:
    """``contentJson`` (sparse: only what was found) from ``extract``'s lines. What the reading was
    unsure of is added to ``notes``, each ``{"path", "reason", "text"}``: "order" (a job title and
    employer, or degree and school, told apart by their order alone), "no_dates", "year_only" (dates
    printed without months, read as January), "custom_section" (a
    heading no section's words name), "unplaced" (header text that fitted no field; its path is
    "personalInfo") and "not_found" (no name, or no e-mail address)."""
    notes = [] if notes is None else notes
    blocks = make_blocks(lines)
    if not blocks:
        return {}
    body = _body_size(blocks)
    heads = _headings(blocks, body)
    header, sections = _sections(blocks, heads)
    content: dict = {}
    personal = _personal(header, [s for s in sections if s.key == "contact"], notes)
    if not (personal.get("email") and personal.get("phone")):
        _contact_elsewhere(personal, sections)
    _entries_home(sections)
    for key in ("name", "email"):
        if not personal.get(key):
            notes.append({"path": f"personalInfo.{key}", "reason": "not_found", "text": ""})
    summary = [b for s in sections if s.key == "summary" for b in s.blocks]
    if summary:
        personal["summary"] = "\n".join(entries.paragraphs(summary))
    content["personalInfo"] = personal
    order: list[str] = []
    body_look = entries.body_look([b for s in sections for b in s.blocks]) or entries.body_look(blocks)
    for section in sections:
        if section.key in ("summary", "contact"):
            continue
        key = "customSections" if section.key == "custom" else section.key
        if key == "customSections":
            notes.append({"path": f"customSections.{len(content.get(key, []))}", "reason": "custom_section",
                          "text": section.title})
        records.read_section(content, key, section.title, section.blocks, body_look, notes)
        if key not in order:
            order.append(key)
    if order and _one_column(sections):
        content["sectionOrder"] = order
    return content


def _one_column(sections: list[Section]) -> bool:
    """Whether the sections read in the order their owner chose: one column of headings of one look.
    A sidebar (headings further left, or in a look of their own) reads first whatever the order."""
    headings = [s.heading for s in sections]
    return len(_columns(headings)) < 2 and len({h.signature for h in headings}) < 2


# --- headings ---------------------------------------------------------------------------------------

def _body_size(blocks: list[Block]) -> float:
    sizes: Counter = Counter()
    for block in blocks:
        sizes[block.size] += len(block.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_shape(block: Block) -> bool:
    text = block.text.rstrip(":：").strip()
    if block.bullet or not (2 <= len(text) <= 60) or len(block.cells) > 2:
        return False
    if text.endswith(SENTENCE_END) or _EMAIL.search(text) or _URL.search(text) or dates.find_period(text):
        return False
    cjk = sum(1 for char in text if is_cjk(char))
    latin_words = len(re.findall(r"[A-Za-z]+", text))
    return latin_words <= 6 and cjk <= 16 and not text[0].isdigit()


def _stands_out(block: Block, body: float) -> bool:
    letters = [char for char in block.text if char.isalpha() and not is_cjk(char)]
    return (block.bold or block.size >= body + 1.0 or (block.level is not None and block.level >= 1)
            or "heading" in block.style.lower() or (len(letters) > 2 and all(c.isupper() for c in letters)))


def _case(text: str) -> str:
    """"upper" for a text in capitals, "none" for one with (almost) no Latin letters or with Chinese in it
    (a bilingual heading's English half is the user's own: "技术分享 Talks"), else "mixed"."""
    letters = [char for char in text if char.isalpha() and not is_cjk(char)]
    if len(letters) <= 2 or any(is_cjk(char) for char in text):
        return "none"
    return "upper" if all(char.isupper() for char in letters) else "mixed"


def _headings(blocks: list[Block], body: float) -> dict[int, str]:
    """Index of each heading block → its section key ("custom" for one the words do not name)."""
    found: dict[int, str] = {}
    quiet: dict[tuple, list[tuple[int, str]]] = {}
    for block in blocks:
        key = words.section_of(block.text) if _heading_shape(block) else None
        if key and block.level != 0:
            if _stands_out(block, body):
                found[block.index] = key
            else:
                quiet.setdefault(block.signature, []).append((block.index, key))
    for group in quiet.values():
        if len({key for _index, key in group}) >= QUIET_HEADINGS:
            # Headings set no larger or bolder than the text (a theme's small grey "简介", "技能"...):
            # several lines of one look, each alone and each naming a different section, are headings.
            found.update(group)
    looks = Counter(blocks[index].signature for index in found)
    if looks and looks.most_common(1)[0][1] >= 2:
        # Most headings share one look: a lone known word in a smaller look that many other lines have
        # too is an entry's title ("Open Source" under Interests, in the look of every entry title), not
        # a heading, and its look must not make every entry title a heading. (A sidebar's headings have
        # a look of their own, which no entry shares.)
        main = looks.most_common(1)[0][0]
        every = Counter(block.signature for block in blocks)
        for index in [i for i in found if looks[blocks[i].signature] == 1
                      and blocks[i].signature[1:2] < main[1:2] and every[blocks[i].signature] >= 3]:
            del found[index]
    # A look is the signature and whether the text is in capitals: "WORK EXPERIENCE" and the job title
    # "Senior Developer" below it may both be bold 10 pt plain paragraphs (a job site's DOCX export).
    cases: dict[tuple, set[str]] = {}
    for index in found:
        cases.setdefault(blocks[index].signature, set()).add(_case(blocks[index].text))
    first = min(found, default=len(blocks))
    named = dict(found)    # the headings named by their words
    for block in blocks:
        if block.index in found or block.index == 0 or not _heading_shape(block) or block.level == 0:
            continue
        seen = cases.get(block.signature, set())
        case = _case(block.text)
        if (seen and (case == "none" or "none" in seen or case in seen)) or (block.level == 1 and block.index > first):
            if block.level is None and _entry_title(blocks, block, named):
                continue
            found[block.index] = words.section_of(block.text) or "custom"
    return found


ENTRY_SECTIONS = ("workExperience", "education", "projects", "volunteer", "awards", "certificates", "publications")


def _entry_title(blocks: list[Block], block: Block, named: dict[int, str]) -> bool:
    """Whether a line in the look of the headings is an entry's title rather than a section's: it stands
    in a section of entries, under a heading named by its words, and a date follows within two lines
    ("科罗拉多大学博尔德分校" / "2006.08 – 2010.05", bold like the sidebar's headings)."""
    above = [index for index in named if index < block.index]
    if not above or words.section_of(block.text) or named[max(above)] not in ENTRY_SECTIONS:
        return False
    return any(dates.find_period(b.text) for b in blocks[block.index + 1:block.index + 3])


# --- sections -----------------------------------------------------------------------------------------

def _sections(blocks: list[Block], heads: dict[int, str]) -> tuple[list[Block], list[Section]]:
    header: list[Block] = []
    sections: list[Section] = []
    columns = _columns([blocks[index] for index in heads])
    # On a PDF's first page, what stands above every heading is the header, in whatever order it was
    # drawn (LibreOffice draws a frame holding the name and contact details after the body).
    tops = [blocks[index].top for index in heads if blocks[index].page == 1]
    ceiling = min(tops) if tops else 0.0
    for block in blocks:
        if block.index in heads:
            sections.append(Section(heads[block.index], block.text.rstrip(":：").strip(), block))
            continue
        if ceiling > 0 and block.page == 1 and block.bottom <= ceiling:
            header.append(block)
            continue
        section = _column_section(block, sections, columns)
        (section.blocks if section is not None else header).append(block)
    return header, sections


LIST_SECTIONS = ("skills", "languages", "interests")


def _entries_home(sections: list[Section]) -> None:
    """Entries under a section of short items, while the section of entries above it is empty, belong to
    that one: a DOCX whose sidebar (a text box) is anchored between the "Experience" heading and the
    jobs reads "Experience", the sidebar's "Skills" and its items, then the jobs. The entries start at
    the first line followed by a date."""
    for empty, after in zip(sections, sections[1:]):
        if empty.key not in ENTRY_SECTIONS or empty.blocks or after.key not in LIST_SECTIONS:
            continue
        for index, block in enumerate(after.blocks[:-1]):
            if not block.bullet and dates.is_date_text(after.blocks[index + 1].text) \
                    and not dates.find_period(block.text):
                empty.blocks, after.blocks = after.blocks[index:], after.blocks[:index]
                break


def _columns(headings: list[Block]) -> list[float]:
    """Where the columns of headings start: their left edges, grouped when less than
    ``COLUMN_GAP`` apart (one value for a single-column resume)."""
    starts: list[float] = []
    for x0 in sorted(h.x0 for h in headings):
        if not starts or x0 - starts[-1] > COLUMN_GAP:
            starts.append(x0)
    return starts


def _column_section(block: Block, sections: list[Section], columns: list[float]) -> Section | None:
    if not sections:
        return None
    if len(columns) < 2:
        return sections[-1]
    column = max((start for start in columns if start <= block.x0 + COLUMN_SLACK), default=None)
    if column is None:
        return sections[-1]
    mine = [s for s in sections if _column_of(s.heading.x0, columns) == column]
    return mine[-1] if mine else sections[-1]


def _column_of(x0: float, columns: list[float]) -> float:
    return max((start for start in columns if start <= x0), default=columns[0])


# --- the header ---------------------------------------------------------------------------------------

def _personal(header: list[Block], contact: list[Section], notes: list[dict]) -> dict:
    personal: dict = {}
    blocks = list(header)
    name_block = _name_block(blocks)
    if name_block is not None:
        personal["name"] = name_block.text
        blocks = [b for b in blocks if b is not name_block]
    details = blocks + [b for section in contact for b in section.blocks]
    summary: list[str] = []
    loose: list[tuple[Block, str, bool]] = []   # (block, text, shares its block with contact details)
    network = None          # a network's name alone on a line ("GitHub"): the account follows
    code = ""               # a country calling code alone: the phone number follows
    for block in details:
        title = words.headline(block.text)
        if title is not None:
            personal.setdefault("label", title)
            continue
        if network is not None and not _kind(block.text):
            personal.setdefault("profiles", []).append({"network": network, "username": block.text})
            network = None
            continue
        network = block.text if _known_network(block.text) else None
        if network is not None:
            continue
        items = _items(block)
        known = [item for item in items if _kind(item) or _COUNTRY_CODE.match(item)]
        if not known and not _is_summary(block.text):
            items = [words.strip_label(block.text) or block.text]   # one detail: "/" and "·" are its own
        for item in items:
            if _COUNTRY_CODE.match(item):
                code = item         # "(+86)" at a line's end, its number wrapped onto the next
                continue
            kind = _kind(item)
            if kind == "phone" and code:
                item, code = f"{code} {item}", ""
            if kind:
                _put(personal, kind, item)
            elif _is_summary(item):
                summary.append(item)
            elif not words.is_label(item):
                loose.append((block, item, bool(known)))
    if summary and "summary" not in personal:
        personal["summary"] = "\n".join(summary)
    for block, text, with_details in loose:
        after_name = name_block is not None and block.index == name_block.index + 1
        if not with_details and "label" not in personal and (after_name or words.position_score(text) > 0) \
                and not _ADDRESS_HINTS.search(text):
            personal["label"] = text
        elif "address" not in personal:
            personal["address"] = text
        elif "label" not in personal:
            personal["label"] = text
        else:
            notes.append({"path": "personalInfo", "reason": "unplaced", "text": text})
    return personal


def _contact_elsewhere(personal: dict, sections: list[Section]) -> None:
    """An e-mail address or phone the header lacks, from a line of contact details printed below it
    (a footer: moderncv's casual style, pandoc's templates), taken out of the section it fell in. A
    referee's details stay with the referee."""
    for section in sections:
        if section.key in ("references", "contact"):
            continue
        for block in list(section.blocks):
            items = _items(block)
            kinds = [_kind(item) for item in items]
            if block.bullet or not {"email", "phone"} & set(kinds) or any(len(item) > 50 for item in items):
                continue
            wanted = [(kind, item) for kind, item in zip(kinds, items)
                      if kind in ("email", "phone") and not personal.get(kind)]
            if not wanted:
                continue
            for kind, item in zip(kinds, items):
                if kind:
                    _put(personal, kind, item)
            at = section.blocks.index(block)
            before = section.blocks[:at]
            if not personal.get("name") and 1 <= len(before) <= 2 and all(_header_like(b) for b in before):
                # The header itself landed in a section (Word text boxes come in the order they were
                # anchored, not where they stand): the name and the headline before the details.
                personal["name"] = before[0].text
                if len(before) == 2:
                    personal.setdefault("label", before[1].text)
                del section.blocks[:at]
            section.blocks.remove(block)


def _header_like(block: Block) -> bool:
    text = block.text
    return not block.bullet and 2 <= len(text) <= 60 and not _kind(text) and not dates.find_period(text) \
        and not text.endswith(SENTENCE_END)


def _name_block(blocks: list[Block]) -> Block | None:
    titled = [b for b in blocks if b.level == 0]
    if titled:
        return titled[0]
    candidates = [b for b in blocks[:6] if not _kind(b.text) and len(b.text) <= 80 and not b.bullet]
    if not candidates:
        return None
    return max(candidates, key=lambda b: (b.size, -b.index))


# An icon before a detail: a glyph read as a letter or two ("ć john@x.com"), or the icon's name when a
# LaTeX icon font puts it in the text ("Envelope jake@su.edu", "MOBILE-ALT 123-456-7890").
_ICON = re.compile(r"^(?:\S{1,2}|[A-Za-z][A-Za-z-]{2,19})\s+(\S.*)$")
_COUNTRY_CODE = re.compile(r"^[(（]?\+\d{1,3}[)）]?$")
_LINK_SCHEME = re.compile(r"^(?:mailto|tel|callto):\s*", re.IGNORECASE)


def _items(block: Block) -> list[str]:
    """The details of a header line: cells, split at separators (" | ", " • ", " · ", " / "),
    each without its label ("Email:", "电话 Phone")."""
    items = []
    for cell in block.cells:
        text = " ".join(f.text.strip() for f in cell if f.text.strip())
        parts = _SEPARATORS.split(text)
        if _EMAIL.search(text):     # "上海·(+86) 138-0013-8000·zhang.wei@email.com": a middle dot, unspaced
            parts = [piece for part in parts for piece in part.split("·")]
        for part in parts:
            part = _LINK_SCHEME.sub("", part.strip(" |·•/"))
            if not part:
                continue
            stripped = _LINK_SCHEME.sub("", words.strip_label(part) or part)
            icon = _ICON.match(stripped)
            if icon and not _kind(stripped):
                icon_text = _LINK_SCHEME.sub("", icon.group(1))
                if _kind(icon_text) or _COUNTRY_CODE.match(icon_text):
                    stripped = icon_text  # an icon font's glyph before it, read as a letter: "ć john@x.com"
            items.append(stripped)
    return items


def _kind(text: str) -> str | None:
    text = text.strip()
    if _EMAIL.fullmatch(text):
        return "email"
    if _PHONE.match(text) and sum(c.isdigit() for c in text) >= 7 and not dates.find_period(text):
        return "phone"
    profile = _PROFILE.match(text)
    if profile and (profile.group("url") or _URL.fullmatch(profile.group("value") or "")
                    or _known_network(profile.group("network"))):
        return "profile"
    if _URL.fullmatch(text):
        return "url"
    return None


def _network_host(name: str) -> str | None:
    """The web host of a network named as people name it ("GitHub", "github", "码云"), or None."""
    lowered = name.strip().lower()
    for host, network in NETWORKS.items():
        if lowered in (network.lower(), host.split(".")[0]):
            return host
    return NETWORK_ALIASES.get(lowered)


def _known_network(name: str) -> bool:
    return _network_host(name) is not None


def _is_summary(text: str) -> bool:
    return len(text) >= 80 or (len(text) >= 30 and text.endswith(SENTENCE_END[:6]))


def _put(personal: dict, kind: str, text: str) -> None:
    if kind in ("email", "phone"):
        personal.setdefault(kind, text)
        return
    if kind == "profile":
        found = _PROFILE.match(text)
        profile = {"network": found.group("network").strip()}
        value, url = (found.group("value") or "").strip(), found.group("url")
        if url is None and _URL.fullmatch(value):
            value, url = "", value
        if url:
            profile["url"] = _absolute(url)
        profile["username"] = value or (_username(profile["url"]) if url else "")
        personal.setdefault("profiles", []).append(profile)
        return
    url = _absolute(text)
    host = re.sub(r"^https?://(www\.)?", "", url.lower()).split("/")[0]
    for profile in personal.get("profiles", []):
        if not profile.get("url") and _network_host(profile["network"]) == host:
            profile["url"] = url        # the address of an account named above it
            return
    if host in NETWORKS and "url" in personal:
        personal.setdefault("profiles", []).append({"network": NETWORKS[host], "username": _username(url),
                                                    "url": url})
    elif "url" not in personal and host not in NETWORKS:
        personal["url"] = url
    else:
        personal.setdefault("profiles", []).append({"network": NETWORKS.get(host, host), "username": _username(url),
                                                    "url": url})


def _absolute(url: str) -> str:
    return url if re.match(r"^https?://", url, re.IGNORECASE) else f"https://{url}"


def _username(url: str) -> str:
    path = re.sub(r"^https?://[^/]+/?", "", url).strip("/").split("/")
    if path and path[0] in ("in", "u", "user", "users", "people") and len(path) > 1:
        return path[1]
    return path[0] if path and path[0] else ""
