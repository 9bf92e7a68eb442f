"""Long values stay on the page (issue 22 point 9): the longest realistic value of every field, in every
template, on both page sizes and every margin. Heritage once printed a 41-character name past the
right edge of an A4 page (its letter spacing was drawn but not measured)."""
from __future__ import annotations

import copy

import pytest

from app.documents import Options, Source, render, templating
from tests.documents import layout
from tests.documents.test_documents import FULL

pytestmark = pytest.mark.documents

LONG = copy.deepcopy(FULL)
LONG["personalInfo"].update(
    name="Alexandra Catherine Montgomery-Richardson",
    label="Principal Distributed Systems Engineer and Technical Program Lead",
    email="alexandra.montgomery-richardson@international-consulting-group.example.com",
    phone="+44 (0)20 7946 0958 ext. 12345",
    url="https://www.alexandra-montgomery-richardson.example.com/portfolio/distributed-systems",
    address="Flat 12B, 221 Kensington High Street, Royal Borough of Kensington and Chelsea, London W8 6SA",
    profiles=[{"network": "LinkedIn", "username": "alexandra-montgomery-richardson",
               "url": "https://www.linkedin.com/in/alexandra-catherine-montgomery-richardson-0123456789/"}])
LONG["workExperience"][0].update(
    company="International Business Machines Corporation (IBM) Research Laboratories",
    position="Senior Principal Distributed Systems Engineer, Platform Infrastructure",
    location="Rüschlikon, Canton of Zürich, Switzerland")
LONG["education"][0].update(school="Massachusetts Institute of Technology, School of Engineering",
                            degree="Master of Science in Electrical Engineering and Computer Science")
TEMPLATES = templating.load_seed_templates()
CASES = [(t["name"], size, margin) for t in TEMPLATES for size in templating.PAGE_SIZES
         for margin in templating.MARGINS_MM]
STRINGS = [LONG["personalInfo"][field] for field in ("name", "email", "phone")] + [
    LONG["workExperience"][0]["company"], LONG["workExperience"][0]["position"], LONG["education"][0]["school"]]


@pytest.mark.parametrize(("name", "size", "margin"), CASES, ids=["-".join(case) for case in CASES])
def test_the_longest_values_stay_inside_the_page_and_are_read_whole(name, size, margin):
    template = next(t for t in TEMPLATES if t["name"] == name)
    pdf = render("pdf", Source(html_template=template["html_template"], css=template["css_styles"], title="Resume",
                               content=LONG, visible={}), Options(page_size=size, margin=margin))
    doc = layout.read(pdf)
    outside = layout.glyphs_outside(doc, layout.content_box(size, margin))
    assert not outside, [(c.text, tuple(round(v) for v in c.box)) for c in outside[:10]]
    assert not layout.missing_strings(doc, STRINGS)
