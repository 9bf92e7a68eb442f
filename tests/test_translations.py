"""The one message catalogue (app/translations): up to date with the code, complete in every language,
placeholders kept; scripts get their messages from it, and API errors come back in the reader's language
with their codes unchanged."""
import json
import re

import pytest
from babel.messages.pofile import read_po

from app import i18n

LANGUAGES = sorted(po.parts[-3] for po in i18n.TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"))
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def _catalogue(path):
    with path.open("rb") as source:
        return read_po(source)


def _key(message):
    return message.context, message.id if isinstance(message.id, str) else message.id[0]


def test_the_template_holds_exactly_what_the_code_says():
    """Fails when a message was added, changed or removed in the code without `make messages`."""
    extracted = {_key(m) for m in i18n.extract() if m.id}
    template = {_key(m) for m in _catalogue(i18n.TRANSLATIONS / "messages.pot") if m.id}
    assert sorted(extracted - template, key=str) == [], "run make messages"
    assert sorted(template - extracted, key=str) == [], "run make messages"


def test_the_section_registry_reaches_the_catalogue_without_marking():
    from app.content.sections import ENTRIES, HEADINGS

    template = {_key(m)[1] for m in _catalogue(i18n.TRANSLATIONS / "messages.pot") if m.id}
    words = {*HEADINGS.values(), *(e.add for e in ENTRIES.values()),
             *(f.label for e in ENTRIES.values() for f in e.fields)}
    assert words - template == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(language):
    template = {_key(m) for m in _catalogue(i18n.TRANSLATIONS / "messages.pot") if m.id}
    catalogue = _catalogue(i18n.catalogue_path(language))
    messages = {_key(m): m for m in catalogue if m.id}
    assert sorted(template - set(messages), key=str) == [], "run make messages"
    untranslated = [key for key, m in messages.items() if not m.string or m.fuzzy]
    assert untranslated == []
    dropped = {key: m.string for key, m in messages.items()
               if sorted(PLACEHOLDER.findall(key[1])) != sorted(PLACEHOLDER.findall(m.string))}
    assert dropped == {}


def test_catalogues_compile_and_the_app_shows_chinese(client, make_user, login):
    i18n.compile_catalogues()
    login(make_user())
    client.put("/api/account", json={"preferences": {"language": "zh-cn"}})
    page = client.get("/dashboard")
    assert page.status_code == 200 and "退出登录" in page.get_data(as_text=True)


def _page_strings(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-strings">(.*?)</script>', html, re.S)
    return json.loads(found.group(1))


def test_a_page_carries_its_scripts_messages_from_the_catalogue(client, resume_id):
    """The editor's scripts' messages (a picker's, the side column's, the AI panel's) and the shared
    ones, translated; none of another folder's; in English none at all (a script shows the id)."""
    english = _page_strings(client.get(f"/resumes/{resume_id}/edit").get_data(as_text=True))
    assert english == {}
    client.put("/api/account", json={"preferences": {"language": "zh-cn"}})
    strings = _page_strings(client.get(f"/resumes/{resume_id}/edit").get_data(as_text=True))
    assert strings["Template switched to {name}."] == "模板已切换为 {name}。"  # editor/picker.js
    assert strings["Page {n} of {total}"].count("{n}") == 1  # editor/preview.js, via the side column
    assert "Important" in strings  # editor/ai-panel.js, N_ in a table
    assert "Your session has ended. Sign in again." in strings  # shared/api.js
    assert "Delivery log" not in strings  # webhooks/page.js: another page's
    dashboard = _page_strings(client.get("/dashboard").get_data(as_text=True))
    assert "Your plan allows {limit} resumes, so this one cannot be restored. Delete one, or upgrade for more." \
        in dashboard and "Template switched to {name}." not in dashboard


def test_api_errors_come_in_the_readers_language_with_the_code_unchanged(client, make_user, login):
    """Accept-Language for anyone; the account's language once signed in, whatever the header."""
    body = {"email": "nobody@example.com", "password": "wrong-password-1"}
    english = client.post("/api/auth/signin", json=body)
    chinese = client.post("/api/auth/signin", json=body, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert english.status_code == chinese.status_code == 401
    assert english.get_json()["code"] == chinese.get_json()["code"] == "INVALID_CREDENTIALS"
    assert re.search(r"[\u4e00-\u9fff]", chinese.get_json()["error"])
    assert not re.search(r"[\u4e00-\u9fff]", english.get_json()["error"])

    user = make_user()
    login(user)
    client.put("/api/account", json={"preferences": {"language": "zh-cn"}})
    missing = client.get("/api/resumes/0123456789abcdef01234567")
    assert missing.get_json()["code"] == "RESUME_NOT_FOUND"
    assert re.search(r"[\u4e00-\u9fff]", missing.get_json()["error"])
    invalid = client.post("/api/resumes", json={"title": 5})
    assert invalid.status_code == 400 and invalid.get_json()["details"]["field"] == "title"
    said = invalid.get_json()["error"]
    assert said.startswith("title") and re.search(r"[\u4e00-\u9fff]", said)


def test_every_field_of_a_validation_error_is_in_the_readers_language(client):
    """``details.errors`` too, marshmallow's messages with values in them (a length's limits) included, the
    values kept; the paths stay the API's."""
    body = {"email": 42, "name": "", "extra": 1}
    english = client.post("/api/register", json=body).get_json()
    german = client.post("/api/register", json=body, headers={"Accept-Language": "de"}).get_json()
    assert english["code"] == german["code"] == "VALIDATION_ERROR"
    assert set(english["details"]["errors"]) == set(german["details"]["errors"]) == {"email", "name", "password",
                                                                                      "extra"}
    assert english["details"]["errors"]["name"] == "Length must be between 1 and 100."
    assert german["details"]["errors"] == {"email": "Keine gültige E-Mail-Adresse.",
                                           "name": "Die Länge muss zwischen 1 und 100 liegen.",
                                           "password": "Dieses Pflichtfeld fehlt.", "extra": "Unbekanntes Feld."}


def test_a_schema_message_with_a_value_of_ours_is_translated_with_the_value_kept(client, make_user, login):
    """``app.messages.with_values``: a billing change naming a field its action does not use."""
    login(make_user())
    client.put("/api/account", json={"preferences": {"language": "fr"}})
    refused = client.put("/api/account/subscription", json={"action": "cancel", "planId": "premium"}).get_json()
    assert refused["code"] == "VALIDATION_ERROR" and refused["details"]["field"] == "planId"
    assert refused["error"] == "planId: Non utilisé par cancel."
