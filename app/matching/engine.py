"""Analysis of a resume against a job description: four scores, the keywords, suggestions.

One engine for everything that scores a resume: ``POST /api/resumes/<id>/analysis`` answers
``analyse``'s result, and the stored ``atsScore`` / ``keywordMatchScore`` (``app.resumes.service.score``)
are its ``overallScore`` and ``keywordMatchScore``, so the list, the detail and the analysis
agree. It runs offline on the CPU: keywords, synonyms and stems (``keywords.py``) and a static
embedding model for semantic similarity (``embedding.py``). docs/scoring.md works an example.
"""
from __future__ import annotations

import re

from app.content import language
from app.content.normalise import normalise_content
from app.matching import embedding, messages
from app.matching.keywords import CJK_RUN, Keyword, keywords, resume_terms, stem, tokens

# overallScore's weights; without the embedding model its share goes to the keywords.
WEIGHTS = {"keyword": 0.5, "semantic": 0.2, "format": 0.15, "content": 0.15}
# Cosine similarity of the two texts -> 0..100: below LOW is unrelated, HIGH and above a close fit.
SIMILARITY_LOW, SIMILARITY_HIGH = 0.2, 0.8
FORMAT_POINTS = {"name": 10, "email": 15, "phone": 5, "workExperience": 25, "education": 15, "skills": 15,
                 "dates": 15}
SUMMARY_WORDS = (15, 100)  # a summary outside this range earns no points (Chinese: characters / 2)
SHORT_RESUME_WORDS = 150
MISSING_KEYWORDS_SUGGESTED = 5
NOT_TEXT = frozenset({"url", "id", "startDate", "endDate", "date", "releaseDate", "email", "phone",
                      "sectionOrder", "photo"})

ACTION_VERBS = frozenset(stem(v) for v in """
achieve administer advise analyse analyze architect assess assist audit automate build built chair coach
collaborate communicate conduct consolidate coordinate create cut decrease deliver design develop diagnose
direct draft drive edit educate establish evaluate execute expand facilitate forecast found generate grow
guide handle hire implement improve increase initiate install instruct introduce launch lead led maintain
manage mentor migrate monitor negotiate operate optimise optimize organise organize oversee own plan prepare
present prioritise produce program promote prototype publish raise reconcile recruit redesign reduce refactor
represent research resolve restructure review revamp run save scale secure sell serve ship simplify solve
spearhead streamline supervise support teach test train transform translate triage tutor upgrade win write
wrote cook cooked treat treated care administered counsel litigate closed exceed exceeded
""".split())
ZH_ACTION_VERBS = ("负责", "主导", "设计", "开发", "完成", "推动", "管理", "带领", "优化", "实现", "建立", "制定",
                   "组织", "协调", "策划", "提升", "降低", "参与", "编写", "搭建", "重构", "指导", "培训", "执行",
                   "处理", "审核", "编制", "撰写", "谈判", "签约", "烹制", "研发", "护理", "教授", "讲授", "分析")
ZH_ACTION_VERBS += ("牵头", "独立", "协助", "推进", "主持", "维护", "部署", "迁移", "改进", "改造", "整合", "引入",
                    "推广", "落地", "打造", "构建", "统筹", "监督", "领导", "创建", "创立", "发起", "测试", "调研",
                    "规划", "运营", "交付", "上线", "解决", "排查", "支持", "对接", "梳理", "制作", "翻译", "辅导",
                    "销售", "拓展", "开拓", "提高", "减少", "缩短", "节省", "获得", "荣获", "主讲", "带队", "指挥")
# Traditional forms of the verbs above that Simplified and Traditional Chinese write differently.
ZH_ACTION_VERBS += ("負責", "主導", "設計", "開發", "完成", "推動", "管理", "帶領", "優化", "實現", "建立", "制定",
                    "組織", "協調", "策劃", "提升", "降低", "參與", "編寫", "搭建", "重構", "指導", "培訓", "執行",
                    "處理", "審核", "編製", "撰寫", "談判", "簽約", "研發", "護理", "講授", "分析", "協助", "推進",
                    "維護", "部署", "遷移", "改進", "整合", "推廣", "構建", "統籌", "監督", "領導", "創建", "創立",
                    "測試", "調研", "規劃", "運營", "交付", "解決", "對接", "製作", "翻譯", "輔導", "銷售", "開拓",
                    "提高", "減少", "縮短", "節省", "獲得", "榮獲", "主講", "帶隊", "指揮")
