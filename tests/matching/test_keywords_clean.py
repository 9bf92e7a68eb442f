"""A job's keywords are its skills and duties, not its boilerplate (issue 23 point 5): no company names,
places, numbers, job-ad words, nor the stopwords of a language the service supports."""
from __future__ import annotations

import re

from app.matching.keywords import keywords

AD = """Job Description: Senior Backend Engineer (Remote, San Francisco, CA)

About Northwind Payments
Northwind Payments is a fintech company based in San Francisco, CA. Join Northwind Payments and build
the ledger that moves money for millions of customers.

Requirements: 5+ years of Python and PostgreSQL, Kubernetes on AWS, Kafka, gRPC. Experience with
payment reconciliation and distributed systems. Salary range $180,000 - $220,000. Benefits: 401(k).
"""

SPANISH = """Descripción del puesto: Ingeniero de datos en Madrid, España.
Buscamos una persona para el equipo de datos de la empresa, con experiencia en Python, Spark y Airflow
para diseñar los flujos de datos y mantener el almacén de datos en BigQuery. Se valorará también
conocimiento de Kubernetes y de las buenas prácticas de ingeniería del software."""


def labels(text: str) -> list[str]:
    return [k.label.casefold() for k in keywords(text)]


def test_company_names_places_numbers_and_boilerplate_are_not_keywords():
    found = labels(AD)
    for word in ("python", "postgresql", "kubernetes", "aws", "kafka", "reconciliation"):
        assert any(word in label for label in found), (word, found)
    for noise in ("northwind", "payments", "san", "francisco", "ca", "job", "description", "5+", "5",
                  "salary", "benefits", "remote", "180,000", "401"):
        assert noise not in found, (noise, found)


def test_spanish_stopwords_are_not_keywords_and_accented_words_stay_whole():
    found = labels(SPANISH)
    for word in ("python", "spark", "airflow", "bigquery", "kubernetes"):
        assert word in found, (word, found)
    for noise in ("de", "la", "para", "el", "los", "las", "una", "con", "del", "se", "en", "madrid", "españa",
                  "también", "tambi", "descripci", "puesto"):
        assert noise not in found, (noise, found)


ZH_RESUME = {
    "personalInfo": {"name": "王晓燕", "email": "wang@example.cn", "phone": "138 0013 8000",
                     "summary": "十年后端开发经验，" * 20},  # 200 characters: a usual Chinese summary
    "workExperience": [{"company": "云帆科技", "position": "高级后端工程师", "startDate": "2019-03", "endDate": "",
                        "description": "牵头推进订单系统重构，接口响应时间降低 80%\n独立完成会员积分服务的拆分\n"
                                       "协助运维团队搭建监控平台"}],
    "education": [{"school": "浙江大学", "degree": "计算机科学学士", "startDate": "2010-09", "endDate": "2014-06"}],
    "skills": ["Python", "Go", "PostgreSQL"],
}


def test_a_chinese_resume_is_measured_in_chinese_and_told_so_in_chinese():
    from app.matching.engine import analyse

    result = analyse(ZH_RESUME, "招聘高级后端工程师，熟悉 Python、Go、Kafka 和 Kubernetes，有分布式系统经验。")
    messages = [s["message"] for s in result["suggestions"]]
    assert not any("words" in m or "action verb" in m for m in messages), messages  # no English checks
    assert all(re.search(r"[\u4e00-\u9fff]", m) for m in messages), messages  # and no English at all
    assert any("Kafka" in m and "职位要求" in m for m in messages), messages
    long = dict(ZH_RESUME, personalInfo={**ZH_RESUME["personalInfo"], "summary": "经验丰富的工程师。" * 40})
    assert any("个人简介有 320 个字" in s["message"] for s in analyse(long, "招聘工程师")["suggestions"])
