"""An analysis reads the job's language and answers in the resume's (issue 23 point 5): a job ad in each
language the service supports gives its skills as keywords and none of its stopwords, the checks that
only mean something in English do not run on other languages, and the suggestions are in the
resume's language."""
from __future__ import annotations

import re

import pytest

from app.content.language import LANGUAGES
from app.matching import messages
from app.matching.engine import analyse
from app.matching.keywords import keywords

TECH = {"python", "django", "postgresql"}
ADS = {
    "en": "We are looking for an experienced Python developer with Django and PostgreSQL for our team in London.",
    "zh-Hans": "招聘后端工程师，需具备 Python、Django 和 PostgreSQL 经验，工作地点上海。",
    "zh-Hant": "誠徵後端工程師，需具備 Python、Django 與 PostgreSQL 經驗，工作地點台北。",
    "ja": "Pythonエンジニアを募集しています。DjangoとPostgreSQLの経験が必要です。勤務地は東京です。",
    "ko": "우리는 Django와 PostgreSQL 경험이 있는 Python 개발자를 서울에서 찾고 있습니다.",
    "es": "Buscamos un desarrollador Python con experiencia en Django y PostgreSQL para nuestra oficina de Madrid.",
    "fr": "Nous recherchons un développeur Python avec une bonne maîtrise de Django et PostgreSQL pour notre bureau "
          "de Paris.",
    "de": "Wir suchen einen erfahrenen Python-Entwickler mit Kenntnissen in Django und PostgreSQL für unser Team in "
          "Berlin.",
    "pt": "Procuramos um desenvolvedor Python com experiência em Django e PostgreSQL para o nosso escritório em "
          "Lisboa.",
    "ru": "Мы ищем опытного разработчика Python в Москве. Требования: опыт работы с Django и PostgreSQL от 3 лет.",
    "ar": "نبحث عن مطور Python لديه خبرة في Django و PostgreSQL للعمل في دبي.",
    "hi": "हम Django और PostgreSQL के अनुभव वाले Python डेवलपर की तलाश में हैं।",
    "he": "אנו מחפשים מפתח Python עם ניסיון ב-Django ו-PostgreSQL בתל אביב.",
    "th": "เรากำลังมองหานักพัฒนา Python ที่มีประสบการณ์ Django และ PostgreSQL ในกรุงเทพฯ",
}
# The role as the ad names it is a fair keyword; nothing else but the skills is.
ROLES = {"developer", "desarrollador", "développeur", "desenvolvedor", "python-entwickler", "后端工程师", "後端工程師"}


def test_there_is_an_ad_for_every_language_the_service_supports():
    assert set(ADS) == set(LANGUAGES)


@pytest.mark.parametrize("lang", sorted(ADS))
def test_a_jobs_keywords_are_its_skills_in_every_language(lang):
    found = {k.label.casefold() for k in keywords(ADS[lang])}
    assert found - ROLES - TECH == set(), found
    assert TECH <= found | {"python"} and ("python" in found or "python-entwickler" in found), found


def _resume(lang: str, summary: str, lines: list[str], extra_words: str = "") -> dict:
    return {"language": lang,
            "personalInfo": {"name": "A", "email": "a@example.com", "phone": "+1 555 0100", "summary": summary},
            "workExperience": [{"company": "X", "position": "Y", "startDate": "2019-01", "endDate": "",
                                "description": "\n".join(lines), "highlights": []}],
            "education": [{"school": "S", "degree": "D", "startDate": "2010-09", "endDate": "2014-06"}],
            "skills": ["Python"], "interests": [{"name": extra_words}] if extra_words else []}


def _script_of(text: str) -> str:
    for name, pattern in (("cjk", r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]"), ("cyrillic", r"[\u0400-\u04ff]"),
                          ("arabic", r"[\u0600-\u06ff]"), ("hebrew", r"[\u0590-\u05ff]"),
                          ("devanagari", r"[\u0900-\u097f]"), ("thai", r"[\u0e00-\u0e7f]")):
        if re.search(pattern, text):
            return name
    return "latin"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_suggestions_come_in_the_resumes_language(lang):
    resume = _resume(lang, "", ["x"])          # no summary, a short resume: at least two suggestions
    result = analyse(resume, ADS[lang] + " Kafka")
    said = [s["message"] for s in result["suggestions"]]
    assert len(said) >= 2
    for message in said:
        expected = messages.MESSAGES["no summary"][lang]
        assert _script_of(message) == _script_of(expected), (lang, message)
    if lang != "en":
        assert not any(m in messages.MESSAGES[key]["en"] for m in said for key in messages.MESSAGES), said


def test_every_message_is_in_every_language_but_the_verbs_check():
    for key, texts in messages.MESSAGES.items():
        wanted = {"en", "zh-Hans", "zh-Hant"} if key == "verbs" else set(LANGUAGES)
        assert set(texts) == wanted, key
        for text in texts.values():
            assert set(re.findall(r"{(\w+)}", text)) <= set(re.findall(r"{(\w+)}", texts["en"])), (key, text)


RUSSIAN_LINE = "Руководил переходом платёжных сервисов на единый журнал событий и сократил задержки вдвое"


def test_english_only_checks_do_not_run_on_other_languages():
    """A Russian resume is not told its lines lack English action verbs, nor that it is short when it is
    not: its words are counted in Cyrillic too."""
    resume = _resume("ru", "Опытный инженер с десятилетним стажем разработки распределённых систем и "
                           "платёжных платформ.", [RUSSIAN_LINE] * 12)
    result = analyse(resume, ADS["ru"])
    said = " ".join(s["message"] for s in result["suggestions"])
    assert "глагол" not in said and "verb" not in said
    assert messages.MESSAGES["short"]["ru"] not in said
    # The verbs' share is not measured, so it does not cost the resume its points.
    english = analyse(dict(resume, language="en"), ADS["ru"])
    assert result["contentScore"] > english["contentScore"]


def test_traditional_chinese_lines_start_with_traditional_verbs():
    lines = ["負責訂單系統重構，回應時間降低 80%", "主導會員服務拆分", "優化監控平台，告警減少 60%"]
    result = analyse(_resume("zh-Hant", "十年後端開發經驗，" * 6, lines), ADS["zh-Hant"])
    said = [s["message"] for s in result["suggestions"]]
    assert not any("動詞" in m for m in said), said


def test_a_japanese_summary_is_counted_in_characters():
    long = _resume("ja", "分散システムの設計と運用に十年携わってきたエンジニアです。" * 12, ["x"])
    said = [s["message"] for s in analyse(long, ADS["ja"])["suggestions"]]
    assert any(re.match(r"自己紹介は \d+ 文字あります", m) for m in said), said
