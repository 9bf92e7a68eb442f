"""The pictures of a person's own resume (issue 25 point 2): every template drawn with it
(GET /api/resumes/<id>/template-previews and its PNGs) and its first page (GET .../first-page.png)."""
from __future__ import annotations

import io
import threading
import time
from collections import deque

import pytest
from PIL import Image, ImageChops, ImageStat

from app import documents
from app.documents import renderers
from app.pictures import previews, template_previews

SHORT = {"personalInfo": {"name": "Grace Hopper", "email": "grace@example.com",
                          "summary": "Compiler pioneer who made computers speak English."},
         "workExperience": [{"company": "Remington Rand", "position": "Senior Mathematician",
                             "startDate": "1949-01", "endDate": "1967-01",
                             "description": "Wrote the A-0 compiler.\nLed the team behind FLOW-MATIC."}],
         "skills": ["COBOL", "Compilers"]}


@pytest.fixture(autouse=True)
def _fresh_cache():
    previews.clear_cache()
    template_previews.clear_cache()
    yield
    previews.clear_cache()
    template_previews.clear_cache()


@pytest.fixture
def resume(owner, create):
    response = create(title="Grace's resume", contentJson=SHORT)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["data"]["id"]


def picture(client, url) -> Image.Image:
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "image/png", response.get_data()[:200]
    return Image.open(io.BytesIO(response.data)).convert("RGB")


def difference(a: Image.Image, b: Image.Image) -> float:
    return sum(ImageStat.Stat(ImageChops.difference(a, b.resize(a.size))).mean) / 3


def test_every_template_is_drawn_with_the_resume_and_kept_per_version(client, resume, monkeypatch):
    listed = client.get("/api/templates").get_json()["data"]
    response = client.get(f"/api/resumes/{resume}/template-previews")
    assert response.status_code == 200, response.get_json()
    entries = response.get_json()["data"]
    assert [e["templateId"] for e in entries] == [t["id"] for t in listed]  # every template, the list's order
    assert [(e["drawn"], e["width"], e["height"]) for e in entries] == [(True, 240, 339)] * len(entries)
    own = next(e for e in entries if e["templateId"] == client.get(f"/api/resumes/{resume}")
               .get_json()["data"]["templateId"])
    shown = {e["templateId"]: picture(client, e["url"]) for e in entries}
    assert all(image.size == (240, 339) for image in shown.values())
    # page 1 of the resume's own template is page 1 of the editor's preview (the real PDF), not the sample
    preview_page = picture(client, client.get(f"/api/resumes/{resume}/preview").get_json()["data"]["pages"][0]["url"])
    assert difference(shown[own["templateId"]], preview_page) < 4
    sample = Image.open(io.BytesIO(client.get(f"/api/templates/{own['templateId']}/thumbnail").data)).convert("RGB")
    assert difference(shown[own["templateId"]], sample) > difference(shown[own["templateId"]], preview_page) + 2
    assert len({image.tobytes() for image in shown.values()}) == len(entries)  # each template its own picture
    assert client.get(own["url"]).headers["Cache-Control"] == "private, max-age=86400, immutable"

    # the same version again: nothing is drawn
    monkeypatch.setattr(template_previews, "_draw", lambda *a, **k: pytest.fail("drawn again"))
    assert client.get(f"/api/resumes/{resume}/template-previews").get_json()["data"] == entries
    monkeypatch.undo()

    # a save is a new version: new addresses; an old address answers the current picture, not kept
    assert client.put(f"/api/resumes/{resume}", json={"title": "Grace, again"}).status_code == 200
    after = client.get(f"/api/resumes/{resume}/template-previews").get_json()["data"]
    assert all(a["url"] != b["url"] and a["drawn"] for a, b in zip(after, entries))
    stale = client.get(entries[0]["url"])
    assert stale.status_code == 200 and stale.headers["Cache-Control"] == "private, no-store"


def test_the_first_page_is_the_resumes_own_template_per_version(client, resume, templates):
    updated = client.get(f"/api/resumes/{resume}").get_json()["data"]["updatedAt"]
    first = client.get(f"/api/resumes/{resume}/first-page.png", query_string={"v": updated})
    assert first.status_code == 200 and first.mimetype == "image/png"
    assert first.headers["Cache-Control"] == "private, max-age=86400, immutable"
    assert Image.open(io.BytesIO(first.data)).size == (240, 339)
    other = templates["basic"][1]
    saved = client.put(f"/api/resumes/{resume}", json={"templateId": other}).get_json()["data"]
    stale = client.get(f"/api/resumes/{resume}/first-page.png", query_string={"v": updated})
    assert stale.headers["Cache-Control"] == "private, no-store"  # an old address: the current page, not kept
    now = client.get(f"/api/resumes/{resume}/first-page.png", query_string={"v": saved["updatedAt"]})
    assert now.headers["Cache-Control"] == "private, max-age=86400, immutable" and now.data == stale.data
    assert difference(Image.open(io.BytesIO(now.data)).convert("RGB"),
                      Image.open(io.BytesIO(first.data)).convert("RGB")) > 2  # drawn in the new template


