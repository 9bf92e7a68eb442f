"""Keywords of a job description and whether a resume has them, in English and Chinese.

English words are lower-cased, mapped through a small synonym table (``postgres`` ->
``postgresql``, ``k8s`` -> ``kubernetes``) and reduced to their Snowball stem, so
``managed`` ~ ``management`` and ``build`` ~ ``building``. Known two- and three-word terms
("machine learning", "patient care") count as one keyword.

Chinese has no spaces. Rather than a segmenter with a 20 MB dictionary (jieba, whose last
release is from 2020, loads it in about a second), a Chinese run is cut at function words and
job-ad filler (``的``, ``和``, ``熟悉``, ``经验`` ...); known terms (``ZH_TERMS``) are taken out of
each piece, longest first, and a remaining piece of 2 to 6 characters is a keyword of its own. A
Chinese keyword is found when the resume's text contains it (or a synonym), which is how Chinese
is searched anyway. Some Chinese terms also carry their English equivalent (``数据分析`` ~
"data analysis"), so a resume in either language matches.

docs/scoring.md describes the whole computation with a worked example.
"""
from __future__ import annotations

import re
import threading
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

import snowballstemmer

MAX_KEYWORDS = 30
MAX_WORD = 40  # longer "words" are not terms (a URL, a hash, a run of letters)
_STEMMERS = threading.local()  # a Snowball stemmer keeps state while it works: one per thread
# Latin letters with their accents, so that "también" or "Erfahrung" stays one word
TOKEN = re.compile(r"[a-z0-9à-öø-ÿ][a-z0-9à-öø-ÿ+#.\-/]*[a-z0-9à-öø-ÿ+#]|[a-z0-9à-öø-ÿ][+#]*", re.IGNORECASE)
NUMBER_LIKE = re.compile(r"^[$€£¥]?[\d.,]+[+%k]?$")  # "5+", "180,000", "401", "20%"
CJK_RUN = re.compile(r"[\u3400-\u9fff]+")

STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each etc few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just least like
may me more most must my myself no nor not now of off on once only or other our ours ourselves out over
own per plus same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very via was we well were what when where which while who
whom why will with within without would you your yours yourself yourselves
ability able candidate candidates experience experienced years year work working team teams role roles
strong good great excellent knowledge skill skills required requirement requirements preferred
responsibilities responsibility including looking join company new using use plus ideal ideally seeking
seek apply applicant position opportunity opportunities environment demonstrated proven solid
familiarity familiar understanding degree related field must-have nice-to-have e.g i.e etc
day days week weeks month months time full part based help helping make making ensure ensuring
hiring hire wanted want need needs needed seeks seeking looking get keep high advanced background ideal
job jobs description summary overview title type about us our we're you'll you're we'll salary salaries range
benefits benefit perks compensation pay paid bonus equity stock remote hybrid onsite on-site office offices
location locations relocation visa sponsorship apply applying applicants application posted posting date
equal employer eoe qualifications qualification duties duty reports reporting department level status
schedule shift hours hour annual annually usd eur gbp k full-time part-time contract contractor permanent
temporary internship what who how why com www http https inc llc ltd corp
""".split()) | frozenset("""
a al algo algunos ante antes como con contra cual cuando de del desde donde durante e el ella ellas ellos
en entre era es esa ese eso esta este esto estos estas fue ha han hasta hay la las le les lo los mas más me
mi muy nada ni no nos o otra otro para pero poco por porque puede que quien se ser si sí sin sobre su sus
también tanto te tiene tienen todo todos tu tus un una uno unos unas y ya buscamos ofrecemos valorará
valorable requisitos experiencia años puesto empresa equipo persona trabajo conocimiento conocimientos
descripción funciones responsabilidades
à au aux avec ce ces dans de des du elle en et être il ils je la le les leur lui mais me même mes moi mon ne
nos notre nous on ou où par pas pour qu que qui sa se ses son sur ta te tes toi ton tu un une vos votre vous
poste expérience équipe entreprise profil missions
aber als am an auch auf aus bei bin bis da das dass dem den der des die dies doch du durch ein eine einem
einen einer eines er es für hat ich ihr im in ist ja kann mit nach nicht noch nur oder sich sie sind so über
um und uns unter vom von vor war wie wir wird zu zum zur stelle erfahrung team unternehmen aufgaben profil
ao aos as às com como da das de do dos e é em entre era essa esse esta este isso mais mas na nas no nos
não o os ou para pela pelas pelo pelos por qual que se sem seu seus sua suas também um uma vaga empresa
equipe experiência requisitos
nuestro nuestra nuestros nuestras vuestro tu tuyo suyo mismo misma cada cualquier muchos mucho otros otras
algunas ningún ninguna según tras mediante hacia bajo junto además así aquí allí ahora siempre nunca
somos eres está están estar será serán sea sean sido tener tenga tengas haber hemos había hacer hace
oficina oficinas sede incorporación incorporar buscar busca ofrece ofrecer oferta candidato candidata
candidatos perfil valoramos imprescindible deseable mínimo mínima salario beneficios contrato jornada
completa remoto híbrido presencial ubicación plaza vacante nivel manejo dominio sólidos sólidas amplia
amplio capacidad habilidad habilidades conocer experiencias área áreas proyecto proyectos trabajar
cette cet mon ma mes ton ta tes leur leurs nos vos dont aussi alors ainsi très plus moins tout tous toute
toutes autre autres chaque comme depuis pendant entre chez vers sans sous avoir avons avez ont être sommes
êtes sont était sera fait faire recherchons recherche rejoindre rejoignez candidat candidate poste postes
compétences connaissance connaissances maîtrise souhaitée souhaité requis requise bureau bureaux salaire
avantages contrat télétravail lieu niveau ans année années travail travailler projet projets capacité
sein mission cadre bon bonne bons bonnes
bist sind seid werden wurde wurden worden sein haben habe hatte hätte kein keine keinen dein deine mein meine
ihre ihren ihrem unser unsere unserem unseren unserer euer eure alle allem allen aller alles andere anderen
auch bereits dabei damit dann darum deshalb diese dieser dieses diesem diesen hier jetzt man mehr muss
müssen schon sehr sowie soll sollte viel welche welcher wenn werden wieder zwischen suchen suche sucht
erfahrenen erfahrener erfahrene kenntnisse kenntnissen fähigkeiten anforderungen bieten bietet bewerbung
bewerben standort büro gehalt vertrag vollzeit teilzeit jahre jahren jahr arbeit arbeiten projekt
projekte idealerweise wünschenswert gute guten sehr gut verstärkung bereich
seu nosso nossa nossos nossas vosso cada qualquer muito muitos outro outra outros outras ainda já sempre
nunca aqui ali agora sobre sob após até desde durante entre sendo ser estar está estão foi são tem têm
ter haver procuramos buscamos oferecemos escritório salário benefícios contrato remoto híbrido
presencial candidato candidata perfil conhecimento conhecimentos competências anos ano trabalho trabalhar
projeto projetos capacidade área áreas nível domínio desejável obrigatório
""".split())  # Spanish, French, German and Portuguese stopwords and job-ad words
# Places a job ad names (where the job is, where the company is), which are not skills: removed from the
# ad before its words are counted. Two-letter US state codes are matched in capitals only.
PLACES = tuple(sorted("""
san francisco|new york|los angeles|san diego|san jose|seattle|boston|chicago|austin|denver|atlanta|miami|
washington|dallas|houston|portland|philadelphia|toronto|vancouver|montreal|london|manchester|dublin|berlin|
munich|hamburg|paris|lyon|amsterdam|rotterdam|brussels|zurich|geneva|vienna|stockholm|copenhagen|oslo|
helsinki|madrid|barcelona|valencia|lisbon|porto|milan|rome|warsaw|prague|budapest|tel aviv|dubai|singapore|
hong kong|tokyo|osaka|seoul|beijing|shanghai|shenzhen|sydney|melbourne|auckland|bangalore|bengaluru|mumbai|
delhi|hyderabad|pune|são paulo|sao paulo|mexico city|buenos aires|bay area|silicon valley|
united states|usa|united kingdom|uk|canada|germany|france|spain|españa|portugal|italy|netherlands|ireland|
switzerland|austria|sweden|norway|denmark|finland|poland|india|china|japan|korea|australia|brazil|mexico|
europe|emea|apac|latam|north america|california|texas|new jersey|massachusetts|remote-first|
lisboa|münchen|köln|frankfurt|stuttgart|düsseldorf|wien|zürich|genève|bruxelles|sevilla|bilbao|málaga|
milano|roma|marseille|toulouse|bordeaux|lille|nantes|rio de janeiro|belo horizonte|brasil|méxico|bogotá|
lima|santiago|deutschland|österreich|schweiz|frankreich|espanha|brasil|moscow|moscou
""".replace("\n", "").split("|"), key=len, reverse=True))
_PLACE = re.compile(r"\b(?:" + "|".join(re.escape(place) for place in PLACES if place) + r")\b", re.IGNORECASE)
_STATE = re.compile(r"\b(?:AL|AK|AZ|AR|CA|CO|CT|DE|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|"
                    r"NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY|DC)\b")
# The employer's name, as ads give it: "About Northwind", "Join Northwind", "at Northwind", "Northwind is a".
_NAME = r"((?:[A-Z][\w&'.-]*)(?:[ \t]+(?:[A-Z][\w&'.-]*|&)){0,3})"
_COMPANY = (re.compile(rf"^\s*About[ \t]+{_NAME}[ \t]*$", re.MULTILINE),
            re.compile(rf"\bJoin[ \t]+(?:us[ \t]+at[ \t]+)?{_NAME}"),
            re.compile(rf"(?:^|[.!?]\s+){_NAME}[ \t]+is[ \t]+(?:a|an|the)\b", re.MULTILINE))

# Surface form -> canonical form (before stemming). Keep both sides lower-case.
SYNONYMS = {
    "postgres": "postgresql", "psql": "postgresql", "js": "javascript", "ecmascript": "javascript",
    "ts": "typescript", "k8s": "kubernetes", "golang": "go", "py": "python", "reactjs": "react",
    "react.js": "react", "vuejs": "vue", "vue.js": "vue", "nodejs": "node.js", "node": "node.js",
    "amazon web services": "aws", "gcp": "google cloud", "ml": "machine learning",
    "ai": "artificial intelligence", "nlp": "natural language processing", "ci/cd": "continuous integration",
    "ci": "continuous integration", "rn": "registered nurse", "ux": "user experience",
    "ui": "user interface", "cpa": "certified public accountant", "gaap": "gaap", "seo": "search engine optimization",
    "crm": "customer relationship management", "b2b": "b2b", "excel": "excel", "ms excel": "excel",
    "microsoft excel": "excel", "powerbi": "power bi", "sklearn": "scikit-learn", "mssql": "sql server",
    "mongo": "mongodb", "pg": "postgresql", "qa": "quality assurance", "hr": "human resources",
    "pm": "project management", "ehr": "electronic health records", "emr": "electronic health records",
}
IRREGULAR = {  # irregular verbs Snowball leaves alone
    "built": "build", "led": "lead", "wrote": "write", "written": "write", "ran": "run", "sold": "sell",
    "taught": "teach", "grew": "grow", "grown": "grow", "drove": "drive", "won": "win", "made": "make",
    "brought": "bring", "thought": "think", "spoke": "speak", "spoken": "speak", "began": "begin",
}

# Multi-word terms that count as one keyword (after synonyms; each is stemmed word by word).
PHRASES = """
machine learning|deep learning|data analysis|data analytics|data visualization|data science|project management
product management|customer service|customer relationship management|patient care|financial reporting
financial statements|financial analysis|accounts payable|accounts receivable|general ledger|user experience
user interface|user research|continuous integration|google cloud|power bi|sql server|unit testing
natural language processing|artificial intelligence|registered nurse|intensive care|lesson planning
classroom management|curriculum development|search engine optimization|social media|account management
business development|lead generation|contract law|corporate law|legal research|due diligence|food safety
menu development|kitchen management|supply chain|quality assurance|human resources|public speaking
electronic health records|certified public accountant|rest api|distributed systems|visual design
graphic design|brand identity|ab testing|a/b testing|tax preparation|cold calling|line cook|fine dining
""".replace("\n", "|").split("|")

# Chinese terms: known words that a Chinese job description is cut into (longest first), with the
# English canonical form of some, so that a Chinese description matches an English resume too.
ZH_TERMS = {
    "软件工程师": "software engineer", "后端开发": "backend", "前端开发": "frontend", "全栈": "full-stack",
    "微服务": "microservices", "分布式系统": "distributed systems", "分布式": "", "数据库": "database",
    "云计算": "cloud", "容器化": "", "自动化测试": "", "单元测试": "unit testing", "代码审查": "code review",
    "系统设计": "", "架构设计": "", "高并发": "", "性能优化": "", "机器学习": "machine learning",
    "深度学习": "deep learning", "人工智能": "artificial intelligence", "数据分析": "data analysis",
    "数据可视化": "data visualization", "数据挖掘": "", "数据仓库": "", "统计分析": "", "报表": "", "可视化": "",
    "护士": "nurse", "护理": "nursing", "注册护士": "registered nurse", "病人": "patient", "患者": "patient",
    "重症监护": "intensive care", "急诊": "emergency", "临床": "clinical", "医院": "hospital", "护理记录": "",
    "静脉输液": "", "生命体征": "", "健康宣教": "", "用药": "", "医嘱": "",
    "会计": "accounting", "财务": "finance", "财务报表": "financial statements", "审计": "audit", "税务": "tax",
    "纳税申报": "", "总账": "general ledger", "成本核算": "", "预算": "budget", "应收账款": "accounts receivable",
    "应付账款": "accounts payable", "注册会计师": "", "会计准则": "", "财务分析": "financial analysis",
    "记账": "", "凭证": "", "发票": "",
    "教师": "teacher", "教学": "teaching", "课程": "curriculum", "备课": "lesson planning",
    "班级管理": "classroom management", "课堂": "classroom", "学生": "student", "教案": "", "教研": "",
    "家校沟通": "", "语文": "", "数学": "", "英语": "",
    "设计师": "designer", "平面设计": "graphic design", "视觉设计": "visual design", "品牌设计": "",
    "交互设计": "", "用户体验": "user experience", "用户研究": "user research", "原型": "prototype",
    "设计规范": "", "插画": "", "排版": "",
    "销售": "sales", "客户": "client", "大客户": "", "渠道": "", "谈判": "negotiation", "业绩": "",
    "客户关系": "", "市场开拓": "", "销售目标": "", "商务拓展": "business development", "回款": "",
    "厨师": "chef", "烹饪": "cooking", "菜品": "", "菜单": "menu", "食品安全": "food safety", "厨房": "kitchen",
    "粤菜": "", "川菜": "", "西餐": "", "面点": "", "食材": "", "成本控制": "",
    "律师": "lawyer", "法律": "legal", "合同": "contract", "诉讼": "litigation", "法律咨询": "",
    "尽职调查": "due diligence", "合规": "compliance", "知识产权": "", "公司法": "corporate law", "仲裁": "",
    "法律文书": "", "项目管理": "project management", "团队管理": "", "沟通": "communication", "协调": "",
}
ZH_SYNONYMS = {"患者": "病人", "病人": "患者", "财报": "财务报表", "用户体验": "体验设计"}
# Where a Chinese run is cut: function words and job-ad filler, longest first.
ZH_STOPS = sorted("""
的 了 和 与 及 以及 或 或者 等 在 有 是 对 为 并 且 能 会 将 把 被 从 到 向 中 内 上 下 者 其 该 此 各 每
具有 具备 熟悉 熟练 掌握 精通 了解 负责 能够 良好 优秀 相关 经验 以上 以下 年 工作 要求 岗位 职责 职位
我们 公司 招聘 优先 能力 善于 较强 至少 一定 进行 参与 完成 相应 任职 资格 描述 欢迎 加入 需要
需 可 及时 认真 主动 积极 热爱 喜欢 本科 大专 学历 专业 毕业 一 二 三 四 五 两 名 位 个 项 份 者优先
做好 重视 使用 处理 制作 方法 证书 系统 严格执行 执行 持 会用 擅长 熟练使用
北京 上海 广州 深圳 杭州 成都 南京 武汉 西安 苏州 天津 重庆 香港 台北 地点 工作地点 薪资 福利 面议
經驗 具備 熟練 負責 相關 要求 職位 職責 公司 優先 學歷 專業 畢業 處理 使用 證書 系統 執行 擅長 熟練使用
台中 高雄 新竹 地點 薪資 福利
募集 経験 必要 歓迎 応募 業務 内容 勤務 勤務地 給与 待遇 福利厚生 必須 尚可 年以上 当社 弊社 求人 仕事
職種 雇用 形態 正社員 資格 条件 休日 休暇 東京 大阪 名古屋 福岡 担当 以上 程度 方 人 様 等 場合 知識
""".split(), key=len, reverse=True)
_ZH_CUT = re.compile("|".join(map(re.escape, ZH_STOPS)))
_ZH_TERMS_BY_LENGTH = sorted(ZH_TERMS, key=len, reverse=True)


@lru_cache(maxsize=50_000)
def stem(word: str) -> str:
    """One lower-case word's canonical stem: a technical name (``c++``, ``node.js``) stays as it is."""
    if not word.isalpha():
        return word
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        stemmer = _STEMMERS.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)


