"""What a PDF page prints about itself rather than about the person: its number ("Page 1 of 2", "2/3",
"- 2 -", "Seite 1 von 2", "第 1 页"). Such a line, alone at the top or the bottom of its page, is
taken out before the blocks are made: read as text it became a school ("Page 1 of 2", a LinkedIn
export's footer under "Education") or a bullet's last words."""
from __future__ import annotations

import re

_PAGE_WORDS = r"page|pages|seite|página|pagina|pág\.?|p\.|стр\.?|страница|sayfa|strana|strona|sivu|side|sida|第"
_OF = r"of|von|de|di|du|sur|из|/|／|-"
PAGE_NUMBER = re.compile(rf"^[\s\-–—·|]*(?:(?:{_PAGE_WORDS})\s*)?\d{{1,3}}\s*(?:(?:{_OF})\s*\d{{1,3}})?\s*(?:页|頁|ページ)?"
                         rf"[\s\-–—·|]*$", re.IGNORECASE)


def without_page_numbers(lines: list[dict]) -> list[dict]:
    """``lines`` (``extract.py``'s) less each PDF page's number: a line of nothing but a page number
    that is the page's first or last line by its place. A DOCX paragraph has no page to number."""
    ends: dict[int, tuple[float, float]] = {}
    for line in lines:
        if line.get("para"):
            continue
        top, bottom = ends.get(line["page"], (line["top"], line["bottom"]))
        ends[line["page"]] = (min(top, line["top"]), max(bottom, line["bottom"]))
    return [line for line in lines if line.get("para") or not _numbers_its_page(line, ends[line["page"]])]


def _numbers_its_page(line: dict, ends: tuple[float, float]) -> bool:
    text = "".join(run["t"] for cell in line["cells"] for run in cell).strip()
    if not PAGE_NUMBER.match(text) or not re.search(r"\d", text):
        return False
    return line["top"] <= ends[0] + 0.5 or line["bottom"] >= ends[1] - 0.5
