"""Every page passes axe-core (the copy bundled by axe-playwright-python) with no serious or critical
violation, in English light, Chinese dark, Arabic light (right to left) and French dark: the public pages (as a visitor, the theme the
system's colour scheme), the share page and its password page, and every signed-in page with its
dialogs open. One browser context per combination walks all the pages. docs/accessibility.md says
why these two combinations cover both languages and both themes. Then the keyboard: the skip links
take the editor's PDF button within 5 Tabs, with a visible focus on buttons, links and inputs; and
dialogs take the focus, keep it and give it back to their opener.
"""
from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from app import i18n
from tests.browser.editing import make_resume, open_editor
from tests.browser.test_side import TWO_PAGES
from tests.support import said

COMBINATIONS = [("en", "light"), ("zh-cn", "dark"), ("ar", "light"), ("fr", "dark")]
PUBLIC_PAGES = ["/", "/login", "/login?error=INVALID_CREDENTIALS", "/register", "/forgot-password",
                "/resend-verification", "/verify-email?token=abc", "/reset-password?token=abc", "/no-such-page"]
SERIOUS = {"serious", "critical"}
AXE = Axe()


def serious_violations(page, where: str) -> list[str]:
    """axe's serious and critical violations on ``page`` as it is now, one readable line a node."""
    results = AXE.run(page).response["violations"]
    found = []
    for violation in results:
        if violation["impact"] not in SERIOUS:
            continue
        for node in violation["nodes"]:
            summary = node.get("failureSummary", "").replace("\n", " ")
            found.append(f"{where}: {violation['id']} ({violation['impact']}) at {' '.join(map(str, node['target']))}"
                         f"\n    {node['html'][:160]}\n    {summary[:300]}")
    return found


def settle(page) -> None:
    """Wait for the page's scripts to have filled it (nothing left aria-busy)."""
    expect(page.locator("[aria-busy='true']")).to_have_count(0)


def share(owner, resume_id: str, **settings) -> str:
    made = owner.request.post(f"/api/resumes/{resume_id}/share", data=settings)
    assert made.ok, made.text()
    return made.json()["data"]["shareUrl"]


@pytest.mark.parametrize("language, theme", COMBINATIONS)
def test_every_page_has_no_serious_axe_violation(open_as, browser, live, language, theme):
    url, _app = live
    owner = open_as(language=language, theme=theme)
    resume_id = make_resume(owner, title="Platform engineer", contentJson=TWO_PAGES)
    share_url = share(owner, resume_id, allowDownload=True, allowComments=True)
    found = []

    visitor_context = browser.new_context(base_url=url, locale=i18n.LANGUAGES[language].tag,
                                          color_scheme=theme, viewport={"width": 1280, "height": 900})
    try:
        visitor = visitor_context.new_page()
        for path in [*PUBLIC_PAGES, share_url]:
            visitor.goto(path)
            found += serious_violations(visitor, path)
        visitor.keyboard.press("Tab")  # the share page's first stop: past the Download link to the resume
        expect(visitor.locator("a.skip")).to_be_focused()
        share(owner, resume_id, password="open sesame 1")
        visitor.goto(share_url)
        expect(visitor.locator("input[type=password]")).to_be_visible()
        found += serious_violations(visitor, "the share page's password")
        visitor.keyboard.press("Tab")  # every public page's first stop (base.html)
        expect(visitor.locator("a.skip")).to_be_focused()
        expect(visitor.locator("a.skip")).to_have_attribute("href", "#main")
    finally:
        visitor_context.close()

    for path, openers in (("/dashboard", ("#new-resume", "#import-resume")), ("/dashboard?view=trash", ()),
                          ("/account", ()), ("/billing", ("button.subscribe",)), ("/webhooks", ())):
        owner.goto(path)
        settle(owner)
        if path == "/dashboard":  # an error's toast on screen too (its colours are the theme's)
            owner.evaluate("import('/static/js/shared/api.js').then((api) => api.toast('It failed.', 'error'))")
            expect(owner.locator("#toast")).to_be_visible()
        found += serious_violations(owner, path)
        for opener in openers:  # each dialog open, then closed with Escape
            owner.locator(opener).first.click()
            expect(owner.locator("dialog[open]")).to_have_count(1)
            settle(owner)
            found += serious_violations(owner, f"{path}, the dialog of {opener}")
            owner.keyboard.press("Escape")
            expect(owner.locator("dialog[open]")).to_have_count(0)

    open_editor(owner, resume_id)
    expect(owner.locator("#preview-pages")).to_have_attribute("data-state", "ready", timeout=30_000)
    # the preview's text alternative: each image named, and every page's text under "The preview as text"
    page_one = said(language, "Page {n} of {total} of the preview").format(n=1, total=2)
    expect(owner.locator("#preview-pages img").first).to_have_attribute("alt", page_one)
    owner.locator("#preview-text summary").click()
    expect(owner.locator("#preview-text-pages")).to_contain_text(TWO_PAGES["personalInfo"]["name"])
    expect(owner.locator("#preview-text-pages h3")).to_have_count(2)
    owner.locator("#history-toggle").click()
    settle(owner)
    found += serious_violations(owner, "the editor, the preview's text and the version history open")
    owner.locator("#template-picker-open").click()  # the editor's template picker
    expect(owner.locator("dialog[open]")).to_have_count(1)
    found += serious_violations(owner, "the editor's template picker")
    assert not found, f"{len(found)} serious or critical axe violations ({language}, {theme}):\n" + "\n".join(found)


