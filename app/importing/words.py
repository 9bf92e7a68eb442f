"""The words an import recognises, in English and Chinese (Spanish, and the commonest French, German and
Portuguese headings too; the headings and labels our templates print in every language,
``app.content.vocabulary``): section headings, contact labels, and the
words that tell a job title from an employer and a degree from a school.

Headings are compared after ``heading_key``: lower case, punctuation and "&"/"and" dropped, spaces
collapsed. A bilingual heading ("工作经历 EXPERIENCE", as Jinghua prints them) counts when each of
its scripts names the same section. Besides the content model's sections there are ``summary``
(personalInfo.summary) and ``contact`` (the header's details set under a heading of their own).
"""
from __future__ import annotations

import re

from app.content import vocabulary
from app.importing import lexicon

HEADINGS: dict[str, tuple[str, ...]] = {
    "summary": ("summary", "profile", "professional summary", "career summary", "about", "about me", "objective",
                "career objective", "personal statement", "overview", "professional profile", "introduction",
                "个人简介", "个人总结", "自我评价", "个人概述", "简介", "职业概述", "个人陈述", "关于我", "个人评价",
                "职业目标", "求职意向", "自我介绍", "perfil", "perfil profesional", "resumen", "resumen profesional", "sobre mí",
                "acerca mí", "extracto", "objetivo", "objetivo profesional", "presentación", "profil", "à propos",
                "kurzprofil", "über mich", "resumo", "sobre mim"),
    "contact": ("contact", "contacts", "contact information", "contact details", "personal information",
                "personal details", "联系方式", "个人信息", "基本信息", "基本资料", "个人资料", "联系信息", "contacto",
                "datos personales", "información personal", "datos contacto", "coordonnées", "kontakt", "contato"),
    "workExperience": ("experience", "work experience", "professional experience", "employment",
                       "employment history", "work history", "career history", "relevant experience",
                       "career", "professional background", "工作经历", "工作经验", "职业经历", "实习经历",
                       "工作履历", "任职经历", "work", "experiencia", "experiencia profesional", "experiencia laboral",
                       "historial laboral", "trayectoria profesional", "expérience", "expérience professionnelle",
                       "berufserfahrung", "experiência", "experiência profissional"),
    "education": ("education", "academic background", "education training", "academic history",
                  "qualifications", "academic qualifications", "education background", "教育背景", "教育经历",
                  "学历", "学习经历", "教育", "educación", "formación", "formación académica", "estudios", "formation",
                  "ausbildung", "formação", "educação"),
    "skills": ("skills", "technical skills", "core skills", "key skills", "competencies", "core competencies",
               "expertise", "skills tools", "skills expertise", "skill set", "skillset", "technologies",
               "tools", "tech stack", "专业技能", "技能", "技能特长", "个人技能", "技术能力", "技能专长",
               "职业技能", "技术栈", "habilidades", "conocimientos", "conocimientos técnicos", "competencias", "aptitudes",
               "habilidades técnicas", "compétences", "kenntnisse", "fähigkeiten", "competências", "habilidades"),
    "projects": ("projects", "selected projects", "personal projects", "key projects", "project experience",
                 "side projects", "open source", "portfolio", "项目经历", "项目经验", "主要项目", "项目", "proyectos",
                 "proyectos destacados", "projets", "projekte", "projetos"),
    "languages": ("languages", "language skills", "language", "语言能力", "语言", "外语能力", "语言技能", "idiomas", "lenguas",
                  "langues", "sprachen"),
    "certificates": ("certificates", "certifications", "certificate", "certification", "licenses certifications",
                     "licences certifications", "licenses", "credentials", "证书", "资格证书", "专业证书", "认证",
                     "证书资质", "资质证书", "职业证书", "certificaciones", "certificados", "cursos certificaciones",
                     "zertifikate"),
    "awards": ("awards", "honors", "honours", "awards honors", "awards honours", "honors awards",
               "honours awards", "achievements", "awards achievements", "prizes", "获奖情况", "荣誉奖项",
               "奖项", "荣誉", "获奖经历", "所获荣誉", "获奖荣誉", "premios", "premios reconocimientos", "reconocimientos", "logros",
               "distinctions", "auszeichnungen", "prêmios"),
    "volunteer": ("volunteer", "volunteering", "volunteer experience", "volunteer work", "volunteer service",
                  "volunteering experience", "community service",
                  "community involvement", "志愿者经历", "志愿服务", "志愿经历", "公益活动", "社会实践", "voluntariado", "bénévolat",
                  "ehrenamt"),
    "publications": ("publications", "papers", "selected publications", "research publications",
                     "发表论文", "出版物", "论文发表", "学术成果", "论文", "发表作品", "出版作品", "著作", "publicaciones", "veröffentlichungen",
                     "publicações"),
    "interests": ("interests", "hobbies", "hobbies interests", "interests hobbies", "personal interests",
                  "兴趣爱好", "兴趣", "爱好", "个人爱好", "intereses", "aficiones", "centres intérêt", "interessen", "interesses"),
    "references": ("references", "referees", "推荐人", "证明人", "推荐信", "推荐", "referencias", "références", "referenzen",
                   "referências"),
}
_PUNCTUATION = re.compile(r"[^\w\s]|_", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7a3\uff66-\uff9f]+")  # kana, hangul too

