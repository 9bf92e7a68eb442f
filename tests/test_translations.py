"""The Chinese catalogues (app/translations/<area>/zh/): complete, and one translation per message.

Flask-Babel merges every area's catalogue, so a message translated two ways in two areas would show
whichever catalogue happens to win; these tests keep that from happening unseen.
"""
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from app import i18n

CATALOGUES = sorted(Path(i18n.TRANSLATIONS).glob("*/zh/LC_MESSAGES/messages.po"))


def _messages(po: Path):
    with po.open("rb") as source:
        return [m for m in read_po(source) if m.id]


def test_there_is_a_catalogue_per_area():
    assert {po.parts[-4] for po in CATALOGUES} >= {"shell", "dashboard", "editor", "side", "account", "billing",
                                                   "emails", "webhooks", "public"}


@pytest.mark.parametrize("po", CATALOGUES, ids=[po.parts[-4] for po in CATALOGUES])
def test_every_message_is_translated(po):
    assert not [m.id for m in _messages(po) if not m.string or (isinstance(m.string, tuple) and not all(m.string))]


def test_a_message_has_one_translation_across_the_areas():
    translations: dict = {}
    for po in CATALOGUES:
        for m in _messages(po):
            translations.setdefault((m.context, m.id if isinstance(m.id, str) else m.id[0]), {}).setdefault(
                m.string if isinstance(m.string, str) else m.string[0], []).append(po.parts[-4])
    assert not {key: found for key, found in translations.items() if len(found) > 1}


def test_catalogues_compile_and_the_app_shows_chinese(client, make_user, login):
    i18n.compile_catalogues()
    login(make_user())
    client.put("/api/account", json={"preferences": {"language": "zh-cn"}})
    page = client.get("/dashboard")
    assert page.status_code == 200 and "退出登录" in page.get_data(as_text=True)