FOCUSED = "(() => { const e = document.activeElement; return e.tagName + ' ' + (e.id || e.textContent.trim()); })()"
RING = """(() => {  // the focused element's focus indicator: its outline, else its box-shadow, else ''
  const style = getComputedStyle(document.activeElement);
  const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  if (outlined) return style.outlineStyle + " " + style.outlineWidth;
  return style.boxShadow === "none" ? "" : style.boxShadow;
})()"""
INSIDE = "document.querySelector('dialog[open]').contains(document.activeElement)"


def test_the_editor_by_keyboard_skips_to_the_pdf_button_with_the_focus_in_sight(open_as):
    page = open_as()
    open_editor(page, make_resume(page, title="Platform engineer", contentJson=TWO_PAGES))
    tabs, reached = 0, []
    while tabs < 5 and not reached[-1:] == ["A Skip to the downloads"]:
        page.keyboard.press("Tab")
        tabs += 1
        reached.append(page.evaluate(FOCUSED))
        ring = page.evaluate(RING)
        assert ring, f"no focus indicator on {reached[-1]}"
    assert reached == ["A Skip to content", "A Skip to the preview", "A Skip to the downloads"]
    skip = page.locator("a.skip:focus").bounding_box()  # shown on screen while it has the focus
    assert skip and skip["x"] >= 0 and skip["y"] >= 0, skip
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    tabs += 1
    pdf = page.locator('#export-buttons [data-format="pdf"]')
    expect(pdf).to_be_focused()
    assert tabs <= 5 and page.evaluate(RING)

    kinds = {}  # a button, a link and an input, each reached by Tab, each with a visible focus
    for _ in range(30):
        page.keyboard.press("Tab")
        tag = page.evaluate("document.activeElement.tagName")
        if tag != "BODY":  # past the page's last control, before Tab wraps to its first
            kinds.setdefault(tag, (page.evaluate(FOCUSED), page.evaluate(RING)))
        if {"BUTTON", "A", "INPUT"} <= kinds.keys():
            break
    assert {"BUTTON", "A", "INPUT"} <= kinds.keys(), kinds
    assert all(ring for _name, ring in kinds.values()), kinds
    assert page.script_errors == []


def test_dialogs_take_the_focus_keep_it_and_give_it_back(open_as):
    page = open_as()
    make_resume(page, title="Platform engineer")
    page.goto("/dashboard")
    settle(page)
    for opener in ("#import-resume", "#resume-rows button.delete", "#new-resume"):
        page.locator(opener).focus()
        page.keyboard.press("Enter")
        expect(page.locator("dialog[open]")).to_have_count(1)
        assert page.evaluate(INSIDE), f"{opener}: the focus is on {page.evaluate(FOCUSED)}"
        for _ in range(12):  # round and round: the page behind is inert
            page.keyboard.press("Tab")
            assert page.evaluate(INSIDE) or page.evaluate("document.activeElement === document.body"), \
                f"{opener}: the focus left the dialog for {page.evaluate(FOCUSED)}"
        page.keyboard.press("Escape")
        expect(page.locator("dialog[open]")).to_have_count(0)
        expect(page.locator(opener)).to_be_focused()
    page.goto("/billing")
    settle(page)
    upgrade = page.locator("button.subscribe").first
    upgrade.focus()
    page.keyboard.press("Enter")
    expect(page.locator("dialog[open]")).to_have_count(1)
    assert page.evaluate(INSIDE)
    page.locator("dialog[open] [data-close]").first.focus()
    page.keyboard.press("Enter")  # its Back button
    expect(page.locator("dialog[open]")).to_have_count(0)
    expect(upgrade).to_be_focused()