CONTACT_LABELS = ("e-mail", "email", "mail", "phone", "telephone", "tel", "mobile", "cell", "address",
                  "location", "website", "web", "homepage", "url", "correo", "correo electrónico", "teléfono",
                  "móvil", "celular", "dirección", "ubicación", "sitio web", "página web", "电话", "手机", "联系电话", "邮箱",
                  "电子邮件",
                  "电子邮箱", "地址", "住址", "网站", "主页", "个人主页", "所在地", "现居", "现居地", "城市",
                  # the labels the templates print in each language ("الهاتف", "Téléphone")
                  *{words[label].casefold() for words in vocabulary.WORDS.values()
                    for label in ("Phone", "Email", "Address", "Website", "Profile")})
_LABEL = re.compile(r"^(?:(?:" + "|".join(re.escape(label) for label in sorted(CONTACT_LABELS, key=len, reverse=True))
                    # a Latin label is a word of its own: not "email" of "email@example.com", "MOBILE" of "MOBILE-ALT"
                    + r")(?:(?<![A-Za-z])|(?![A-Za-z0-9@_\-]|\.\w))\.?\s*[:：]?\s*)+", re.IGNORECASE)

POSITION_WORDS = (
    "engineer", "engineering", "developer", "programmer", "manager", "lead", "leader", "head", "director", "chief",
    "officer", "president", "vp", "architect", "designer", "analyst", "consultant", "scientist", "researcher",
    "specialist", "coordinator", "administrator", "assistant", "associate", "intern", "trainee", "apprentice",
    "technician", "advisor", "adviser", "editor", "writer", "teacher", "lecturer", "professor", "tutor", "nurse",
    "accountant", "auditor", "founder", "co-founder", "cofounder", "partner", "principal", "staff", "senior",
    "junior", "sre", "devops", "cto", "ceo", "cfo", "coo", "cio", "representative", "executive", "supervisor",
    "clerk", "fellow", "postdoc", "chair", "recruiter", "strategist", "planner", "operator", "owner", "volunteer",
    "member", "mentor", "organizer", "organiser", "coach", "instructor", "reliability", "backend", "frontend",
    "full-stack", "fullstack", "software", "product", "marketing", "sales", "committer", "maintainer",
    "contributor", "speaker", "moderator", "treasurer", "secretary", "captain",
    # Spanish, French, German, Portuguese
    "ingeniero", "ingeniera", "desarrollador", "desarrolladora", "programador", "programadora", "gerente", "jefe",
    "jefa", "director", "directora", "responsable", "analista", "consultor", "consultora", "investigador",
    "investigadora", "asistente", "becario", "becaria", "prácticas", "técnico", "técnica", "diseñador",
    "diseñadora", "arquitecto", "arquitecta", "coordinador", "coordinadora", "cofundador", "cofundadora",
    "fundador", "fundadora", "administrador", "especialista", "líder", "profesor", "profesora", "científico",
    "científica", "ingénieur", "développeur", "chef", "stagiaire", "entwickler", "ingenieur", "leiter",
    "praktikant", "engenheiro", "desenvolvedor", "estagiário",
)
POSITION_WORDS_ZH = ("工程师", "开发", "经理", "主管", "总监", "架构师", "专员", "助理", "实习生", "实习", "设计师",
                     "顾问", "负责人", "组长", "主任", "总裁", "总经理", "研究员", "分析师", "运维", "测试", "教师",
                     "讲师", "教授", "会计", "销售", "代表", "创始人", "合伙人", "首席", "高级", "资深", "主管",
                     "技术主管", "志愿者", "成员", "队长", "部长", "干事", "编辑", "专家", "科学家", "程序员",
                     "提交者", "维护者", "贡献者", "组织者", "讲师", "负责人",
                     # the other scripts the service prints, found inside words too (Thai has no spaces)
                     "مهندس", "مطور", "مبرمج", "مدير", "محلل", "مصمم", "أخصائي", "استشاري", "مستشار", "مشرف",
                     "منسق", "متدرب", "מהנדס", "מפתח", "מתכנת", "מנהל", "אנליסט", "מעצב", "יועץ", "ראש צוות",
                     "מתמחה", "इंजीनियर", "अभियंता", "डेवलपर", "प्रबंधक", "विश्लेषक", "सलाहकार", "निदेशक",
                     "प्रशिक्षु", "डिज़ाइनर", "वरिष्ठ", "วิศวกร", "นักพัฒนา", "โปรแกรมเมอร์", "ผู้จัดการ",
                     "นักวิเคราะห์", "ที่ปรึกษา", "ผู้อำนวยการ", "หัวหน้า", "นักออกแบบ", "เจ้าหน้าที่", "อาวุโส",
                     "инженер", "разработчик", "программист", "менеджер", "руководитель", "аналитик",
                     "дизайнер", "консультант", "директор", "стажёр", "стажер", "エンジニア", "マネージャー",
                     "開発者", "デザイナー", "アナリスト", "コンサルタント", "엔지니어", "개발자", "매니저",
                     "팀장", "디자이너", "분석가")
