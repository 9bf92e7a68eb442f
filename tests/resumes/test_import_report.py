"""An import says what it was unsure of, cuts an over-long text at a sentence and keeps the rest, and
keeps that report with the resume for the editor until its owner dismisses it (issue 23 point 2)."""
from __future__ import annotations

import copy

from app.content import cleaning
from app.resumes import trash
from app.resumes.models import ResumeImport, ResumeImportPage
from tests.resumes.test_import import SAMPLE, SMALL_RESUME, URL, docx_of, pdf_of, upload
from tests.resumes.test_trash import deleted_days_ago

SENTENCE = "Shipped the payments platform that now settles every card transaction in Europe. "


def report_url(resume_id: str) -> str:
    return f"/api/resumes/{resume_id}/import-report"


def test_an_over_long_summary_is_cut_at_a_sentence_and_the_rest_is_in_the_report(client, owner):
    document = copy.deepcopy(SAMPLE)
    document["basics"]["summary"] = SENTENCE * 80          # 6,640 characters: the field holds 5,000
    response = client.post(URL, json={"jsonResume": document})

    assert response.status_code == 201, response.get_json()
    data = response.get_json()["data"]
    summary = data["resume"]["contentJson"]["personalInfo"]["summary"]
    assert 2500 <= len(summary) <= 5000 and summary.endswith("Europe.")
    assert "basics.summary" not in data["dropped"]                      # not dropped: cut
    [cut] = data["report"]["cut"]
    assert cut["path"] == "personalInfo.summary"
    assert f"{summary} {cut['text']}" == document["basics"]["summary"].strip()  # nothing lost


def test_a_word_longer_than_its_field_is_cut_at_the_limit():
    kept, rest = cleaning.cut_text("x" * 250, 200)
    assert (len(kept), len(rest)) == (200, 50)
    kept, rest = cleaning.cut_text("Senior engineer for platform reliability " * 6, 200)
    assert len(kept) <= 200 and not kept.endswith(" ") and rest and kept + " " + rest == \
        ("Senior engineer for platform reliability " * 6).strip()


def test_what_a_file_import_guessed_is_reported_by_path(client, owner):
    data = upload(client, docx_of(
        ("Title", "Ada Lovelace"), ("Normal", "ada@example.com | +44 20 7946 0000"),
        ("Normal", "London, United Kingdom"), ("Normal", "Analyst"), ("Normal", "Difference Engine Society"),
        ("Heading 1", "Experience"), ("Heading 2", "Bluebird | Harbor Lights"),  # no words tell which is which
        ("Normal", "Wrote the first published program."),
        ("Heading 1", "Tea ceremonies"), ("Normal", "Twice a week, with Charles."),
    ), "ada.docx")
    assert data.status_code == 201, data.get_json()
    body = data.get_json()["data"]
    report = body["report"]
    assert report["source"] == "docx" and report["fileName"] == "ada.docx"
    reasons = {(item["path"], item["reason"]) for item in report["unsure"]}
    assert ("workExperience.0.position", "order") in reasons
    assert ("workExperience.0.startDate", "no_dates") in reasons
    assert ("customSections.0", "custom_section") in reasons
    custom = [item for item in report["unsure"] if item["reason"] == "custom_section"]
    assert custom[0]["text"] == "Tea ceremonies"
    # The header line that fitted no field is kept in the report, not lost.
    unplaced = [item["text"] for item in report["unsure"] if item["reason"] == "unplaced"]
    personal = body["resume"]["contentJson"]["personalInfo"]
    header = {"London, United Kingdom", "Analyst", "Difference Engine Society"}
    assert header <= set(unplaced) | {personal.get("address"), personal.get("label")}


