"""The interface in ten languages (app/i18n.py LANGUAGES): chosen from Accept-Language, on a public page (a
cookie) or in the account; pages carry the language's tag and direction, API errors and mails its words."""
import re

import pytest

from app import i18n
from tests.support import PASSWORD, said, text_part


def html_lang(response) -> tuple[str, str]:
    found = re.search(r'<html lang="([^"]+)" dir="(ltr|rtl)"', response.get_data(as_text=True))
    return found.groups() if found else ("", "")


def test_there_are_ten_languages_each_with_a_catalogue():
    assert list(i18n.LANGUAGES) == ["en", "zh-cn", "zh-tw", "es", "fr", "de", "pt-br", "ja", "ar", "hi"]
    for code, language in i18n.LANGUAGES.items():
        assert code == "en" or i18n.catalogue_path(language.locale).exists(), code
    assert [code for code, language in i18n.LANGUAGES.items() if language.rtl] == ["ar"]


@pytest.mark.parametrize("asked, tag", [
    ("fr-CA,fr;q=0.9,en;q=0.5", "fr"), ("zh-TW", "zh-TW"), ("zh-HK,zh;q=0.8", "zh-TW"), ("zh", "zh-CN"),
    ("pt", "pt-BR"), ("pt-BR", "pt-BR"), ("de-AT", "de"), ("ar-EG", "ar"), ("hi-IN", "hi"), ("ja-JP", "ja"),
    ("es-419", "es"), ("ko-KR", "en"), ("", "en"),
])
def test_a_visitor_reads_the_best_match_of_accept_language(client, asked, tag):
    response = client.get("/login", headers={"Accept-Language": asked} if asked else {})
    assert html_lang(response) == (tag, "rtl" if tag == "ar" else "ltr")


def test_a_visitor_chooses_a_language_on_a_public_page_and_stays_on_it(client):
    login = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'href="/language/ar?next=/login"' in login and 'lang="ar"' in login  # the switcher, in Arabic letters
    chosen = client.get("/language/ar?next=/login")
    assert chosen.status_code == 303 and chosen.headers["Location"] == "/login"
    page = client.get("/login", headers={"Accept-Language": "en"})
    assert html_lang(page) == ("ar", "rtl")
    assert said("ar", "Sign in") in page.get_data(as_text=True)
    # only this site's pages as the way back; an unknown language changes nothing
    assert client.get("/language/fr?next=//evil.example/x").headers["Location"] == "/"
    assert client.get("/language/xx?next=/login").status_code == 303
    assert html_lang(client.get("/login")) == ("fr", "ltr")


def test_the_account_speaks_the_language_it_chose(client, make_user, login):
    login(make_user())
    assert client.put("/api/account", json={"preferences": {"language": "ar"}}).status_code == 200
    assert html_lang(client.get("/dashboard", headers={"Accept-Language": "en"})) == ("ar", "rtl")
    missing = client.get("/api/resumes/0123456789abcdef01234567", headers={"Accept-Language": "en"}).get_json()
    assert missing["code"] == "RESUME_NOT_FOUND" and missing["error"] == said("ar", "This resume does not exist or was deleted.")
    refused = client.put("/api/account", json={"preferences": {"language": "xx"}})
    assert refused.status_code == 400 and refused.get_json()["details"]["field"] == "preferences.language"


def test_signing_up_in_french_gives_a_french_account_and_mail(client, mailbox):
    body = {"email": "amelie@example.com", "password": PASSWORD, "name": "Amélie"}
    assert client.post("/api/register", json=body, headers={"Accept-Language": "fr-FR,fr;q=0.9"}).status_code == 201
    mail = mailbox.wait_for("amelie@example.com")
    assert mail["Subject"] == said("fr", "Verify your email address")
    assert said("fr", "Hello %(name)s,") % {"name": "Amélie"} in text_part(mail)