COMPANY_WORDS = (
    "inc", "ltd", "llc", "gmbh", "corp", "corporation", "company", "co", "plc", "group", "holdings", "labs", "lab",
    "bank", "technologies", "systems", "solutions", "studio", "studios", "agency", "partners", "consulting",
    "analytics", "payments", "logistics", "health", "healthcare", "energy", "media", "retail", "mobility",
    "insurance", "freight", "capital", "ventures", "foundation", "institute", "hospital", "council", "ministry",
    "department", "government", "association", "society", "cloud", "games", "networks", "digital", "services",
    "industries", "international", "global", "airlines", "university", "college", "school", "ag", "sa", "bv",
    "pty", "limited", "enterprises", "trust", "charity", "club", "museum", "library", "press", "publishing",
    "community", "bank", "meetup", "sl", "s.a", "s.l", "empresa", "grupo", "banco", "fundación", "ayuntamiento",
    "ministerio", "universidad", "sarl", "sas", "ltda",
)
COMPANY_WORDS_ZH = ("公司", "集团", "有限", "科技", "银行", "研究院", "研究所", "大学", "学院", "医院", "工作室",
                    "事务所", "中心", "网络", "软件", "信息", "股份", "智能云", "云计算", "协会", "基金会", "学会",
                    "政府", "委员会", "出版社", "电视台", "报社", "社区", "图书馆",
                    "شركة", "مؤسسة", "بنك", "חברת", "בע\"מ", "בנק", "कंपनी", "लिमिटेड", "प्राइवेट", "बैंक",
                    "प्रौद्योगिकी", "บริษัท", "จำกัด", "ธนาคาร", "ооо", "компания", "банк", "株式会社", "有限会社",
                    "주식회사", "(주)")
SCHOOL_WORDS = ("university", "college", "school", "institute", "academy", "polytechnic", "conservatory",
                "coursera", "edx", "udacity", "udemy", "online", "campus", "seminary", "universität", "université",
                "universidad", "universidade", "escuela", "colegio", "facultad", "universitat", "école",
                "hochschule", "instituto",
                "大学", "学院", "学校", "中学", "高中", "研究生院", "研究院", "大學",
                "جامعة", "كلية", "معهد", "אוניברסיט", "מכללת", "הטכניון", "विश्वविद्यालय", "संस्थान", "महाविद्यालय",
                "कॉलेज", "มหาวิทยาลัย", "วิทยาลัย", "สถาบัน", "университет", "институт", "академия", "колледж",
                "대학교", "학교")
