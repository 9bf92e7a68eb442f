"""Profile details printed as key–value lines or table rows ("Name: Ada Lovelace", "Date of birth: …",
"Contact: +49 … Email: ada@…"), and the words a document is titled by rather than its owner's name
("Lebenslauf", "Curriculum Vitae", "简历").

A label is known by its words in some twenty languages; what it names is a field of ``personalInfo``
(name, its given and family parts, label, email, phone, address, url) or ``other``: a detail the content
has no field for (a date of birth, a nationality), which the header notes as unplaced instead of taking
it for an address or a headline.
"""
from __future__ import annotations

import re

from app.importing.words import CONTACT_LABELS

LABELS: dict[str, tuple[str, ...]] = {
    "name": ("name", "full name", "nombre", "nombre completo", "nome", "nome completo", "naam", "imię i nazwisko",
             "фио", "ф.и.о", "ім'я", "姓名", "名前", "氏名", "이름", "성명", "họ tên", "họ và tên", "ad soyad",
             "jméno", "jméno a příjmení", "nom complet", "vollständiger name"),
    "given": ("first name", "given name", "vorname", "prénom", "имя", "imię", "nombres", "primeiro nome"),
    "family": ("last name", "surname", "family name", "nachname", "familienname", "nom", "фамилия", "nazwisko",
               "apellidos", "apellido", "sobrenome", "cognome", "achternaam", "soyad"),
    "label": ("current role", "current position", "position", "job title", "title", "profession", "occupation",
              "beruf", "position", "poste", "profession", "cargo", "profissão", "professione", "должность",
              "профессия", "职位", "当前职位", "求职意向", "意向岗位", "期望职位", "应聘职位", "职业", "希望職種",
              "職種", "직무", "nghề nghiệp", "vị trí"),
    "email": ("e-mail address", "email address", "adresse e-mail", "courriel", "электронная почта", "почта",
              "メール", "メールアドレス", "이메일", "e-posta", "posta elettronica"),
    "phone": ("contact", "contact number", "kontakt", "telefon", "handy", "mobil", "mobilnummer", "téléphone",
              "portable", "telefone", "telemóvel", "telefono", "cellulare", "телефон", "моб", "мобильный",
              "電話", "電話番号", "携帯", "전화", "휴대폰", "điện thoại", "telefon numarası", "cep"),
    "address": ("anschrift", "adresse", "wohnort", "endereço", "indirizzo", "adres", "адрес", "住所", "現住所", "居住地",
                "주소", "địa chỉ", "residence", "based in", "籍贯"),
    "url": ("blog", "portfolio", "博客", "ブログ", "个人网站"),
    # a network's account: the header reads "GitHub: https://github.com/…" as a profile
    "profile": ("github", "gitlab", "linkedin", "telegram", "twitter", "x", "stack overflow", "stackoverflow",
                "medium", "behance", "dribbble", "gitee", "kaggle", "youtube", "instagram", "facebook", "mastodon",
                "skype", "whatsapp", "wechat", "微信", "qq", "知乎", "码云", "掘金", "vk", "вконтакте", "xing"),
    "other": ("date of birth", "birth date", "born", "birthday", "dob", "age", "nationality", "citizenship",
              "marital status", "gender", "sex", "driving licence", "driver's license", "visa", "languages",
              "geburtsdatum", "geboren", "geburtsort", "staatsangehörigkeit", "nationalität", "familienstand",
              "alter", "führerschein", "date de naissance", "né le", "née le", "nationalité", "âge",
              "situation familiale", "permis", "fecha de nacimiento", "nacionalidad", "edad", "estado civil",
              "data de nascimento", "nacionalidade", "idade", "data di nascita", "nazionalità", "età",
              "geboortedatum", "nationaliteit", "data urodzenia", "дата рождения", "возраст", "гражданство",
              "семейное положение", "出生日期", "出生年月", "生日", "年龄", "性别", "民族", "政治面貌", "婚姻状况",
              "学历", "工作年限", "工作经验", "毕业院校", "生年月日", "年齢", "性別", "国籍", "ふりがな", "フリガナ",
              "生年月日", "생년월일",
              "나이", "성별", "ngày sinh", "doğum tarihi", "years of experience", "experience"),
}
_FIELD_OF = {label: field for field, labels in LABELS.items() for label in labels}
_CONTACT = {label: field for field, labels in (("email", ("e-mail", "email", "mail", "correo", "correo electrónico",
                                                          "邮箱", "电子邮件", "电子邮箱")),
                                                ("phone", ("phone", "telephone", "tel", "mobile", "cell", "teléfono",
                                                           "móvil", "celular", "电话", "手机", "联系电话")),
                                                ("address", ("address", "location", "dirección", "ubicación", "地址",
                                                             "住址", "所在地", "现居", "现居地", "城市")),
                                                ("url", ("website", "web", "homepage", "url", "sitio web",
                                                         "página web", "网站", "主页", "个人主页")))
            for label in labels}   # the header's own contact labels (words.CONTACT_LABELS) by the field they name
