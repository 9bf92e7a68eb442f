"""Seed data of bench/api.py: two measured users among 200,000 resumes, bulk-inserted.

The ``large`` user owns 10,000 resumes and the ``small`` one 10; the rest of the
table belongs to filler users (100 each). Rows carry a plausible contentJson
(the shape the API validates), varied statuses and templates, and
``created_at``/``updated_at`` spread over three years. Rows are inserted with
SQLAlchemy Core in shuffled owner order, so that no user's rows sit together
in the table, as after years of use.
"""
from __future__ import annotations

import random
import secrets
from datetime import timedelta

TOTAL_RESUMES = 200_000
LARGE_USER_RESUMES = 10_000
SMALL_USER_RESUMES = 10
FILLER_RESUMES_PER_USER = 100
CHUNK = 10_000  # rows per INSERT transaction

FIRST = ["Ada", "Grace", "Alan", "Linus", "Margaret", "Ken", "Barbara", "Edsger", "Frances", "Dennis",
         "Radia", "Guido", "Hedy", "Tim", "Katherine", "Donald", "Sophie", "John", "Annie", "Niklaus"]
LAST = ["Lovelace", "Hopper", "Turing", "Torvalds", "Hamilton", "Thompson", "Liskov", "Dijkstra", "Allen",
        "Ritchie", "Perlman", "van Rossum", "Lamarr", "Berners-Lee", "Johnson", "Knuth", "Wilson", "Backus"]
CITIES = ["Berlin, Germany", "Lisbon, Portugal", "Austin, TX", "Toronto, Canada", "Lyon, France",
          "Nairobi, Kenya", "Melbourne, Australia", "Warsaw, Poland", "Osaka, Japan", "Bogotá, Colombia"]
COMPANIES = ["Acme Corp", "Globex", "Initech", "Umbrella Health", "Stark Industries", "Wayne Logistics",
             "Hooli", "Vandelay Imports", "Soylent Foods", "Tyrell Systems", "Cyberdyne", "Wonka Labs"]
POSITIONS = ["Backend Engineer", "Senior Software Engineer", "Data Analyst", "Product Manager",
             "Site Reliability Engineer", "Frontend Developer", "Engineering Manager", "QA Engineer",
             "Machine Learning Engineer", "Technical Writer"]
SCHOOLS = ["University of Lisbon", "ETH Zürich", "MIT", "University of Toronto", "TU Berlin",
           "University of Nairobi", "Politecnico di Milano", "Kyoto University"]
DEGREES = ["BSc Computer Science", "MSc Software Engineering", "BA Economics", "MSc Data Science",
           "BEng Electrical Engineering", "PhD Distributed Systems"]
SKILLS = ["Python", "Flask", "Django", "PostgreSQL", "Redis", "Docker", "Kubernetes", "Terraform", "AWS",
          "GCP", "TypeScript", "React", "Go", "Rust", "SQL", "Kafka", "Airflow", "Pandas", "Linux", "CI/CD",
          "GraphQL", "REST APIs", "Celery", "Java", "Spark", "Figma", "Scrum", "Technical writing"]
SENTENCES = [
    "Designed and shipped a billing service handling two million invoices a month.",
    "Cut p95 latency of the public API from 800 ms to 120 ms by reworking the data access layer.",
    "Led a team of five engineers through a migration from a monolith to services.",
    "Introduced contract tests that caught regressions before release.",
    "Built dashboards that the sales team used daily to prioritise accounts.",
    "Automated the deployment pipeline, taking releases from weekly to several a day.",
    "Mentored junior developers and ran the internal Python guild.",
    "Reduced cloud spend by 30% through right-sizing and caching.",
    "Owned on-call for the payments platform with a 99.95% availability target.",
    "Wrote the onboarding documentation that new hires still start with.",
]
JOB_AD = ("We are looking for a Python engineer with Flask, PostgreSQL and Kubernetes experience to build "
          "REST APIs for our payments platform. You will own services end to end, from design to on-call.")


def _month(rng: random.Random, start_year: int, end_year: int) -> str:
    return f"{rng.randint(start_year, end_year)}-{rng.randint(1, 12):02d}"


def _content(rng: random.Random) -> dict:
    """A plausible contentJson, the shape the API validates (1 to 4 KB serialized)."""
    first, last = rng.choice(FIRST), rng.choice(LAST)
    work = []
    for i in range(rng.randint(2, 4)):
        start = _month(rng, 2008, 2020)
        work.append({"company": rng.choice(COMPANIES), "position": rng.choice(POSITIONS),
                     "startDate": start, "endDate": "" if i == 0 else _month(rng, int(start[:4]) + 1, 2024),
                     "description": " ".join(rng.sample(SENTENCES, rng.randint(2, 4)))})
    education = []
    for _ in range(rng.randint(1, 2)):
        start = _month(rng, 2000, 2015)
        education.append({"school": rng.choice(SCHOOLS), "degree": rng.choice(DEGREES), "startDate": start,
                          "endDate": _month(rng, int(start[:4]) + 2, int(start[:4]) + 5)})
    projects = []
    for _ in range(rng.randint(0, 3)):
        start = _month(rng, 2015, 2023)
        kind = rng.choice(["toolkit", "dashboard", "CLI", "service"])
        projects.append({"id": secrets.token_hex(8), "name": f"{rng.choice(SKILLS)} {kind}",
                         "description": " ".join(rng.sample(SENTENCES, 2)),
                         "technologies": rng.sample(SKILLS, rng.randint(2, 5)),
                         "url": f"https://github.com/{first.lower()}/{secrets.token_hex(3)}",
                         "highlights": rng.sample(SENTENCES, rng.randint(1, 3)),
                         "startDate": start, "endDate": ""})
    return {"personalInfo": {"name": f"{first} {last}", "email": f"{first.lower()}.{last.lower()}@example.com",
                             "phone": f"+1 555 01{rng.randint(10, 99)}", "address": rng.choice(CITIES),
                             "summary": " ".join(rng.sample(SENTENCES, 3))},
            "workExperience": work, "education": education,
            "skills": rng.sample(SKILLS, rng.randint(6, 14)), "projects": projects}