DEGREE_WORDS = ("bachelor", "bachelors", "master", "masters", "phd", "ph.d", "doctor", "doctorate", "bsc", "msc",
                "ba", "ma", "bs", "ms", "mba", "beng", "meng", "b.eng", "m.eng", "b.s", "m.s", "b.a", "m.a", "b.sc",
                "m.sc", "associate", "diploma", "certificate", "certification", "degree", "honours", "hons", "gcse",
                "a-levels", "llb", "llm", "md", "bba", "mphil", "dphil", "major", "minor", "course", "program",
                "programme", "licenciatura", "licenciado", "grado", "máster", "doctorado", "ingeniería",
                "diplomatura", "título", "bachillerato", "maestría", "graduado", "especialidad", "mestrado",
                "doutorado", "bacharelado", "licence", "diplôme", "studium", "学士", "硕士", "博士", "本科", "研究生", "专科", "大专",
                "证书", "文凭", "学位", "双学位",
                "辅修", "进修", "专业",
                "بكالوريوس", "ماجستير", "دكتوراه", "دبلوم", "תואר", "स्नातक", "डिप्लोमा", "पीएचडी",
                "ปริญญา", "บัณฑิต", "бакалавр", "магистр", "аспирант", "修士", "학사", "석사", "박사")


_JOINING = ("and", "of", "my", "y", "e", "et", "und", "de", "del", "mis", "d")


def heading_key(text: str) -> str:
    text = text.casefold().replace("&", " ").replace("＆", " ")
    text = _PUNCTUATION.sub(" ", text)
    words = text.split()
    if len(words) >= 3 and all(len(w) <= 2 for w in words):
        words = ["".join(words)]  # letter-spaced: "S U M M A RY"
    return " ".join(w for w in words if w not in _JOINING)


# Every heading above, and every heading the service prints in each of its languages
# (``app.content.vocabulary``: a resume it printed comes back whole), by its key.
_BY_NAME = {**{heading_key(name): key for key, names in lexicon.HEADINGS.items() for name in names},
            **{heading_key(vocabulary.HEADINGS[language][key]): key
               for language in vocabulary.HEADINGS for key in HEADINGS if key in vocabulary.HEADINGS[language]},
            **{name: key for key, names in HEADINGS.items() for name in names}}
# The languages whose templates print each heading ("Contact": English, French, German).
_LANGUAGES_BY_NAME: dict[str, list[str]] = {}
for _language, _headings in vocabulary.HEADINGS.items():
    for _heading in _headings.values():
        _LANGUAGES_BY_NAME.setdefault(heading_key(_heading), []).append(_language)
# The same without spaces: a heading whose letters a PDF gives with a gap in it, "Exp erience" (Awesome-CV
# sets the first three letters in its accent colour) or "W O R K  E X P E R I E N C E" (letter-spaced).
_BY_SQUASHED = {name.replace(" ", ""): key for name, key in _BY_NAME.items()}


def section_of(text: str) -> str | None:
    """The section a heading names, or None. "Work Experience", "工作经历", "工作经历 EXPERIENCE"."""
    key = heading_key(text)
    if not key or len(key) > 60:
        return None
    first = text.split(maxsplit=1)[0] if text.split() else ""
    if first.islower() and first in _JOINING:
        return None   # "et Informatique": the end of a wrapped line, not a heading
    if key in _BY_NAME:
        return _BY_NAME[key]
    if key.replace(" ", "") in _BY_SQUASHED and not _CJK_RUN.search(key):
        return _BY_SQUASHED[key.replace(" ", "")]
    cjk = "".join(_CJK_RUN.findall(key))
    latin = " ".join(_CJK_RUN.sub(" ", key).split())
    if cjk and latin:
        first, second = _BY_NAME.get(cjk), _BY_NAME.get(latin)
        if first and first == second:
            return first
        if first and second and {first, second} <= {"summary", "contact"}:
            return first
    if cjk and not latin:
        return _BY_NAME.get(cjk) or _cjk_by_last_word(cjk)
    return _section_by_form(key)


