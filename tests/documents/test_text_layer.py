"""The PDF's text layer reads as the text was typed (issue 31 point 3): Devanagari, Bengali, Tamil,
Thai, Arabic and Hebrew words, names, e-mails and phone numbers, read back exactly, without spaces
inside words, by pdfium (Chrome's viewer, our importer) and by pdfminer (what many applicant tracking
systems are built on), in every template."""
from __future__ import annotations

import io
import re

import pypdfium2
import pytest
from pdfminer.high_level import extract_text

from app.documents import Source, render, templating

pytestmark = pytest.mark.documents

TEMPLATES = templating.load_seed_templates()

# Per language: its resume's name, headline, company, summary words, and the strings read back.
RESUMES = {
    "hi": ("अनन्या शर्मा", "वरिष्ठ सलाहकार", "तारा कंसल्टेंसी", "प्रौद्योगिकी कंसल्टेंसी में दस वर्ष का अनुभव"),
    "ta": ("அனன்யா கிருஷ்ணன்", "மூத்த பொறியாளர்", "கொள்கை தொழில்நுட்பம்", "மென்பொருள் பொறியாளர் பத்து ஆண்டுகள்"),
    "bn": ("অনন্যা সেন", "প্রধান প্রকৌশলী", "তারা প্রযুক্তি", "সফটওয়্যার প্রকৌশলে দশ বছরের অভিজ্ঞতা"),
    "th": ("สมศรี ใจดี", "วิศวกรซอฟต์แวร์อาวุโส", "บริษัท ดาวเหนือ", "ประสบการณ์ สิบ ปี ด้าน ระบบ ชำระเงิน ที่เพิ่มขึ้น น้ำ"),
    "ar": ("ليلى حداد", "مهندسة برمجيات أولى", "شركة النجم للتقنية", "أحدثت فرقاً كبيراً في الأداء، لا بأس"),
    "he": ("דנה לוי", "מהנדסת תוכנה בכירה", "חברת כוכב הצפון", "עשר שנות ניסיון בפיתוח מערכות תשלום"),
}
EMAIL, PHONE = "layla@example.com", "+971 50 123 4567"


def _content(language: str) -> dict:
    name, headline, company, summary = RESUMES[language]
    return {"language": language,
            "personalInfo": {"name": name, "label": headline, "email": EMAIL, "phone": PHONE, "summary": summary},
            "workExperience": [{"company": company, "position": headline, "startDate": "2019-02", "endDate": "",
                                "description": summary}]}


def _strings(language: str) -> list[str]:
    name, headline, company, summary = RESUMES[language]
    return [name, headline, company, summary, EMAIL, PHONE]


def _spaced(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def _pdfium(data: bytes) -> str:
    pdf = pypdfium2.PdfDocument(data)
    return _spaced(" ".join(pdf[index].get_textpage().get_text_range() for index in range(len(pdf))))


def _pdfminer(data: bytes) -> str:
    return _spaced(extract_text(io.BytesIO(data)))


@pytest.mark.parametrize("language", list(RESUMES))
@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_shaped_and_right_to_left_text_reads_back_as_typed_in_pdfium_and_pdfminer(template, language):
    data = render("pdf", Source(html_template=template["html_template"], css=template["css_styles"],
                                title="Resume", content=_content(language), visible={}))
    for reader, text in (("pdfium", _pdfium(data)), ("pdfminer", _pdfminer(data))):
        missing = [string for string in _strings(language) if string not in text]
        assert not missing, f"{reader} read {text!r}"