_ALL = sorted({*_FIELD_OF, *CONTACT_LABELS}, key=len, reverse=True)
_ALTERNATIVES = "|".join(re.escape(label) for label in _ALL)
# "Name: Ada", "姓名：张三", "E-Mail Address : ada@x.org": a known label, a colon, the value.
_ICON = r"(?:[^\w\s(（+]\s*)?"  # an icon font's glyph before a label ("\uf0e0 Email:")
_PAIR = re.compile(rf"^\s*{_ICON}(?P<label>{_ALTERNATIVES})\.?\s*[:：]\s*(?P<value>\S.*?)\s*$", re.IGNORECASE)
# A second pair on the same line: "Contact: +86 151 0166 9791 Email: ada@x.org".
_INNER = re.compile(rf"(?<=\S)(?:\s+|\s*[,;，；]\s*)(?={_ICON}(?:{_ALTERNATIVES})\.?\s*[:：])", re.IGNORECASE)

_WORD = re.compile(r"\w")

# What a document is titled, not who it is about.
TITLES = frozenset(("resume", "résumé", "resumé", "curriculum vitae", "curriculum vitæ", "cv", "c.v", "vita",
                    "lebenslauf", "tabellarischer lebenslauf", "currículum", "currículum vitae", "curriculo",
                    "currículo", "hoja de vida", "curriculum", "životopis", "życiorys", "резюме", "özgeçmiş",
                    "简历", "个人简历", "简 历", "履歴書", "職務経歴書", "이력서", "sơ yếu lý lịch", "my resume",
                    "résumé de carrière", "personal resume", "bewerbung", "persönliche daten", "personal data",
                    "personal details", "personal information", "个人信息", "基本信息", "données personnelles"))
_TITLE_ALTERNATIVES = "|".join(re.escape(t) for t in sorted(TITLES, key=len, reverse=True))
_FRAME = re.compile(rf"^(?:(?:{_TITLE_ALTERNATIVES})(?:\s+(?:of|von|de|di))?\s*[-–—:|·,]?\s+)(?P<rest>\S.*)$"
                    rf"|^(?P<before>\S.*?)\s*[-–—:|·,]\s*(?:{_TITLE_ALTERNATIVES})\s*$", re.IGNORECASE)


def pairs(text: str) -> list[tuple[str, str]]:
    """The (field, value) pairs of a key–value line, in order; [] when it is not one. A field is a key of
    LABELS, or email/phone/address/url for the contact labels the header already knew."""
    found = []
    for part in split(text):
        match = _PAIR.match(part)
        if match is None:
            return []
        label = match.group("label").casefold()
        field = _FIELD_OF.get(label) or _CONTACT.get(label)
        if field is None:
            return []
        found.append((field, match.group("value").strip(" ,;，；")))
    return found


def is_label(text: str) -> bool:
    """Whether a line is a known label alone ("氏名", "Name:"): a grid form prints its value below it."""
    found = pairs(f"{text.strip().rstrip(':：')}: \x00")
    return len(found) == 1 and found[0][1] == "\x00"


def split(text: str) -> list[str]:
    """A line cut before each label of a second pair: "Contact: +86 … Email: ada@x.org" in two."""
    return [part for part in _INNER.split(text) if _WORD.search(part)]  # not an icon alone


# The day a document was written, after its title: "履歴書 2022年 7月 1日 現在", "Lebenslauf, Stand: 01.03.2020".
_AS_OF = re.compile(r"^[\s,;:：|–—-]*(?:stand|as of|updated|aktualisiert|mis à jour|更新)?\s*[:：]?\s*"
                    r"[\d\s年月日./-]*\d[\d\s年月日./-]*(?:現在|时|時点)?\s*$", re.IGNORECASE)


def is_title(text: str) -> bool:
    """Whether a line is the document's title ("Lebenslauf", "CURRICULUM VITAE", "个人简历"), with the day
    it was written or not."""
    rest = unframed(text)
    if rest != text.strip() and _AS_OF.match(rest):
        return True
    text = re.sub(r"(?<=[^\x00-\u2e7f])\s+(?=[^\x00-\u2e7f])", "", text)   # "職 務 経 歴 書", spaced out
    return re.sub(r"[\s:：.]+", " ", text).strip().casefold() in TITLES


def unframed(text: str) -> str:
    """A name without the title around it: "Résumé – Ada Lovelace", "Ada Lovelace | CV", "CV of Ada"."""
    match = _FRAME.match(text.strip())
    if match is None:
        return text
    return (match.group("rest") or match.group("before") or text).strip()