VISIBLE = {"personalInfo": True, "workExperience": True, "education": True, "skills": True, "projects": True}


def _resume_row(rng, user_id, template_ids, contents, now, *, may_be_deleted: bool) -> dict:
    created = now - timedelta(seconds=rng.uniform(0, 3 * 365 * 86400))
    updated = created + (now - created) * rng.random()
    with_job = rng.random() < 0.3
    deleted = updated + (now - updated) * rng.random() if may_be_deleted and rng.random() < 0.05 else None
    return {"id": secrets.token_hex(12), "user_id": user_id,
            "title": f"{rng.choice(POSITIONS)} resume {rng.randint(1, 99)}",
            "status": rng.choices(("DRAFT", "PUBLISHED", "ARCHIVED"), (5, 4, 1))[0],
            "template_id": rng.choice(template_ids), "content_json": rng.choice(contents),
            "sections_visibility": VISIBLE, "target_job_description": JOB_AD if with_job else None,
            "ats_score": rng.randint(30, 95) if with_job else None,
            "keyword_match_score": rng.randint(10, 90) if with_job else None,
            "deleted_at": deleted, "created_at": created, "updated_at": updated}


def seed(app) -> dict[str, str]:
    """Fill the database; returns the raw session cookie values of the ``small`` and ``large`` users."""
    from sqlalchemy import insert

    from app.auth import registration
    from app.users.models import User
    from app.auth import service as auth
    from app.common.models import utcnow
    from app.extensions import db
    from app.resumes.models import Resume, Template
    from app.resumes.service import recount_live_resumes

    rng = random.Random(20261101)
    with app.app_context():
        template_ids = list(db.session.scalars(db.select(Template.id)))
        measured = {}
        for key in ("small", "large"):
            user = registration.new_user(email=f"bench-{key}@example.com", name=f"Bench {key.title()}",
                                         password_hash=None, verified=True)
            user.subscription.type = "PREMIUM"  # the FREE plan stops at 5 resumes
            db.session.commit()
            measured[key] = user.id
        now = utcnow()
        filler_count = TOTAL_RESUMES - LARGE_USER_RESUMES - SMALL_USER_RESUMES
        n_filler_users = -(-filler_count // FILLER_RESUMES_PER_USER)
        # Columns left out get the model's Python defaults (auth_id, timestamps).
        filler_users = [{"id": secrets.token_hex(12), "email": f"filler{i}@bench.example.com",
                         "name": f"{rng.choice(FIRST)} {rng.choice(LAST)}", "email_verified_at": now}
                        for i in range(n_filler_users)]
        with db.engine.begin() as conn:
            conn.execute(insert(User.__table__), filler_users)

        # Owners shuffled so that no user's rows sit together in the table, as after years of use.
        owners = ([measured["large"]] * LARGE_USER_RESUMES + [measured["small"]] * SMALL_USER_RESUMES
                  + [filler_users[i // FILLER_RESUMES_PER_USER]["id"] for i in range(filler_count)])
        rng.shuffle(owners)
        contents = [_content(rng) for _ in range(64)]
        measured_ids = set(measured.values())
        for start in range(0, len(owners), CHUNK):
            rows = [_resume_row(rng, owner, template_ids, contents, now, may_be_deleted=owner not in measured_ids)
                    for owner in owners[start:start + CHUNK]]
            with db.engine.begin() as conn:
                conn.execute(insert(Resume.__table__), rows)
        recount_live_resumes()  # the rows were written around the service, which keeps the counts
        db.session.commit()
        if db.engine.dialect.name == "sqlite":
            with db.engine.begin() as conn:
                conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")  # fold the WAL back into the file
        elif db.engine.dialect.name == "postgresql":
            # The steady state autovacuum reaches after such an insert: planner statistics and a
            # visibility map (which index-only scans need). No transaction of ours may stay open:
            # VACUUM cannot mark pages all-visible past the oldest open snapshot.
            db.session.commit()
            db.session.close()
            with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql("VACUUM ANALYZE")

        cookies = {}
        for key, user_id in measured.items():
            _, raw = auth.start_session(db.session.get(User, user_id), replaces=None, ip_address="127.0.0.1",
                                        user_agent="bench/api.py")
            cookies[key] = raw
        db.session.remove()
        db.engine.dispose()
    return cookies
