"""The editor stays light: its own scripts and styles together at most 150 KB uncompressed (issue 14).

Measured as the browser loads it: every script and stylesheet the editor page fetches from the app
(modules it imports included), with the size of each answer's body.
"""
from tests.documents import samples

LIMIT = 150 * 1024


def test_the_editor_page_loads_at_most_150_kb_of_its_own_js_and_css(open_as, live):
    url, _app = live
    page = open_as()
    template = page.request.get("/api/templates").json()["data"][0]["id"]
    resume = page.request.post("/api/resumes", data={"title": "Weight", "templateId": template,
                                                     "contentJson": samples.SAMPLES[("en", "short")]}).json()
    loaded = {}

    def record(response):
        if response.url.startswith(url) and response.request.resource_type in ("script", "stylesheet"):
            loaded[response.url] = len(response.body())

    page.on("response", record)
    page.goto(f"/resumes/{resume['data']['id']}/edit")
    page.wait_for_load_state("networkidle")
    assert any(u.endswith("/js/editor/page.js") for u in loaded) and any(u.endswith(".css") for u in loaded), loaded
    total = sum(loaded.values())
    print(f"editor page: {len(loaded)} files, {total / 1024:.1f} KB of JS and CSS")
    assert total <= LIMIT, sorted(loaded.items(), key=lambda item: -item[1])
    assert page.script_errors == []
