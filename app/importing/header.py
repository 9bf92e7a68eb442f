"""A resume's header: the name, headline and contact details (``personal_info``), and those printed
elsewhere (``contact_elsewhere``).

The header is what ``structure`` found before the first heading, plus sections headed "Contact" (a
sidebar's details). It holds the name (Word's Title, else the largest text), the label (a job title
under it), e-mail, phone, address, web site and profiles, and a summary when it is long text. A line
is split into details at separators (" | ", " • ", " · "), each without its label ("Email:"), its
link scheme ("mailto:") or an icon before it; what fits no field is noted as unplaced.
"""
from __future__ import annotations

import re
from dataclasses import replace

from app.importing import dates, key_values, words
from app.importing.layout import Block

SENTENCE_END = (".", "。", "!", "！", "?", "？", ";", "；", ",", "，")
EMAIL = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.UNICODE)
URL = re.compile(r"(?:https?://|www\.)[^\s|,;，；]+|(?<![@\w.])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|me|cn|co|uk|de|"
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


def personal_info(header: list[Block], contact: list, notes: list[dict]) -> dict:
    personal: dict = {}
    blocks = _labels_above(list(header))
    name_block = _name_block(blocks)
    if name_block is not None:
        items = _items(name_block)
        named = [item for item in items if not _kind(item)]
        if len(items) > 1 and len(named) < len(items):   # "Banele Madikane | 071 8984 206 | …"
            if named:
                personal["name"] = named[0]
        else:
            parts = _name_lines(name_block, blocks)
            personal["name"] = key_values.unframed(" ".join(b.text for b in parts))
            blocks = [b for b in blocks if b not in parts]
            name, title = _name_title(personal["name"])
            if title:   # "Карпухин Никита, Unity разработчик"
                personal["name"], personal["label"] = name, title
    details = blocks + [b for section in contact for b in section.blocks]
    details = [b for b in details if not key_values.is_title(b.text) and not _key_values(b, personal, notes)]
    _joined_name(personal)
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
            if block is name_block and item == personal.get("name"):
                continue
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
            elif words.is_label(item) or key_values.is_label(item):   # a form's label in a cell of its own
                continue
            elif _KANA.match(item):    # a Japanese form's ふりがな: how the name or the address reads
                notes.append({"path": "personalInfo", "reason": "unplaced", "text": item})
            else:
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
        elif _POSTCODE.match(personal["address"]):    # "〒 171-0031" above the street
            personal["address"] += f" {text}"
        elif "label" not in personal:
            personal["label"] = text
        else:
            notes.append({"path": "personalInfo", "reason": "unplaced", "text": text})
    if loose and personal.get("label") and personal.get("address"):   # told apart by their words alone
        notes.append({"path": "personalInfo.label", "reason": "guessed", "text": personal["label"],
                      "swap": "personalInfo.address", "page": 1})
    return personal


def contact_elsewhere(personal: dict, sections: list) -> None:
    """An e-mail address or phone the header lacks, from a line of contact details printed below it
    (a footer: moderncv's casual style, pandoc's templates), taken out of the section it fell in. A
    referee's details stay with the referee, and a line with a period of dates is an entry ("2010 - 2014:
    a school at 0000000"), not contact details."""
    for section in sections:
        if section.key in ("references", "contact"):
            continue
        for block in list(section.blocks):
            items = _items(block)
            kinds = [_kind(item) for item in items]
            if block.bullet or not {"email", "phone"} & set(kinds) or any(len(item) > 50 for item in items) \
                    or dates.find_period(block.text):
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


def _key_values(block: Block, personal: dict, notes: list[dict]) -> bool:
    """Take a key–value line's details ("Name: Ada Lovelace", "Contact: +86 … Email: …", a table's row
    "Name | Ada Lovelace"); whether it was one, every value fitting its field. A given and a family name
    on lines of their own are kept apart until ``_joined_name``."""
    found = _pairs_of(block)
    if not found or any(field == "profile" for field, _ in found):   # profiles: read item by item
        return False
    for field, value in found:
        if field in ("given", "family", "name"):
            personal[f"_{field}"] = value   # the name its label names, over one guessed from the type's size
        elif field == "label":
            personal.setdefault("label", value)
        elif field == "address":
            personal.setdefault("address", value)
        elif field == "other":
            note = {"path": "personalInfo", "reason": "unplaced", "text": block.text}
            notes.extend([note] if note not in notes else [])
        else:
            _put(personal, _kind(value), value)
    return True


def _pairs_of(block: Block) -> list[tuple[str, str]]:
    """A block's key–value pairs, each value fitting its field; [] unless the whole block is such."""
    found = [pair for text in block.texts for pair in key_values.pairs(text) or [None]]
    if len(block.cells) == 2 and None in found:
        label, value = (text.strip(" :：") for text in block.texts)
        found = key_values.pairs(f"{label}: {value}") if label and value else []
    if not found or None in found or not all(_fits(field, value) for field, value in found):
        return []
    return found


def _fits(field: str, value: str) -> bool:
    kind = _kind(value)
    if field in ("email", "phone"):
        return kind == field
    if field in ("url", "profile"):
        return kind in ("url", "profile")
    return field == "other" or not kind and not (field == "label" and dates.find_period(value))


def _joined_name(personal: dict) -> None:
    named, given, family = (personal.pop(f"_{part}", "") for part in ("name", "given", "family"))
    if named or given or family:
        personal["name"] = named or f"{given} {family}".strip()


def _name_title(text: str) -> tuple[str, str]:
    """A name and the job title printed after it on its line ("Ada Lovelace, Analyst"), or (text, "")."""
    found = re.match(r"^([^\d,|–—]+?)\s*(?:,|\s[|–—-])\s*(\S.*)$", text)
    if found and 1 <= len(found.group(1).split()) <= 4 and words.position_score(found.group(2)) > 0:
        return found.group(1), found.group(2)
    return text, ""


def _name_lines(first: Block, blocks: list[Block]) -> list[Block]:
    """The name's block and the lines that carry it on: a name set large, a word or two a line
    ("Gregorio" / "Bujor"), each in the same type right under the one before, aligned with it."""
    lines = [first]
    for block in blocks[blocks.index(first) + 1:] if first in blocks else []:
        above = lines[-1]
        aligned = min(abs(block.x0 - above.x0), abs(block.x1 - above.x1),
                      abs(block.x0 + block.x1 - above.x0 - above.x1) / 2) <= 6   # left, right or centred
        if block.page != above.page or abs(block.size - above.size) > 0.5 or not aligned \
                or not -above.size / 2 <= block.top - above.bottom < above.size or block.bold != above.bold \
                or len(block.text.split()) > 3 or re.search(r"[\d@/|:,]", block.text) or len(lines) == 3:
            break
        lines.append(block)
    return lines


def _labels_above(blocks: list[Block]) -> list[Block]:
    """A grid form's label alone above its value ("氏名" / "村上 太一") as one key–value line."""
    out: list[Block] = []
    for block in blocks:
        above = out[-1] if out else None
        if above is not None and len(above.cells) == 1 and key_values.is_label(above.text) and len(block.cells) == 1 \
                and not key_values.is_label(block.text) and above.page == block.page:
            pair = replace(block, cells=[above.cells[0], block.cells[0]], x0=min(above.x0, block.x0),
                           extra={**block.extra, "cell_at": None})
            if _pairs_of(pair):     # the value fits what the label names: not "Kontakt" over a name
                out[-1] = pair
                continue
        out.append(block)
    return out


def _name_block(blocks: list[Block]) -> Block | None:
    blocks = [b for b in blocks if not key_values.is_title(b.text) and not _pairs_of(b)]
    titled = [b for b in blocks if b.level == 0]
    if titled:
        return titled[0]
    framed = [b for b in blocks[:6] if key_values.unframed(b.text) != b.text and not _DAY.search(b.text)]
    if framed:
        return framed[0]   # "PERSONAL INFORMATION Lennart Jern" (Europass), "Résumé – Ada Lovelace"
    candidates = [b for b in blocks[:6] if not _kind(b.text) and len(b.text) <= 80 and not b.bullet
                  and not dates.find_period(b.text) and not _DAY.search(b.text)
                  and any(not _kind(item) for item in _items(b))]
    if not candidates:
        return None
    return max(candidates, key=lambda b: (b.size, -b.index))


# An icon before a detail: a glyph read as a letter or two ("ć john@x.com"), or the icon's name when a
# LaTeX icon font puts it in the text ("Envelope jake@su.edu", "MOBILE-ALT 123-456-7890").
_ICON = re.compile(r"^(?:\S{1,2}|[A-Za-z][A-Za-z-]{2,19})\s+(\S.*)$")
_POSTCODE = re.compile(r"^〒\s*\d{3}\s*[-－]\s*\d{4}$")
_KANA = re.compile(r"^[\u3040-\u309f\s・ー]{4,}$")   # hiragana alone
_DAY = re.compile(r"\d{4}\s*年|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b")  # a day's date: "2022年 7月 1日 現在"
_TRAILING_PHONE = re.compile(r"\s+(?=(?:[(（]\+?\d{1,3}[)）]\s*|\+)?\d[\d\s().\-/)）]{6,}$)")
_DETAILS = ("email", "phone", "url", "address")  # the fields a key–value item of a details line names
_COUNTRY_CODE = re.compile(r"^[(（]?\+\d{1,3}[)）]?$")
_LINK_SCHEME = re.compile(r"^(?:mailto|tel|callto):\s*", re.IGNORECASE)


def _items(block: Block) -> list[str]:
    """The details of a header line: cells, split at separators (" | ", " • ", " · ", " / "),
    each without its label ("Email:", "电话 Phone")."""
    items = []
    for cell in block.cells:
        text = " ".join(f.text.strip() for f in cell if f.text.strip())
        parts = _SEPARATORS.split(text)
        if EMAIL.search(text):     # "上海·(+86) 138-0013-8000·zhang.wei@email.com": a middle dot, unspaced
            parts = [piece for part in parts for piece in part.split("·")]
        parts = [piece for part in parts for piece in key_values.split(part)]
        parts = [piece for part in parts for piece in
                 ([part] if [field for field, _ in key_values.pairs(part)] == ["phone"] else _phone_apart(part))]
        for part in parts:
            part = _LINK_SCHEME.sub("", part.strip(" |·•/"))
            if not part:
                continue
            pair = key_values.pairs(part)
            stripped = _LINK_SCHEME.sub("", pair[0][1] if len(pair) == 1 and pair[0][0] in _DETAILS
                                        else words.strip_label(part) or part)
            icon = _ICON.match(stripped)
            if icon and not _kind(stripped):
                icon_text = _LINK_SCHEME.sub("", icon.group(1))
                if _kind(icon_text) or _COUNTRY_CODE.match(icon_text):
                    stripped = icon_text  # an icon font's glyph before it, read as a letter: "ć john@x.com"
            items.append(stripped)
    return items


def _phone_apart(text: str) -> list[str]:
    """An item with a phone number at its end, apart: "Telegram: https://t.me/x +7(977)314-11-79"."""
    found = _TRAILING_PHONE.search(text)
    if found is None or not re.search(r"[^\W\d]", text[:found.start()]) or _kind(text[found.end():]) != "phone":
        return [text]
    return [text[:found.start()], text[found.end():]]


def _kind(text: str) -> str | None:
    text = text.strip()
    if EMAIL.fullmatch(text):
        return "email"
    if _PHONE.match(text) and sum(c.isdigit() for c in text) >= 7 and not dates.find_period(text):
        return "phone"
    profile = _PROFILE.match(text)
    if profile and (profile.group("url") or URL.fullmatch(profile.group("value") or "")
                    or _known_network(profile.group("network"))):
        return "profile"
    if URL.fullmatch(text):
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
        if url is None and URL.fullmatch(value):
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