def _cjk_by_last_word(key: str) -> str | None:
    """A Chinese or Japanese heading named by its last word, as "Core Skills" is by "Skills": "相关技能",
    "掌握技能" (one of ``_CJK_LAST_WORDS``'s sections, two characters or more, a word or two before)."""
    if len(key) > 8 or _score(key, (), _DEGREE_OTHER):
        return None   # "数据科学进修证书": a degree's line
    for start in range(1, len(key) - 1):
        found = _BY_NAME.get(key[start:])
        if found in _CJK_LAST_WORDS:
            return found
    return None


# No plural tells "证书" (certificates) from a certificate's own name: only mass nouns name a section so.
_CJK_LAST_WORDS = ("workExperience", "education", "skills")


def _section_by_form(key: str) -> str | None:
    """A heading named by a form of a known one: a plural ("Educations"), a compound's last part
    ("Arbeitserfahrung", "Schulausbildung"), or after an icon read as a letter ("ć Experience")."""
    parts = key.split()
    if len(parts) > 1 and len(parts[0]) == 1 and " ".join(parts[1:]) in _BY_NAME:
        return _BY_NAME[" ".join(parts[1:])]
    singular = " ".join(part[:-1] if len(part) > 3 and part.endswith("s") else part for part in parts)
    if singular in _BY_NAME:
        return _BY_NAME[singular]
    if len(parts) <= 2 and len(parts[-1]) >= 8:
        for ending, section in lexicon.COMPOUND_ENDINGS.items():
            if parts[-1].endswith(ending):
                return section
    if 2 <= len(parts) <= 4 and key not in SKILL_GROUP_NAMES:   # "Technical Experience", "Computing Skills"
        plural = parts[-1] != singular.split()[-1]
        last = _BY_NAME.get(parts[-1]) or (_BY_NAME.get(singular.split()[-1]) if plural else None)
        # A plural or a mass noun: "Machine Learning Certificate", "Best Paper Award" or "Bachelor of
        # Education" is an entry's line.
        if last in _NAMED_BY_LAST_WORD and (plural or last in _MASS_NOUNS) and not _score(key, _DEGREE_LATIN, ()):
            return last
    return None


# The sections a heading's last word names whatever stands before it ("Relevant Experience", "Core Skills").
_NAMED_BY_LAST_WORD = ("workExperience", "education", "skills", "projects", "certificates", "awards", "publications")
_MASS_NOUNS = ("workExperience", "education")  # "Experience", "Erfahrung", "Education", "Ausbildung"


def language_of(headings: list[str]) -> str | None:
    """The interface language whose templates print the most of ``headings`` (the service's own export
    read back), or None: none, English, or a tie with English."""
    votes: dict[str, int] = {}
    for heading in headings:
        for language in _LANGUAGES_BY_NAME.get(heading_key(heading), ()):
            votes[language] = votes.get(language, 0) + 1
    if not votes:
        return None
    most = max(votes.values())
    leaders = [language for language in vocabulary.HEADINGS if votes.get(language) == most]
    return None if "en" in leaders else leaders[0]


HEADLINE_LABELS = ("求职意向", "意向职位", "目标职位", "应聘职位", "职位", "position", "headline", "title",
                   "target role", "desired position",
                   *{words["Position"].casefold() for words in vocabulary.WORDS.values()})
_HEADLINE_WORDS = "|".join(re.escape(label) for label in sorted(HEADLINE_LABELS, key=len, reverse=True))
_HEADLINE = re.compile(rf"^(?:(?:{_HEADLINE_WORDS})\s*[:：]?\s*)+", re.IGNORECASE)


def headline(text: str) -> str | None:
    """The job title of a labelled header line ("求职意向 Position: Platform Engineer"), else None."""
    match = _HEADLINE.match(text.strip())
    rest = text.strip()[match.end():].strip() if match else ""
    return rest or None


# Names of a group of skills, which as a heading would name the skills section too but are more often a
# group's name inside it: an entry of another section so titled is a skill group (records._skill_group).
SKILL_GROUP_NAMES = ("programming languages", "languages and tools", "languages & tools", "frameworks",
                     "frameworks and libraries", "libraries", "databases", "编程语言", "开发工具", "lenguajes de programación")


