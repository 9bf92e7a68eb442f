"""Bench of the analysis against a job: prints its median time and the ratio to a baseline measured in
the same run.

    .venv/bin/python bench/analysis.py [--runs 30]

The long English sample resume of the layout checks (tests/documents/samples.py: ten jobs, three
pages and more, every section) against a one-page job description (about 350 words):
1. the analysis: ``POST /api/resumes/<id>/analysis`` through the app (session, validation, the
   engine, the ``ai.analysis_completed`` row and its commit). Goal: median at most 150 ms.
2. the baseline: the same resume's ``atsScore`` computation (``app.matching.engine.scores``, what a
   save runs), called directly.

The app runs in-process on its embedded default (a temporary SQLite file); the embedding model is
loaded once, before the runs, as a process's first analysis does. See docs/bench.md.
"""
from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.export import timed  # noqa: E402

GOAL_MS = 150
JOB = """Senior Backend Engineer, Payments Platform

We are looking for a senior backend engineer to join the payments platform team. You will design, build
and operate the services that move money for millions of customers: card authorisation, settlement,
refunds, ledgers and reconciliation. The platform is written in Python and Go, runs on Kubernetes in
AWS, stores its data in PostgreSQL and Redis, and talks over REST APIs, gRPC and Kafka.

What you will do
- Design and build reliable, well-tested services and REST APIs for payments and ledgers.
- Own services in production: monitoring, alerting, incident response and on-call rotations.
- Improve performance and cost: profile queries, tune PostgreSQL, cache with Redis.
- Lead technical design reviews, write clear design documents and mentor other engineers.
- Work with product managers, designers and finance to ship features in small, safe steps.
- Raise the bar for security and compliance (PCI DSS), code review and continuous integration.

What you bring
- Five or more years building backend systems in Python, Go, Java or a similar language.
- Deep knowledge of relational databases, SQL, transactions and data modelling.
- Experience with distributed systems, message queues, event-driven architecture and microservices.
- Docker, Kubernetes, Terraform and a major cloud provider (AWS, Google Cloud or Azure).
- Testing habits: unit tests, integration tests, continuous delivery and feature flags.
- Clear written and spoken communication in English; Mandarin is a plus.

Nice to have
- Payments, banking or fintech experience; knowledge of ISO 8583, SEPA or card networks.
- Observability tooling such as Prometheus, Grafana and OpenTelemetry.
- Experience leading a small team or a cross-team project.

We offer a hybrid workplace, a learning budget, and a team that values kindness and curiosity.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="measured runs of each (default 30)")
    args = parser.parse_args(argv)
    if not 3 <= args.runs <= 1000:
        parser.error("--runs must be in [3, 1000]")

    from flask_migrate import upgrade

    from app import create_app
    from app.auth import registration
    from app.matching import embedding, engine
    from app.auth import service as auth
    from app.config import config_for
    from app.extensions import db
    from app.resumes import service as resumes
    from app.resumes.models import Template
    from tests.documents.samples import SAMPLES

    content = SAMPLES[("en", "long")]
    with tempfile.TemporaryDirectory(prefix="resume-analysis-bench-") as tmp:
        env = {"SECRET_KEY": secrets.token_urlsafe(48), "DATABASE_URL": f"sqlite:///{tmp}/bench.db",
               "STORAGE_DIR": f"{tmp}/storage", "LOG_LEVEL": "WARNING",
               "RATELIMIT_AUTHENTICATED": "1000000 per minute", "RATELIMIT_AI_ANALYSIS": "1000000 per minute"}
        app = create_app(config_for("production", env))
        with app.app_context():
            upgrade()
            user = registration.new_user(email="bench@example.com", name="Bench", password_hash=None, verified=True)
            user.subscription.type = "PREMIUM"
            db.session.commit()
            template = db.session.scalar(db.select(Template).where(Template.name == "Horizon"))
            resume_id = resumes.create_resume(user, {"title": "Long", "templateId": template.id,
                                                     "contentJson": content}).id
            _, cookie = auth.start_session(user, replaces=None, ip_address="127.0.0.1", user_agent="bench")
            db.session.remove()
        t0 = time.perf_counter()
        embedding.model()
        load = time.perf_counter() - t0

        client = app.test_client()
        client.set_cookie(app.config["AUTH_COOKIE_NAME"], cookie)

        def analysis():
            response = client.post(f"/api/resumes/{resume_id}/analysis", json={"jobDescription": JOB})
            if response.status_code != 200:
                raise RuntimeError(f"analysis: {response.status_code} {response.get_data(as_text=True)}")
            return response

        def baseline():
            return engine.scores(content, JOB)

        words = len(JOB.split())
        print(f"Analysis bench: embedded default (SQLite), {os.cpu_count()} CPUs, Python {platform.python_version()}")
        print(f"The long English sample resume against a {words}-word job description, {args.runs} interleaved "
              f"runs of each after 3 warm-ups (embedding model loaded in {load * 1000:.0f} ms)")
        for _ in range(3):
            analysis(), baseline()
        samples: dict[str, list[float]] = {"analysis": [], "baseline": []}
        for _ in range(args.runs):
            samples["analysis"].append(timed(analysis))
            samples["baseline"].append(timed(baseline))
        median = {name: statistics.median(values) * 1000 for name, values in samples.items()}
        print(f"  POST /api/resumes/<id>/analysis          median {median['analysis']:8.1f} ms   "
              f"goal ≤ {GOAL_MS} ms: {'met' if median['analysis'] <= GOAL_MS else 'not met'}")
        print(f"  atsScore of the same resume (baseline)   median {median['baseline']:8.1f} ms")
        print(f"  ratio {median['analysis'] / median['baseline']:.2f}")
        result = analysis().get_json()["data"]
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    print(f"  (overallScore {result['overallScore']}, keywordMatchScore {result['keywordMatchScore']}, "
          f"{len(result['matchedKeywords'])} keywords matched, {len(result['missingKeywords'])} missing, "
          f"{len(result['suggestions'])} suggestions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
