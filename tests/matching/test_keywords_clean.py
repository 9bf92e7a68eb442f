"""A job's keywords are its skills and duties, not its boilerplate (issue 23 point 5): no company names,
places, numbers, job-ad words, nor the stopwords of a language the service supports."""
from __future__ import annotations

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
