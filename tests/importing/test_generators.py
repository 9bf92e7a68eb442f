"""What other generators do to a PDF's text, read as the page shows it (issue 23 point 1)."""
from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from app.importing import reading

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


def test_headings_drawn_after_the_text_below_them_still_head_their_sections():
    """Chromium draws a JSON Resume theme's letter-spaced headings after everything else on the page:
    in the order they were drawn, every section ran into the summary."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 18)
    page.drawString(72, 780, "Richard Hendriks")
    page.setFont("Helvetica", 10)
    page.drawString(72, 762, "richard.hendriks@example.com")
    page.drawString(72, 720, "Builds compression software.")
    page.drawString(72, 670, "CEO, Pied Piper")
    page.drawString(400, 670, "Dec 2013 - Dec 2014")
    page.drawString(72, 620, "Python, Go, Rust")
    page.setFont("Helvetica-Bold", 11)
    for y, heading in ((736, "SUMMARY"), (686, "WORK EXPERIENCE"), (636, "SKILLS")):
        page.drawString(72, y, heading)  # last, as Chromium draws them
    page.showPage()
    page.save()

    content, _dropped = reading.read("pdf", out.getvalue())
    assert content["personalInfo"]["summary"] == "Builds compression software."
    job = content["workExperience"][0]
    assert (job["position"], job["company"]) == ("CEO", "Pied Piper")
    assert (job["startDate"], job["endDate"]) == ("2013-12", "2014-12")
    assert content["skills"] == ["Python", "Go", "Rust"]