def test_a_file_without_name_or_email_says_so(client, owner):
    response = upload(client, docx_of(
        ("Heading 1", "Experience"), ("Heading 2", "Engineer, Initech"), ("Normal", "Jan 2020 – Mar 2022"),
        ("Normal", "Kept the TPS reports flowing through the night."),
    ), "cv.docx")
    assert response.status_code == 201, response.get_json()
    reasons = {(i["path"], i["reason"]) for i in response.get_json()["data"]["report"]["unsure"]}
    assert {("personalInfo.name", "not_found"), ("personalInfo.email", "not_found")} <= reasons
    assert not {path for path, _reason in reasons if path.startswith("workExperience")}  # "Engineer": a title


def test_the_report_is_kept_until_dismissed_and_only_its_owner_sees_it(client, owner, make_user, login, query):
    imported = upload(client, docx_of(*SMALL_RESUME), "grace.docx").get_json()["data"]
    resume_id = imported["resume"]["id"]

    kept = client.get(report_url(resume_id))
    assert kept.status_code == 200
    assert kept.get_json()["data"] == imported["report"]

    login(make_user("someone@example.com"))
    for method in (client.get, client.delete):
        other = method(report_url(resume_id))
        assert other.status_code == 403 and other.get_json()["code"] == "RESUME_NOT_OWNED"
    login(owner)

    dismissed = client.delete(report_url(resume_id))
    assert dismissed.status_code == 200 and dismissed.get_json()["message"] == "Import report dismissed."
    gone = client.get(report_url(resume_id))
    assert gone.status_code == 404 and gone.get_json()["code"] == "NOT_FOUND"
    assert query(lambda s: s.query(ResumeImport).count()) == 0


def test_a_resume_made_in_the_editor_has_no_report(client, owner, resume_id):
    response = client.get(report_url(resume_id))
    assert response.status_code == 404 and response.get_json()["code"] == "NOT_FOUND"


def test_the_report_goes_with_the_resume_when_it_is_purged_and_stays_through_the_trash(app, client, owner, query):
    resume_id = upload(client, docx_of(*SMALL_RESUME), "grace.docx").get_json()["data"]["resume"]["id"]
    assert client.delete(f"/api/resumes/{resume_id}").status_code == 200
    assert client.post(f"/api/resumes/{resume_id}/restore").status_code == 200
    assert client.get(report_url(resume_id)).status_code == 200           # a restore brings it back whole
    assert client.delete(f"/api/resumes/{resume_id}").status_code == 200
    deleted_days_ago(query, resume_id, 31)
    with app.app_context():
        assert trash.purge() == 1
    assert query(lambda s: s.query(ResumeImport).count()) == 0


def test_an_imported_pdfs_pages_are_kept_as_pictures_for_the_editor(client, owner, make_user, login, query):
    answer = upload(client, pdf_of("Grace Hopper", "grace@example.com", "Experience", "Computer Scientist, US Navy",
                                   "Jan 1967 - Aug 1986", pages=2), "grace.pdf")
    assert answer.status_code == 201, answer.get_json()
    report = answer.get_json()["data"]["report"]
    assert report["pages"] == 2
    resume_id = answer.get_json()["data"]["resume"]["id"]
    page = client.get(f"{report_url(resume_id)}/pages/2")
    assert page.status_code == 200 and page.mimetype == "image/png" and page.data.startswith(b"\x89PNG")
    assert "private" in page.headers["Cache-Control"]
    missing = client.get(f"{report_url(resume_id)}/pages/3")
    assert missing.status_code == 404 and missing.get_json()["code"] == "NOT_FOUND"

    login(make_user("someone@example.com"))
    assert client.get(f"{report_url(resume_id)}/pages/1").status_code == 403
    login(owner)
    assert client.delete(report_url(resume_id)).status_code == 200
    assert client.get(f"{report_url(resume_id)}/pages/1").status_code == 404
    assert query(lambda s: s.query(ResumeImportPage).count()) == 0       # gone with the report


def test_a_docx_has_no_pages_to_show(client, owner):
    report = upload(client, docx_of(*SMALL_RESUME), "grace.docx").get_json()["data"]["report"]
    assert report["pages"] == 0
