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
from app.matching import embedding
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
SUMMARY_CHARS = (30, 300)  # a Chinese summary's characters outside this range earn no points
NUMBER = re.compile(r"\d|[一二三四五六七八九十百千万亿]+[%个人次项名倍]|percent", re.IGNORECASE)
# What the analysis says, in English and in Chinese: a resume written in Chinese gets the Chinese (other
# languages get English; docs/scoring.md).
MESSAGES = {
    "name": ("Add your name: it is the first thing an ATS reads.", "请填写姓名：这是招聘系统最先读取的内容。"),
    "email": ("Add an email address so that the employer can reach you.", "请填写电子邮箱，方便雇主联系你。"),
    "phone": ("Add a phone number.", "请填写电话号码。"),
    "workExperience": ("Add your work experience: it is the section employers read first.",
                       "请填写工作经历：这是雇主最先阅读的部分。"),
    "education": ("Add your education.", "请填写教育背景。"),
    "skills": ("Add a skills section: an ATS looks for the job's skills there first.",
               "请添加技能部分：招聘系统会首先在这里查找职位要求的技能。"),
    "dates": ("An entry ends before it starts: check its dates.", "有一项经历的结束时间早于开始时间，请检查日期。"),
    "newest": ("List your jobs newest first, as employers expect.", "请按时间倒序排列工作经历（最近的在前）。"),
    "verbs": ("{weak} of {total} lines do not start with an action verb (led, built, reduced...), e.g. \"{example}\".",
              "{total} 条描述中有 {weak} 条没有以动词开头（负责、主导、优化……），例如“{example}”。"),
    "numbers": ("Most lines have no number: say how much, how many or how fast (\"cut costs by 15 %\").",
                "多数描述没有数字：请写明规模、数量或速度（如“成本降低 15%”）。"),
    "no summary": ("Add a short summary (two or three sentences) that names the job you want.",
                   "请添加简短的个人简介（两三句话），写明你想要的职位。"),
    "long summary": ("The summary has {count} words: keep it under {limit}.",
                     "个人简介有 {count} 个字：建议控制在 {limit} 字以内。"),
    "short": ("The resume is short: describe what you did and achieved in each job.",
              "简历内容偏少：请描述每份工作中做了什么、取得了什么成果。"),
    "missing": ("The job asks for {names}: if you have {them}, name {them} in your skills or experience.",
                "职位要求 {names}：如果你具备，请在技能或工作经历中写明。"),
}
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
    return len(tokens(text)) + sum(len(run) for run in CJK_RUN.findall(text)) // 2


def _bullets(content: dict) -> list[tuple[str, str]]:
    """(section, line) of each work and volunteer line: description lines and highlights."""
    found = []
    for section in ("workExperience", "volunteer"):
        for entry in content[section]:
            text = entry.get("description") or entry.get("summary") or ""
            lines = [BULLET_MARK.sub("", line).strip() for line in text.splitlines()]
            found += [(section, line) for line in lines + entry["highlights"] if line]
    return found


def _starts_with_action(line: str) -> bool:
    if line.startswith(ZH_ACTION_VERBS):
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


def _content(content: dict, text: str, suggestions: list[dict], say, chinese: bool = False) -> int:
    """Lines that start with a verb and hold numbers, a summary of the right length, enough text. A
    resume in Chinese is held to Chinese measures: verbs such as 负责 and 主导, and its summary counted
    in characters, not English words."""
    bullets = _bullets(content)
    points = 0.0
    if bullets:
        weak = [line for _, line in bullets if not _starts_with_action(line)]
        plain = [line for _, line in bullets if not NUMBER.search(line)]
        points += 35 * (1 - len(weak) / len(bullets))
        points += 25 * min(1.0, 2 * (1 - len(plain) / len(bullets)))  # numbers in half the lines earn it all
        if weak:
            suggestions.append(say("workExperience", "verbs", "warning", weak=len(weak), total=len(bullets),
                                   example=weak[0][:60]))
        if len(plain) * 2 > len(bullets):
            suggestions.append(say("workExperience", "numbers", "info"))
    summary = content["personalInfo"]["summary"]
    size, (least, most) = ((_characters(summary), SUMMARY_CHARS) if chinese
                           else (_word_count(summary), SUMMARY_WORDS))
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
    """A Chinese text's length as its readers count it: characters, a Latin word counting as one."""
    return sum(len(run) for run in CJK_RUN.findall(text)) + len(tokens(text))


def _speaker(chinese: bool):
    """``say(section, message id, severity, **values)``: a suggestion in the resume's language."""
    def say(section: str, key: str, severity: str, **values) -> dict:
        return _say(section, MESSAGES[key][1 if chinese else 0].format(**values), severity)
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
    chinese = language.of(normalised).startswith("zh")
    say = _speaker(chinese)
    suggestions: list[dict] = []
    keyword_score, matched, missing = keyword_match(keywords(description), text)
    format_score = _format(normalised, suggestions, say)
    content_score = _content(normalised, text, suggestions, say, chinese)
    semantic = _semantic(text, description)
    if missing:
        named = missing[:MISSING_KEYWORDS_SUGGESTED]
        them = "it" if len(named) == 1 else "them"
        suggestions.append(say("skills", "missing", "warning" if keyword_score < 50 else "info",
                               names=("、" if chinese else ", ").join(k.label for k in named), them=them))
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
