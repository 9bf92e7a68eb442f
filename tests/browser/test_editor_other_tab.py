"""A tab learns of another's change (issue 32 point 7), in a real browser: the resume open in the editor is
changed elsewhere (a second device signed in as the same person saves it through the API). When the editor
gets the focus back, or becomes visible, or every EDITOR_FRESHNESS_SECONDS while it is visible, it asks
whether the resume is still the copy it shows (If-None-Match: a 304 when it is); when it is not, the save
state says "Changed in another tab or device" instead of "Saved" and offers to load the latest version.
Loading it shows the new content, its ETag is the one the next save names, the history compares against it,
and undo still undoes this tab's own steps where the other change left them standing. A tab with typing
of its own is never overwritten: its save is refused and the merge dialog opens. Screenshots in /tmp/shots."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import served
from tests.browser.editing import field, make_resume, open_editor, read, saved

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
WORDS = {
    "en": {"stale": "Changed in another tab or device", "load": "Load the latest version", "saved": "Saved",
           "changed": "Changed since this version (1)", "Summary": "Summary", "undo": "Undo"},
    "zh-cn": {"stale": "已在其他标签页或设备上修改", "load": "载入最新版本", "saved": "已保存",
              "changed": "此版本之后的改动（1 处）", "Summary": "个人简介", "undo": "撤销"},
}
START = {"personalInfo": {"name": "Ada Lovelace", "summary": "Mathematician.", "address": "London"}}
SUMMARY = "contentJson.personalInfo.summary"


@pytest.fixture
def live(make_app, request):
    """The test app, with EDITOR_FRESHNESS_SECONDS as a test's parameter asks (else the default, 30 s)."""
    seconds = getattr(request, "param", None)
    with served(make_app, **({"EDITOR_FRESHNESS_SECONDS": seconds} if seconds else {})) as found:
        yield found


def _tab_and_device(open_as, make_user, language="en", content=START):
    """A tab with the editor open on a new resume, and another device signed in as the same person."""
    person = make_user()
    tab = open_as(person, language=language)
    resume_id = make_resume(tab, contentJson=content)
    device = open_as(person, language=language)
    open_editor(tab, resume_id)
    saved(tab)
    return tab, device, resume_id


def _save_elsewhere(device, resume_id: str, **personal) -> str:
    """The other device changes the resume (the whole content, as a client sends it); its new ETag."""
    current = read(device, resume_id)
    content = {**current["contentJson"], "personalInfo": {**current["contentJson"]["personalInfo"], **personal}}
    answer = device.request.put(f"/api/resumes/{resume_id}", data={"contentJson": content})
    assert answer.status == 200, answer.text()
    return answer.headers["etag"]


def _focus_back(tab) -> None:
    """The person comes back to the tab (from another window or application)."""
    tab.evaluate("() => window.dispatchEvent(new Event('focus'))")


def _etags(tab) -> list[tuple[str, str | None]]:
    """The If-Match of every save the tab sends, recorded from now on."""
    found = []
    tab.on("request", lambda r: r.method == "PUT" and found.append((r.url, r.headers.get("if-match"))))
    return found


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_a_tab_only_read_says_the_resume_changed_and_loads_it(open_as, make_user, language):
    words = WORDS[language]
    tab, device, resume_id = _tab_and_device(open_as, make_user, language)
    state = tab.locator("#save-state")
    load = tab.get_by_role("button", name=words["load"])
    expect(load).to_be_hidden()
    etag = _save_elsewhere(device, resume_id, summary="Changed on the phone.")
    expect(state).to_have_text(words["saved"])               # nothing asked yet (every 30 s by default)

    _focus_back(tab)
    expect(state).to_have_text(words["stale"])               # not "Saved" over a stale copy
    expect(state).not_to_have_attribute("data-state", "saved")
    expect(load).to_be_visible()
    expect(field(tab, SUMMARY)).to_have_value("Mathematician.")  # nothing replaced without being asked
    tab.locator("#editor-bar").screenshot(path=str(SHOTS / f"other-tab-{language}.png"))
    tab.screenshot(path=str(SHOTS / f"other-tab-page-{language}.png"))

    puts = _etags(tab)
    load.click()
    expect(field(tab, SUMMARY)).to_have_value("Changed on the phone.")
    expect(state).to_have_text(words["saved"])
    expect(load).to_be_hidden()
    expect(tab.locator("#undo")).to_be_disabled()            # the other device's change is not this tab's to undo

    tab.locator("#history-toggle").click()                   # what changed since the version: against the new copy
    tab.locator("#history-list > li button").first.click()
    expect(tab.locator("#history-changes-title")).to_have_text(words["changed"])
    expect(tab.locator("#history-changes > li")).to_contain_text([words["Summary"]])

    field(tab, "contentJson.personalInfo.address").fill("Paris")   # the next save is made from the new copy
    saved(tab)
    assert puts and all(match == etag for _url, match in puts)
    personal = read(tab, resume_id)["contentJson"]["personalInfo"]
    assert (personal["summary"], personal["address"]) == ("Changed on the phone.", "Paris")
    expect(tab.locator("dialog#merge")).to_be_hidden()
    assert tab.script_errors == []