def skill_group_name(text: str) -> bool:
    """Whether ``text`` names a group of skills ("Programming Languages", "Tools", "技术栈")."""
    key = text.strip().rstrip(":：").strip().casefold()
    return key in SKILL_GROUP_NAMES or section_of(text) == "skills"


def strip_label(text: str) -> str:
    """A contact item without its label: "Email: ada@example.com", "电话 Phone 138 0013 8000"."""
    return _LABEL.sub("", text.strip()).strip()


def is_label(text: str) -> bool:
    """A contact label alone ("Email", "电话 Phone"), as a sidebar prints above each detail."""
    return bool(text.strip()) and not strip_label(text.rstrip(":： "))


_LETTER = "a-zß-öø-ÿ"  # Latin letters, accented ones too ("técnico", "diseñador")


def _split(words: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Words of Latin letters (matched as whole words) and the others (matched inside the text; those
    of fewer than three letters left out, as they occur inside longer words)."""
    latin = tuple(w for w in words if re.fullmatch(rf"[{_LETTER}.\-]+", w))
    other = tuple(w for w in words if w not in latin and " " not in w and (len(w) >= 3 or _CJK_RUN.match(w)))
    return latin, other


_MORE_POSITION, _MORE_POSITION_OTHER = _split(lexicon.POSITION_WORDS)
POSITION_WORDS += _MORE_POSITION
POSITION_WORDS_ZH += _MORE_POSITION_OTHER
_MORE_COMPANY, _MORE_COMPANY_OTHER = _split(lexicon.COMPANY_WORDS)
COMPANY_WORDS += _MORE_COMPANY
COMPANY_WORDS_ZH += _MORE_COMPANY_OTHER
_DEGREE_LATIN, _DEGREE_OTHER = _split(DEGREE_WORDS + lexicon.DEGREE_WORDS)
_SCHOOL_LATIN, _SCHOOL_OTHER = _split(SCHOOL_WORDS + lexicon.SCHOOL_WORDS)


def _words(text: str) -> list[str]:
    found = re.findall(rf"[{_LETTER}][{_LETTER}.\-]*[{_LETTER}]|[{_LETTER}]", text.casefold())
    return found + [part for word in found if "-" in word for part in word.split("-")] + \
        [word.rstrip(".") for word in found]


def _score(text: str, latin: tuple[str, ...], chinese: tuple[str, ...]) -> int:
    words = set(_words(text))
    folded = text.casefold()
    return sum(1 for w in latin if w in words) + sum(1 for w in chinese if w in folded)


def position_score(text: str) -> int:
    """Job-title words less employer words; a title ends with its role ("... Engineer", "...架构师"),
    so a role word at the end counts twice."""
    latin = [w for w in re.findall(rf"[{_LETTER}][{_LETTER}\-]*", text.casefold())]
    ending = (bool(latin) and latin[-1] in POSITION_WORDS and not re.search(r"[\u3400-\u9fff]\s*$", text)) \
        or any(text.rstrip().endswith(word) for word in POSITION_WORDS_ZH)
    compound = any(len(word) >= 9 and word.endswith(lexicon.POSITION_ENDINGS) and word not in POSITION_WORDS
                   for word in latin)
    return (_score(text, POSITION_WORDS, POSITION_WORDS_ZH) + ending + compound
            - _score(text, COMPANY_WORDS, COMPANY_WORDS_ZH))


def degree_score(text: str) -> int:
    return _score(text, _DEGREE_LATIN, _DEGREE_OTHER) - _score(text, _SCHOOL_LATIN, _SCHOOL_OTHER)


def schooling(text: str) -> int:
    """How many school and degree words ``text`` holds ("University", "Bachelor", "大学")."""
    return _score(text, _DEGREE_LATIN + _SCHOOL_LATIN, _DEGREE_OTHER + _SCHOOL_OTHER)


def working(text: str) -> int:
    """How many job-title and employer words ``text`` holds ("Engineer", "GmbH", "公司")."""
    return _score(text, POSITION_WORDS, POSITION_WORDS_ZH) + _score(text, COMPANY_WORDS, COMPANY_WORDS_ZH)
