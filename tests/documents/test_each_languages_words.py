"""A resume prints in its own language's words, whole, in every template (issue 31).

Jinghua, a Chinese design, printed its header and entry labels in Chinese ("电话 Phone", "技术栈 Stack")
in an Arabic or Spanish resume, and its date column was too narrow for most languages' dates: it cut
"Actualidad", "2006" and "настоящее время" inside a word. Canvas drew its upper-cased Russian dates as
boxes (the font was cut to the lower-case letters typed), and in a ``white-space: nowrap`` date the
space before a word of another script was lost. Each language's longest dates (its two longest month
names, and an entry that goes on to the present) must now print every word whole and apart, read back
from the PDF's text layer line by line, and a resume in a language without ideographs prints none.
"""
from __future__ import annotations

import re

import pytest

from app.content.vocabulary import MONTHS, NUMERIC_MONTHS, WORDS
from app.documents import Options, Source, render, templating, words
from tests.documents import layout

pytestmark = pytest.mark.documents

TEMPLATES = templating.load_seed_templates()
LANGUAGES = [*MONTHS, *NUMERIC_MONTHS]
RIGHT_TO_LEFT = ("ar", "he")
IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def longest_months(language: str) -> tuple[int, int]:
    """The numbers of the language's two longest month names (September and February in Arabic)."""
    names = MONTHS.get(language, "").split() or [str(number) for number in range(1, 13)]
    first, second = sorted(range(12), key=lambda index: (-len(names[index]), index))[:2]
    return first + 1, second + 1


def resume(language: str) -> dict:
    first, second = longest_months(language)
    return {
        "language": language,
        "personalInfo": {"name": "Lee Ana", "label": "Engineer", "phone": "+1 555 0100",
                         "email": "ana@example.com", "address": "Oslo", "url": "https://example.com"},
        "workExperience": [{"company": "Acme", "position": "Engineer", "startDate": f"2008-{first:02d}",
                            "endDate": ""}],
        "education": [{"school": "University", "degree": "MSc", "startDate": f"2002-{first:02d}",
                       "endDate": f"2006-{second:02d}", "courses": ["Compilers"]}],
        "projects": [{"name": "Ledger", "technologies": ["Python", "Go"]}],
    }


def on_one_line(doc: layout.Document, text: str) -> bool:
    """Whether ``text`` stands on one of the lines PDFium reads (its own line breaks: a right-to-left
    line's letters run leftwards, which ``layout``'s segments do not follow)."""
    return any(layout.key(text) in layout.key(line) for line in doc.text.splitlines())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_a_resume_prints_its_own_languages_dates_whole_and_no_other_languages_labels(template, language):
    content = resume(language)
    source = Source(html_template=template["html_template"], css=template["css_styles"], title="Resume",
                    content=content, visible={})
    doc = layout.read(render("pdf", source, Options()))
    school, job = content["education"][0], content["workExperience"][0]
    dates = [words.period(school["startDate"], school["endDate"], language),
             words.period(job["startDate"], job["endDate"], language)]
    # each word of a date on one line (a narrow column may wrap a date between its words); a
    # right-to-left line's runs come in PDFium's own order, so its words are looked for one by one
    cut = [word for date in dates for word in date.split() if any(char.isalnum() for char in word)
           and not on_one_line(doc, word)]
    assert cut == [], doc.text
    # and no two of them run together (xhtml2pdf dropped the space before a span of another script's
    # face in a white-space: nowrap date: "2002 –сент."). Not asked of a right-to-left line: PDFium
    # leaves out the space where the direction changes ("2002 –سبتمبر" of a line drawn with it).
    lines = [line.casefold() for line in doc.text.splitlines()]
    glued = [first + second for date in dates for first, second in zip(date.split(), date.split()[1:])
             if any((first + second).casefold() in line for line in lines)]
    assert language in RIGHT_TO_LEFT or glued == [], doc.text
    if language not in NUMERIC_MONTHS and not language.startswith("zh"):
        assert IDEOGRAPH.findall(doc.text) == []
    if template["name"] == "Jinghua":  # its labels, in the resume's language
        labels = [WORDS[language][label] for label in ("Phone", "Email", "Address", "Website", "Courses", "Stack")]
        assert layout.missing_strings(doc, [word for label in labels for word in label.split()]) == []