def test_only_the_owner_sees_the_pictures(app, client, resume, templates, make_user):
    entries = client.get(f"/api/resumes/{resume}/template-previews").get_json()["data"]
    paths = (f"/api/resumes/{resume}/template-previews", entries[0]["url"], f"/api/resumes/{resume}/first-page.png")
    anonymous = app.test_client()
    assert all(anonymous.get(path).status_code == 401 for path in paths)
    stranger = make_user()
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": stranger["email"], "password": stranger["password"]})
    for path in paths:
        response = other.get(path)
        assert response.status_code == 403 and response.get_json()["code"] == "RESUME_NOT_OWNED", path
    for path in ("/api/resumes/nope/template-previews", "/api/resumes/nope/first-page.png",
                 f"/api/resumes/nope/template-previews/{templates['basic'][0]}.png"):
        assert client.get(path).get_json()["code"] == "RESUME_NOT_FOUND", path
    unknown = client.get(f"/api/resumes/{resume}/template-previews/nope.png")
    assert unknown.status_code == 404 and unknown.get_json()["details"] == {"templateId": "nope"}
    bad = client.get(f"/api/resumes/{resume}/template-previews", query_string={"pageSize": "A0"})
    assert bad.status_code == 400 and bad.get_json()["details"]["field"] == "pageSize"


def test_a_version_too_heavy_in_one_template_is_refused_in_every_one(app, client, resume, monkeypatch):
    def too_slow(self, *args, **kwargs):
        error = renderers.TooSlow("too slow")
        error.cpu = app.config["PREVIEW_TIMEOUT"]  # it had the CPU: the document is heavy
        raise error

    monkeypatch.setattr(renderers.Renderers, "render", too_slow)
    entries = client.get(f"/api/resumes/{resume}/template-previews").get_json()["data"]
    assert not any(e["drawn"] for e in entries)
    for entry in entries[:2]:
        response = client.get(entry["url"])
        assert response.status_code == 422 and response.get_json()["code"] == "PREVIEW_TOO_HEAVY"


class FakePool:
    """Renderers' interface: records which lane rendered what, and whether anyone waits."""

    def __init__(self, waiting: int = 0, parallel: bool = False):
        self.waiting, self.calls, self.lock = waiting, [], threading.Lock()
        self.running, self.both = 0, threading.Event()
        self.parallel = parallel  # the first render waits (5 s at most) until a second one runs beside it

    def render(self, source, options, photo, *, font_dir, timeout, wait, owner):
        with self.lock:
            self.calls.append((threading.current_thread().name, wait, owner))
            self.running += 1
            if self.running == 2:
                self.both.set()
        try:
            if self.parallel:
                self.both.wait(5)
            return renderers.Rendered(data=documents.render("pdf", source), pages=[(595.0, 842.0)])
        finally:
            with self.lock:
                self.running -= 1


def _batch(pool, count=4):
    source = documents.Source(html_template="<h1>{{ personalInfo.name }}</h1>", css="", title="t",
                              content=SHORT, visible={})
    jobs = deque(template_previews._Job(key=f"k{n}", template_id=f"t{n}", source=source) for n in range(count))
    return template_previews._Batch(jobs, pool, documents.Options(), None, 10, "", owner="u1", height=339)


def test_a_batch_draws_on_two_lanes_and_the_second_takes_only_a_free_child_nobody_waits_for(monkeypatch):
    pool = FakePool(parallel=True)
    _batch(pool).run(single=False)
    assert pool.both.is_set()  # two renders at once
    assert len(pool.calls) == 4 and all(owner == "u1" for _, _, owner in pool.calls)
    assert {wait for name, wait, _ in pool.calls if name == "template-previews"} <= {0}  # never waits for one
    assert all(template_previews._cache.get(f"k{n}") for n in range(4))

    template_previews.clear_cache()
    crowded = FakePool(waiting=1)  # another user waits for a child: the batch keeps to its one lane
    _batch(crowded).run(single=False)
    assert len(crowded.calls) == 4 and {name for name, _, _ in crowded.calls} == {"MainThread"}

    template_previews.clear_cache()
    mine = FakePool()  # the user's own preview waits for the turn: the batch draws nothing more
    monkeypatch.setattr(previews, "others_waiting", lambda user_id: user_id == "u1")
    _batch(mine).run(single=False)
    assert mine.calls == []


def test_the_render_children_count_who_waits_and_whose_renders_run():
    pool = renderers.Renderers(1)
    pool._free.acquire()  # the one child is busy
    source = documents.Source(html_template="<p>x</p>", css="", title="", content={}, visible={})
    answers = []

    def wait_for_a_child():
        try:
            pool.render(source, documents.Options(), None, font_dir="", timeout=1, wait=0.5)
        except renderers.Busy:
            answers.append("busy")

    waiter = threading.Thread(target=wait_for_a_child)
    waiter.start()
    deadline = time.monotonic() + 5
    while not pool.waiting and time.monotonic() < deadline:
        time.sleep(0.01)
    assert pool.waiting == 1  # a batch's second lane gives way to it
    waiter.join()
    assert answers == ["busy"] and pool.waiting == 0
    with pytest.raises(renderers.Busy):  # without a wait: refused at once, never counted as waiting
        pool.render(source, documents.Options(), None, font_dir="", timeout=1, wait=0)

    # two renders of one owner (a batch's lanes) do not demote each other; another's render does
    pool._count(1, "u1")
    pool._count(1, "u1")
    assert not pool._contended("u1")
    pool._count(1, None)
    assert pool._contended("u1") and pool._contended(None)