SUMMARY_CHARS = (30, 300)  # a Chinese or Japanese summary's characters outside this range earn no points
# How each language is measured: the action verbs of its lines (English and Chinese only: elsewhere the
# share is not measured, and its points are given), and its summary in words or in characters (Thai:
# neither, as it leaves no space between words; any summary earns the points).
VERBS = {"en": "en", "zh-Hans": "zh", "zh-Hant": "zh"}
SUMMARY_IN_CHARACTERS = ("zh-Hans", "zh-Hant", "ja")
UNSPACED = ("th",)
WORD = re.compile(r"[^\W\d_]+", re.UNICODE)  # a word in any script
THAI_RUN = re.compile(r"[\u0e00-\u0e7f]+")
KANA = re.compile(r"[\u3040-\u30ff]")
NUMBER = re.compile(r"\d|[一二三四五六七八九十百千万亿]+[%个人次项名倍]|percent", re.IGNORECASE)
BULLET_MARK = re.compile(r"^\s*(?:[-*•·●▪]|\d+[.)、])\s*")


def resume_text(content: dict) -> str:
    """Every word of every section of the resume (normalised content: the new sections too),
    without addresses, dates and ids."""
    parts: list[str] = []

    def walk(value, key: str = "") -> None:
        if key in NOT_TEXT:
            return
        if isinstance(value, str):
            if value:
                parts.append(value)
        elif isinstance(value, dict):
            for child_key, child in value.items():
                walk(child, child_key)
        elif isinstance(value, list):
            for child in value:
                walk(child, key)

    walk(normalise_content(content))
    return "\n".join(parts)


def _word_count(text: str) -> int:
    """Words in any script (Latin, Cyrillic, Arabic, Hebrew, Devanagari, Hangul...); two Chinese characters
    count as one, a Thai run of six letters too (Thai leaves no space between words)."""
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    thai = sum(len(run) for run in THAI_RUN.findall(text))
    rest = CJK_RUN.sub(" ", THAI_RUN.sub(" ", text))
    return len(WORD.findall(rest)) + len(re.findall(r"\d+(?:[.,]\d+)*", rest)) + cjk // 2 + thai // 6


def _bullets(content: dict) -> list[tuple[str, str]]:
    """(section, line) of each work and volunteer line: description lines and highlights."""
    found = []
    for section in ("workExperience", "volunteer"):
        for entry in content[section]:
            text = entry.get("description") or entry.get("summary") or ""
            lines = [BULLET_MARK.sub("", line).strip() for line in text.splitlines()]
            found += [(section, line) for line in lines + entry["highlights"] if line]
    return found


def _starts_with_action(line: str, verbs: str) -> bool:
    if verbs == "zh" and line.startswith(ZH_ACTION_VERBS):
        return True
    first = tokens(line[:40])
    return bool(first) and stem(first[0][1]) in ACTION_VERBS


def _dates_in_order(content: dict) -> tuple[list[str], bool]:
    """The sections with an entry that ends before it starts; whether work is newest first."""
    wrong = []
    for section in ("workExperience", "education", "projects", "volunteer"):
        if any(e["startDate"] and e["endDate"] and e["endDate"] < e["startDate"] for e in content[section]):
            wrong.append(section)
    starts = [e["startDate"] for e in content["workExperience"] if e["startDate"]]
    return wrong, starts == sorted(starts, reverse=True)


def _format(content: dict, suggestions: list[dict], say) -> int:
    info = content["personalInfo"]
    earned = {"name": bool(info["name"]), "email": bool(info["email"]), "phone": bool(info["phone"]),
              "workExperience": bool(content["workExperience"]), "education": bool(content["education"]),
              "skills": bool(content["skills"] or content["skillGroups"])}
    wrong, newest_first = _dates_in_order(content)
    earned["dates"] = not wrong
    if not earned["name"]:
        suggestions.append(say("personalInfo", "name", "critical"))
    if not earned["email"]:
        suggestions.append(say("personalInfo", "email", "critical"))
    if not earned["phone"]:
        suggestions.append(say("personalInfo", "phone", "info"))
    for section, severity in (("workExperience", "critical"), ("education", "warning"), ("skills", "warning")):
        if not earned[section]:
            suggestions.append(say(section, section, severity))
    for section in wrong:
        suggestions.append(say(section, "dates", "warning"))
    if not newest_first:
        suggestions.append(say("workExperience", "newest", "info"))
    return sum(FORMAT_POINTS[key] for key, ok in earned.items() if ok)


