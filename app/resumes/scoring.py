"""atsScore and keywordMatchScore: integers 0..100, or None without a job description.

- keywordMatchScore: the share of the description's keywords found in the resume.
  Keywords are the description's distinct words of 2+ letters that are not
  stop words, the 40 most frequent (ties by first appearance).
- completeness: how much of the resume an ATS can read (contact details,
  summary, experience with descriptions, education, skills, projects).
- atsScore = round(0.6 * keywordMatchScore + 0.4 * completeness).

docs/scoring.md works an example through.
"""
from __future__ import annotations

import re
from collections import Counter

WORD = re.compile(r"[\w][\w+#.\-]*[\w+#]|[\w]{2,}", re.UNICODE)
MAX_KEYWORDS = 40
STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each etc few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just least like
may me more most must my myself no nor not now of off on once only or other our ours ourselves out over
own per plus same she should so some such than that the their theirs them themselves then there these
they this those through to too under until up very via was we well were what when where which while who
whom why will with within without would you your yours yourself yourselves
ability able candidate candidates experience years year work working team teams role strong good great
excellent knowledge skills skill required requirements preferred responsibilities including looking join
us our company new using use
""".split())

WEIGHTS = {  # completeness points, 100 in all
    "name": 10, "email": 10, "phone": 5, "summary": 15,
    "work": 20, "work_descriptions": 10, "education": 10, "skills": 10, "projects": 10,
}


def words(text: str) -> list[str]:
    return [w.lower().strip(".-") for w in WORD.findall(text or "")]


def keywords(description: str) -> list[str]:
    counts = Counter(w for w in words(description) if w not in STOP_WORDS and not w.isdigit() and len(w) >= 2)
    order = {w: i for i, w in reversed(list(enumerate(words(description))))}
    return sorted(counts, key=lambda w: (-counts[w], order[w]))[:MAX_KEYWORDS]


def resume_text(content: dict) -> str:
    parts: list[str] = list(content.get("personalInfo", {}).values())
    for item in content.get("workExperience", []) + content.get("education", []):
        parts += [v for v in item.values() if isinstance(v, str)]
    parts += content.get("skills", [])
    for project in content.get("projects", []):
        parts += [project.get("name", ""), project.get("description", "")]
        parts += project.get("technologies", []) + project.get("highlights", [])
    return " ".join(p for p in parts if isinstance(p, str))


def completeness(content: dict) -> int:
    info = content.get("personalInfo", {})
    work = content.get("workExperience", [])
    earned = {
        "name": bool(info.get("name")), "email": bool(info.get("email")), "phone": bool(info.get("phone")),
        "summary": bool(info.get("summary")), "work": bool(work),
        "work_descriptions": bool(work) and all(item.get("description") for item in work),
        "education": bool(content.get("education")), "skills": len(content.get("skills", [])) >= 3,
        "projects": bool(content.get("projects")),
    }
    return sum(WEIGHTS[key] for key, ok in earned.items() if ok)


def scores(content: dict, description: str | None) -> tuple[int | None, int | None]:
    """(atsScore, keywordMatchScore), both None without a description."""
    if not description or not description.strip():
        return None, None
    wanted = keywords(description)
    if not wanted:
        return round(0.4 * completeness(content)), 0
    have = set(words(resume_text(content)))
    match = round(100 * sum(1 for w in wanted if w in have) / len(wanted))
    return round(0.6 * match + 0.4 * completeness(content)), match
