"""The dashboard's Import dialog in a real browser: a JSON Resume file chosen or dropped on it, or
JSON Resume text pasted, becomes a new draft; the dialog lists what was dropped (JSON paths, as the
API named them) and links to the editor; refusals are said in words (in English and Chinese), the
plan's limit with the upgrade link."""
from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import expect

SAMPLE = Path(__file__).resolve().parent.parent / "content" / "data" / "jsonresume_sample.json"
SHOTS = Path("/tmp/shots")
HORIZON = "741210da74ccb3737c4e58fd"  # a basic template
SMALL = {"basics": {"name": "Grace Hopper", "label": "Rear admiral"},
         "languages": [{"language": "English", "fluency": "Native speaker"}]}


def _resumes(page) -> list[dict]:
    return page.request.get("/api/resumes?limit=100").json()["data"]


def _open_dialog(page):
    page.goto("/dashboard")
    expect(page.locator("#resumes-usage")).not_to_have_text("…")
    page.get_by_role("button", name="Import", exact=True).click()
    dialog = page.get_by_role("dialog", name="Import a resume")
    expect(dialog).to_be_visible()
    return dialog


def _submit(dialog):
    dialog.get_by_role("button", name="Import", exact=True).click()


def test_import_a_json_resume_file_and_see_what_was_dropped(open_as):
    page = open_as()
    dialog = _open_dialog(page)
    dialog.locator("#import-file").set_input_files(str(SAMPLE))
    expect(dialog.locator("#import-file-name")).to_have_text("jsonresume_sample.json")
    with page.expect_response("**/api/resumes/import") as answer:
        _submit(dialog)
    assert answer.value.status == 201
    dropped = answer.value.json()["data"]["dropped"]
    assert "meta.canonical" in dropped
    expect(dialog.locator("#import-done")).to_have_text("“Richard Hendriks” was imported as a new draft.")
    expect(dialog.locator("#import-dropped-intro")).to_contain_text(f"Not imported ({len(dropped)})")
    expect(dialog.locator("#import-dropped li")).to_have_text(dropped)
    expect(dialog.get_by_role("link", name="Open in the editor")).to_be_focused()
    SHOTS.mkdir(exist_ok=True)
    dialog.screenshot(path=str(SHOTS / "import-dialog.png"))
    # the list behind the dialog has the new draft already
    expect(page.locator("#resume-rows tr", has_text="Richard Hendriks")).to_have_count(1)
    [resume] = _resumes(page)
    assert resume["status"] == "DRAFT"
    dialog.get_by_role("link", name="Open in the editor").click()
    page.wait_for_url(f"**/resumes/{resume['id']}/edit")
    expect(page.locator('[data-field="contentJson.personalInfo.label"]')).to_have_value("Programmer")
    assert page.script_errors == []


def test_a_file_dropped_on_the_dialog_and_import_another(open_as):
    page = open_as()
    dialog = _open_dialog(page)
    page.evaluate("""text => {
        const data = new DataTransfer();
        data.items.add(new File([text], "grace.json", {type: "application/json"}));
        const zone = document.getElementById("import-drop");
        for (const type of ["dragover", "drop"]) {
            zone.dispatchEvent(new DragEvent(type, {dataTransfer: data, bubbles: true, cancelable: true}));
        }
    }""", json.dumps(SMALL))
    expect(dialog.locator("#import-file-name")).to_have_text("grace.json")
    SHOTS.mkdir(exist_ok=True)
    dialog.screenshot(path=str(SHOTS / "import-dialog-file.png"))
    _submit(dialog)
    expect(dialog.locator("#import-done")).to_have_text("“Grace Hopper” was imported as a new draft.")
    expect(dialog.locator("#import-dropped-intro")).to_have_text("Everything was imported.")
    expect(dialog.locator("#import-dropped li")).to_have_count(0)
    dialog.get_by_role("button", name="Import another").click()
    expect(dialog.locator("#import-text")).to_be_visible()
    expect(dialog.locator("#import-file-name")).to_have_text("")
    dialog.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    [resume] = _resumes(page)
    content = page.request.get(f"/api/resumes/{resume['id']}").json()["data"]["contentJson"]
    assert content["languages"] == SMALL["languages"] and content["personalInfo"]["label"] == "Rear admiral"
    assert page.script_errors == []


def test_pasted_text_and_refusals_in_words(open_as, tmp_path):
    page = open_as()
    dialog = _open_dialog(page)
    state = dialog.locator("#import-state")
    _submit(dialog)
    expect(state).to_have_text("Choose a file, or paste JSON Resume text.")
    dialog.locator("#import-text").fill('{"basics": {"name": "Ada"')
    _submit(dialog)
    expect(state).to_have_text(
        "This text is not valid JSON: check that it is complete, from its first { to its last }.")
    dialog.locator("#import-text").fill('{"hello": "world"}')
    _submit(dialog)
    expect(state).to_have_text("This text is not a JSON Resume document (https://jsonresume.org).")
    notes = tmp_path / "notes.txt"
    notes.write_text("Just some notes")
    dialog.locator("#import-file").set_input_files(str(notes))
    expect(dialog.locator("#import-text")).to_have_value("")  # one source at a time
    _submit(dialog)
    expect(state).to_have_text("Choose a .json, .pdf or .docx file.")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nthis is not really a PDF")
    dialog.locator("#import-file").set_input_files(str(broken))
    with page.expect_response("**/api/resumes/import") as answer:
        _submit(dialog)
    refused = answer.value.json()
    assert answer.value.status == 422 and refused["code"] == "IMPORT_UNREADABLE", refused
    expect(state).to_have_text(refused["error"])  # the English page shows the API's own words
    assert _resumes(page) == []

    dialog.locator("#import-text").fill(json.dumps(SMALL))
    expect(dialog.locator("#import-file-name")).to_have_text("")
    _submit(dialog)
    expect(dialog.locator("#import-done")).to_have_text("“Grace Hopper” was imported as a new draft.")
    assert page.script_errors == []


def test_the_plans_limit_and_chinese(open_as, tmp_path):
    page = open_as(language="zh-cn")
    created = [page.request.post("/api/resumes", data={"title": f"R{n}", "templateId": HORIZON}) for n in range(5)]
    assert all(response.status == 201 for response in created)
    page.goto("/dashboard")
    page.get_by_role("button", name="导入", exact=True).click()
    dialog = page.get_by_role("dialog", name="导入简历")
    dialog.locator("#import-text").fill(json.dumps(SMALL))
    dialog.get_by_role("button", name="导入", exact=True).click()
    state = dialog.locator("#import-state")
    expect(state).to_contain_text("你的套餐最多可创建 5 份简历，因此无法再导入。")
    expect(state.get_by_role("link", name="升级")).to_have_attribute("href", "/billing")
    # the plan's limit is checked before a file is read: room for one more, then a file that cannot be read
    assert page.request.delete(f"/api/resumes/{created[0].json()['data']['id']}").status == 200
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nthis is not really a PDF")
    dialog.locator("#import-file").set_input_files(str(broken))
    dialog.get_by_role("button", name="导入", exact=True).click()
    expect(state).to_have_text("无法将此文件读取为 PDF。")  # the API's own message, in the page's language
    assert page.script_errors == []
