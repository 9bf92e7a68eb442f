"""Our own exports in the other scripts we print come back (issue 31 point 5): each template's PDF and
DOCX of a two-page resume in Arabic, Hebrew, Hindi and Thai (with Latin terms, numbers and e-mails
among the words), read back through the importer, recover at least 95 % of the facts
(``recovery.score``), and the import's report lists a handful of things to check at most.

Run with ``-s`` to see the figures. No database: marked ``documents`` like the layout matrix.
"""
from __future__ import annotations

import pytest

from bench.export import SENTENCES_AR, SENTENCES_HI, SENTENCES_TH, two_pages
from tests.importing import recovery

from app.documents import Source, render, templating
from app.importing import reading

pytestmark = pytest.mark.documents

TEMPLATES = {t["name"]: t for t in templating.load_seed_templates()}
GOAL = 0.95
MAX_NOTES = 8   # "a handful" of things the report asks to check

SENTENCES_HE = [
    "הובלתי צוות של שישה מהנדסים בבניית מערכת התשלומים מחדש ב־Python וב־PostgreSQL, והביצועים שולשו.",
    "תכננתי מערכת לתזמון משימות שמטפלת ביותר מעשרים מיליון משימות ביום.",
    "העברתי את מסד הנתונים מ־MySQL ל־PostgreSQL ללא השבתה במהלך 2021.",
    "בניתי צינור מסירה רציפה על Kubernetes וקיצרתי את מחזור השחרור משבועיים ליום אחד.",
    "עבדתי עם צוותי המוצר והתפעול על ניתוח דרישות ומסירה של יותר מעשר תכונות מרכזיות.",
    "כתבתי תיעוד טכני וחומרי הדרכה פנימיים והכשרתי חמישה מהנדסים חדשים.",
]
SAMPLES = {
    "ar": two_pages("ليلى حداد", "عمّان، الأردن", "شركة النجم للتقنية", "مهندسة برمجيات أولى",
                    "الجامعة الأردنية", "ماجستير علوم الحاسوب", SENTENCES_AR),
    "he": two_pages("דנה לוי", "תל אביב, ישראל", "חברת כוכב הצפון", "מהנדסת תוכנה בכירה",
                    "האוניברסיטה העברית", "תואר שני במדעי המחשב", SENTENCES_HE),
    "hi": two_pages("प्रिया शर्मा", "बेंगलुरु, कर्नाटक", "तारा प्रौद्योगिकी", "वरिष्ठ सॉफ़्टवेयर इंजीनियर",
                    "भारतीय प्रौद्योगिकी संस्थान दिल्ली", "कंप्यूटर विज्ञान में स्नातकोत्तर", SENTENCES_HI),
    "th": two_pages("สมศรี ใจดี", "กรุงเทพมหานคร", "บริษัท ดาวเหนือ เทคโนโลยี", "วิศวกรซอฟต์แวร์อาวุโส",
                    "จุฬาลงกรณ์มหาวิทยาลัย", "วิศวกรรมศาสตรมหาบัณฑิต สาขาวิศวกรรมคอมพิวเตอร์", SENTENCES_TH),
}


@pytest.mark.parametrize("fmt", ["pdf", "docx"])
@pytest.mark.parametrize("language", list(SAMPLES))
@pytest.mark.parametrize("name", list(TEMPLATES))
def test_an_export_in_another_script_is_recovered(name, language, fmt):
    template = TEMPLATES[name]
    sample = {**SAMPLES[language], "language": language}
    data = render(fmt, Source(html_template=template["html_template"], css=template["css_styles"],
                              title="Resume", content=sample, visible={}))
    found = reading.read_all(fmt, data)
    got, total, missed = recovery.score(sample, found.content)
    share = got / total
    print(f"  {name} {language} {fmt}: {got}/{total} = {100 * share:.1f} %, {len(found.unsure)} to check")
    for line in missed[:10]:
        print(f"      missed {line}")
    assert share >= GOAL, f"{name} {language} {fmt}: {100 * share:.1f} % of the facts recovered"
    assert len(found.unsure) <= MAX_NOTES, found.unsure