def test_undo_after_loading_undoes_this_tabs_steps_where_they_still_apply(open_as, make_user):
    tab, device, resume_id = _tab_and_device(open_as, make_user)
    undo, redo = tab.locator("#undo"), tab.locator("#redo")
    field(tab, "contentJson.personalInfo.label").fill("Engineer")      # step 1: only this tab changes it
    saved(tab)
    field(tab, "contentJson.personalInfo.address").fill("Paris")       # step 2: the other device changes it too
    saved(tab)
    _save_elsewhere(device, resume_id, summary="Changed on the phone.", address="Berlin")

    tab.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")  # the tab is shown again
    tab.get_by_role("button", name=WORDS["en"]["load"]).click()
    expect(field(tab, SUMMARY)).to_have_value("Changed on the phone.")
    expect(field(tab, "contentJson.personalInfo.address")).to_have_value("Berlin")
    expect(field(tab, "contentJson.personalInfo.label")).to_have_value("Engineer")
    expect(undo).to_be_enabled()

    undo.click()                              # the headline's step applies; the address's does not any more
    expect(field(tab, "contentJson.personalInfo.label")).to_have_value("")
    expect(field(tab, "contentJson.personalInfo.address")).to_have_value("Berlin")
    expect(field(tab, SUMMARY)).to_have_value("Changed on the phone.")
    expect(undo).to_be_disabled()
    saved(tab)
    personal = read(tab, resume_id)["contentJson"]["personalInfo"]
    assert (personal.get("label") or "", personal["address"], personal["summary"]) == (
        "", "Berlin", "Changed on the phone.")
    expect(tab.locator("dialog#merge")).to_be_hidden()

    redo.click()
    expect(field(tab, "contentJson.personalInfo.label")).to_have_value("Engineer")
    saved(tab)
    assert read(tab, resume_id)["contentJson"]["personalInfo"]["label"] == "Engineer"
    assert tab.script_errors == []


def test_typing_in_a_stale_tab_is_kept_and_merged_not_overwritten(open_as, make_user):
    tab, device, resume_id = _tab_and_device(open_as, make_user)
    _save_elsewhere(device, resume_id, summary="Changed on the phone.")
    _focus_back(tab)
    load = tab.get_by_role("button", name=WORDS["en"]["load"])
    expect(load).to_be_visible()

    address = field(tab, "contentJson.personalInfo.address")
    address.fill("Typed here")                                # typed instead of loading
    expect(load).to_be_hidden()
    dialog = tab.locator("dialog#merge")                      # its save is refused: the merge dialog, as ever
    expect(dialog).to_be_visible()
    expect(address).to_have_value("Typed here")
    expect(tab.locator("#save-state")).to_have_text("Not saved: changed elsewhere")
    tab.get_by_role("button", name="Save the merged version").click()
    saved(tab)
    personal = read(tab, resume_id)["contentJson"]["personalInfo"]
    assert (personal["summary"], personal["address"]) == ("Changed on the phone.", "Typed here")
    expect(field(tab, SUMMARY)).to_have_value("Changed on the phone.")


def test_unsaved_typing_is_not_replaced_when_the_change_is_found(open_as, make_user):
    tab, device, resume_id = _tab_and_device(open_as, make_user)
    _save_elsewhere(device, resume_id, summary="Changed on the phone.")
    address = field(tab, "contentJson.personalInfo.address")
    address.fill("Typed here")
    _focus_back(tab)                                          # found while the typing waits for its save
    expect(tab.locator("dialog#merge")).to_be_visible()
    expect(tab.get_by_role("button", name=WORDS["en"]["load"])).to_be_hidden()
    expect(address).to_have_value("Typed here")
    tab.get_by_role("button", name="Save the merged version").click()
    saved(tab)
    personal = read(tab, resume_id)["contentJson"]["personalInfo"]
    assert (personal["summary"], personal["address"]) == ("Changed on the phone.", "Typed here")


@pytest.mark.parametrize("live", ["1"], indirect=True)
def test_the_check_runs_every_few_seconds_while_the_tab_is_visible(open_as, make_user, live):
    tab, device, resume_id = _tab_and_device(open_as, make_user)
    assert tab.locator("#editor").get_attribute("data-freshness-seconds") == "1"
    with tab.expect_response(lambda r: r.url.endswith(f"/api/resumes/{resume_id}") and r.status == 304,
                             timeout=10_000):
        pass                                                  # unchanged: a 304, no body
    state = tab.locator("#save-state")

    # hidden (another tab in front): not asked; shown again: asked at once
    tab.evaluate("""() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    _save_elsewhere(device, resume_id, summary="Changed on the phone.")
    tab.wait_for_timeout(2500)
    expect(state).to_have_text("Saved")
    tab.evaluate("""() => {
        delete document.hidden;
        delete document.visibilityState;
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    expect(state).to_have_text(WORDS["en"]["stale"], timeout=5_000)

    tab.get_by_role("button", name=WORDS["en"]["load"]).click()
    expect(field(tab, SUMMARY)).to_have_value("Changed on the phone.")
    _save_elsewhere(device, resume_id, address="Berlin")   # no focus, no visibility change: the interval finds it
    expect(state).to_have_text(WORDS["en"]["stale"], timeout=5_000)
    assert tab.script_errors == []