def _canonical(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(stem(w) for w in " ".join(words).split())


# Phrases and synonyms as stem tuples, computed once.
_SYNONYM_STEMS = {src: _canonical(tuple(dst.split())) for src, dst in SYNONYMS.items()}
_SYNONYM_TARGETS = frozenset(_SYNONYM_STEMS.values())
_SYNONYM_STEMS.update({src: _canonical((dst,)) for src, dst in IRREGULAR.items()})
_PHRASE_STEMS = frozenset(_canonical(tuple(p.split())) for p in PHRASES if p.strip())
_ZH_ENGLISH = {term: _canonical(tuple(english.split())) for term, english in ZH_TERMS.items() if english}
_MULTI_SYNONYMS = {tuple(src.split()): dst for src, dst in _SYNONYM_STEMS.items() if " " in src}


@dataclass
class Keyword:
    """A keyword of a job description: ``key`` identifies it (stems, or Chinese text), ``label`` is
    how the description wrote it, ``weight`` how much it counts."""

    key: tuple[str, ...]
    label: str
    weight: float
    first: int
    chinese: str = ""


def tokens(text: str) -> list[tuple[str, str]]:
    """(surface, lower-case) of each Latin word, a trailing full stop dropped."""
    found = []
    for match in TOKEN.finditer(text or ""):
        surface = match.group().rstrip(".-/")
        if surface:
            found.append((surface, surface.lower()))
    return found


def _units(lower: list[str]) -> list[tuple[str, ...]]:
    """Each word as its canonical stems (a synonym may give two: ``ml`` -> machine learn)."""
    return [_SYNONYM_STEMS.get(w) or (stem(w),) for w in lower]


@dataclass
class ResumeTerms:
    """What a resume says, ready for matching: its stems, stem pairs and triples, and Chinese text."""

    stems: frozenset
    grams: frozenset
    chinese: str

    def has(self, keyword: Keyword) -> bool:
        if keyword.chinese:
            if keyword.chinese in self.chinese:
                return True
            other = ZH_SYNONYMS.get(keyword.chinese)
            if other and other in self.chinese:
                return True
            return bool(keyword.key) and self._has_stems(keyword.key)
        return self._has_stems(keyword.key)

    def _has_stems(self, key: tuple[str, ...]) -> bool:
        if len(key) == 1:
            return key[0] in self.stems
        return key in self.grams or all(part in self.stems for part in key)


def resume_terms(text: str) -> ResumeTerms:
    lower = [low for _, low in tokens(text)]
    stems: list[str] = []
    for units in _units(lower):
        stems.extend(units)
    grams = set(zip(stems, stems[1:])) | set(zip(stems, stems[1:], stems[2:]))
    for units in _SYNONYM_STEMS.values():
        if len(units) > 1:
            grams.add(units)
    chinese = "".join(CJK_RUN.findall(text or ""))
    for term, parts in _ZH_ENGLISH.items():  # a Chinese resume has the English side of its terms
        if term in chinese:
            stems.extend(parts)
            if len(parts) > 1:
                grams.add(parts)
    return ResumeTerms(frozenset(stems), frozenset(grams), chinese)


def _english_keywords(text: str) -> list[Keyword]:
    found = tokens(text)
    lower = [low for _, low in found]
    units = _units(lower)
    found_keywords: dict[tuple[str, ...], Keyword] = {}
    counts: Counter = Counter()
    i = 0
    while i < len(found):
        key = label = None
        for size in (3, 2):  # a known phrase, or a multi-word synonym
            window = tuple(lower[i:i + size])
            if len(window) < size:
                continue
            if window in _MULTI_SYNONYMS:
                key = _MULTI_SYNONYMS[window]
            else:
                stems = tuple(u for unit in units[i:i + size] for u in unit)
                if stems in _PHRASE_STEMS:
                    key = stems
            if key:
                label = " ".join(surface for surface, _ in found[i:i + size])
                i += size
                break
        if not key:
            surface, low = found[i]
            i += 1
            if (low in STOP_WORDS or NUMBER_LIKE.match(low) or (len(low) < 2 and low not in "cr")
                    or len(low) > MAX_WORD):
                continue
            key, label = units[i - 1], surface
            if len(key) == 1 and key[0] in STOP_WORDS:
                continue
        counts[key] += 1
        if key not in found_keywords:
            technical = not label.isalpha() or (label[:1].isupper() and not label.isupper()) or label.isupper()
            bonus = 1.0 if len(key) > 1 else 0.5 if technical or key in _SYNONYM_TARGETS else 0.0
            found_keywords[key] = Keyword(key, label, bonus, len(found_keywords))
    for key, keyword in found_keywords.items():
        keyword.weight = counts[key] + keyword.weight
    return list(found_keywords.values())


def _chinese_keywords(text: str, first: int) -> list[Keyword]:
    found: dict[str, Keyword] = {}
    counts: Counter = Counter()

    def add(term: str, known: bool) -> None:
        counts[term] += 1
        if term not in found:
            found[term] = Keyword(_ZH_ENGLISH.get(term, ()), term, 1.0 if known else 0.0, first + len(found), term)

    for run in CJK_RUN.findall(text or ""):
        for term in _ZH_TERMS_BY_LENGTH:  # known terms first, longest first
            if term in run:
                for _ in range(run.count(term)):
                    add(term, True)
                run = run.replace(term, "|")
        for bit in _ZH_CUT.split(run.replace("|", "的")):
            if 2 <= len(bit) <= 6:
                add(bit, False)
    for term, keyword in found.items():
        keyword.weight += counts[term]
    return list(found.values())


def _without_names(description: str) -> str:
    """The ad without its employer's name and the places it names (each left as a line break, so that
    no phrase forms across the gap)."""
    names = {match.group(1).strip() for pattern in _COMPANY for match in pattern.finditer(description)}
    names = {name for name in names if name.casefold() not in STOP_WORDS and len(name) > 2}
    for name in sorted(names, key=len, reverse=True):
        description = re.sub(rf"\b{re.escape(name)}\b", "\n", description, flags=re.IGNORECASE)
    return _STATE.sub("\n", _PLACE.sub("\n", description))


def keywords(description: str) -> list[Keyword]:
    """The description's keywords, most important first (weight, then first appearance), at most
    ``MAX_KEYWORDS``. The weight is the number of mentions, plus 1 for a known term or synonym,
    plus 0.5 for a word written like a name (capitalised, or with ``+ # .``)."""
    description = _without_names(description or "")
    english = _english_keywords(description)
    every = english + _chinese_keywords(description, len(english))
    every.sort(key=lambda k: (-k.weight, k.first))
    return every[:MAX_KEYWORDS]