def _content(content: dict, text: str, suggestions: list[dict], say, lang: str = "en") -> int:
    """Lines that start with a verb and hold numbers, a summary of the right length, enough text. Each
    language is held to its own measures: verbs such as 负责 and 主导 in Chinese, none where the service
    knows no verbs of the language (the points are given), a Chinese or Japanese summary counted in
    characters, not words."""
    bullets = _bullets(content)
    points = 0.0
    verbs = VERBS.get(lang)
    if bullets:
        weak = [line for _, line in bullets if not _starts_with_action(line, verbs)] if verbs else []
        plain = [line for _, line in bullets if not NUMBER.search(line)]
        points += 35 * (1 - len(weak) / len(bullets))
        points += 25 * min(1.0, 2 * (1 - len(plain) / len(bullets)))  # numbers in half the lines earn it all
        if weak:
            suggestions.append(say("workExperience", "verbs", "warning", weak=len(weak), total=len(bullets),
                                   example=weak[0][:60]))
        if len(plain) * 2 > len(bullets):
            suggestions.append(say("workExperience", "numbers", "info"))
    summary = content["personalInfo"]["summary"]
    size, (least, most) = ((_characters(summary), SUMMARY_CHARS) if lang in SUMMARY_IN_CHARACTERS
                           else (_word_count(summary), SUMMARY_WORDS))
    if lang in UNSPACED and summary:
        size = least
    if not summary:
        suggestions.append(say("personalInfo", "no summary", "warning"))
    elif size > most:
        suggestions.append(say("personalInfo", "long summary", "warning", count=size, limit=most))
    elif size >= least:
        points += 20
    else:
        points += 10
    total = _word_count(text)
    points += 20 * min(1.0, total / SHORT_RESUME_WORDS)
    if total < SHORT_RESUME_WORDS:
        suggestions.append(say("workExperience", "short", "warning"))
    return round(points)


def _characters(text: str) -> int:
    """A Chinese or Japanese text's length as its readers count it: characters (kana too), a Latin word
    counting as one."""
    return sum(len(run) for run in CJK_RUN.findall(text)) + len(KANA.findall(text)) + len(tokens(text))


def _speaker(lang: str):
    """``say(section, message id, severity, **values)``: a suggestion in the resume's language."""
    def say(section: str, key: str, severity: str, **values) -> dict:
        return _say(section, messages.say(lang, key, **values), severity)
    return say


def _say(section: str, message: str, severity: str) -> dict:
    return {"section": section, "message": message, "severity": severity}


def _semantic(text: str, description: str) -> int | None:
    similarity = embedding.similarity(text, description)
    if similarity is None:
        return None
    share = (similarity - SIMILARITY_LOW) / (SIMILARITY_HIGH - SIMILARITY_LOW)
    return round(100 * min(1.0, max(0.0, share)))


def keyword_match(wanted: list[Keyword], text: str) -> tuple[int, list[Keyword], list[Keyword]]:
    """(keywordMatchScore, matched, missing): the weighted share of the keywords the text has."""
    if not wanted:
        return 0, [], []
    terms = resume_terms(text)
    matched = [k for k in wanted if terms.has(k)]
    missing = [k for k in wanted if not terms.has(k)]
    total = sum(k.weight for k in wanted)
    return round(100 * sum(k.weight for k in matched) / total), matched, missing


def analyse(content: dict, description: str) -> dict:
    """The analysis of resume content (stored contentJson) against a job description (not blank)."""
    normalised = normalise_content(content)
    text = resume_text(content)
    lang = language.of(normalised)
    say = _speaker(lang)
    suggestions: list[dict] = []
    keyword_score, matched, missing = keyword_match(keywords(description), text)
    format_score = _format(normalised, suggestions, say)
    content_score = _content(normalised, text, suggestions, say, lang)
    semantic = _semantic(text, description)
    if missing:
        named = missing[:MISSING_KEYWORDS_SUGGESTED]
        them = "it" if len(named) == 1 else "them"
        suggestions.append(say("skills", "missing", "warning" if keyword_score < 50 else "info",
                               names=messages.joiner(lang).join(k.label for k in named), them=them))
    weights = dict(WEIGHTS)
    if semantic is None:
        weights["keyword"] += weights.pop("semantic")
        semantic = 0
    overall = (weights["keyword"] * keyword_score + weights.get("semantic", 0) * semantic
               + weights["format"] * format_score + weights["content"] * content_score)
    order = {"critical": 0, "warning": 1, "info": 2}
    suggestions.sort(key=lambda s: order[s["severity"]])
    return {"overallScore": round(overall), "keywordMatchScore": keyword_score, "formatScore": format_score,
            "contentScore": content_score, "matchedKeywords": [k.label for k in matched],
            "missingKeywords": [k.label for k in missing], "suggestions": suggestions}


def scores(content: dict, description: str | None) -> tuple[int | None, int | None]:
    """(atsScore, keywordMatchScore) stored with a resume: the analysis's overallScore and
    keywordMatchScore, both None without a description."""
    if not description or not description.strip():
        return None, None
    result = analyse(content, description)
    return result["overallScore"], result["keywordMatchScore"]
