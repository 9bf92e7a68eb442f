"""Bench of exports: prints speed ratios against baselines measured in the same run.

    .venv/bin/python bench/export.py [--runs 15] [--language en|zh|ar|hi|th|emoji]

For a two-page resume (checked: the PDF has two pages):
1. PDF: the median time of ``POST /api/resumes/<id>/export`` with format pdf
   (session, validation, the render job on the exports queue, the wait for it,
   storage, the export row and its event) divided by the median time of a bare
   ``xhtml2pdf.pisa.CreatePDF`` of the very HTML the export feeds xhtml2pdf.
   Goal: at most 1.5.
2. DOCX: the same API export with format docx divided by building the same
   document with the DOCX renderer called directly. Goal: at most 1.5.

``--language emoji`` uses the English resume with emoji (ZWJ sequences, skin tones, a flag), arrows,
stars and check marks in every job, drawn by Noto Emoji and the symbol faces. ``--language zh`` uses a
Chinese resume with Latin terms mixed in, which takes the
fallback fonts and the CJK line breaking (issue 13's rules); ``--language ar`` an Arabic one (right to
left, joined letters), ``--language hi`` a Hindi one (Devanagari shaped by HarfBuzz) and ``--language th``
a Thai one (shaped, its lines broken between words by the dictionary segmenter), each with Latin terms
and numbers inside.

The app runs in-process on its embedded default (a temporary SQLite file, the
in-process RQ worker, files in a temporary directory). See docs/bench.md.
"""
from __future__ import annotations

import argparse
import io
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

from bench.seed import SENTENCES, SKILLS  # noqa: E402

GOAL = 1.5

TWO_PAGES = {
    "personalInfo": {"name": "Grace Hopper", "email": "grace@example.com", "phone": "+1 555 0100",
                     "address": "Arlington, VA", "summary": " ".join(SENTENCES[:4])},
    "workExperience": [{"company": f"Company {i}", "position": "Senior Software Engineer",
                        "startDate": f"{2010 + i}-01", "endDate": "" if i == 0 else f"{2011 + i}-06",
                        "description": "\n".join(SENTENCES[i % 3:i % 3 + 4])} for i in range(7)],
    "education": [{"school": "Yale University", "degree": "PhD Mathematics", "startDate": "2002-09",
                   "endDate": "2006-06"}],
    "skills": SKILLS[:14],
    "projects": [{"name": f"Project {i}", "description": SENTENCES[i], "technologies": SKILLS[i:i + 3],
                  "url": f"https://example.com/p{i}", "highlights": SENTENCES[i + 1:i + 3],
                  "startDate": "2020-01", "endDate": "2021-01"} for i in range(3)],
}

SENTENCES_ZH = [
    "负责支付平台的架构设计与性能优化，使用 Python 和 Go 重写核心结算服务，吞吐量提升三倍。",
    "主导数据库从 MySQL 迁移到 PostgreSQL，零停机完成十亿行数据的迁移与校验。",
    "建立基于 Kubernetes 的持续交付流水线，发布周期从两周缩短到一天。",
    "带领八人团队完成云原生改造，服务可用性达到百分之九十九点九九。",
    "设计并实现分布式任务调度系统，日均调度任务超过两千万个。",
    "推动代码评审与自动化测试文化，线上故障数量下降百分之六十。",
    "与产品和运营团队紧密合作，完成十余个核心功能的需求分析与交付。",
    "编写技术文档与内部培训材料，指导五名新人工程师快速成长。",
]
TWO_PAGES_ZH = {
    "personalInfo": {"name": "王小明", "email": "xiaoming@example.com", "phone": "+86 138 0013 8000",
                     "address": "上海市浦东新区", "summary": "".join(SENTENCES_ZH[:3])},
    "workExperience": [{"company": f"星河科技第{i + 1}事业部", "position": "高级后端工程师",
                        "startDate": f"{2010 + i}-01", "endDate": "" if i == 0 else f"{2011 + i}-06",
                        "description": "\n".join(SENTENCES_ZH[i % 4:i % 4 + 4])} for i in range(7)],
    "education": [{"school": "复旦大学", "degree": "计算机科学硕士", "startDate": "2002-09",
                   "endDate": "2006-06"}],
    "skills": SKILLS[:10] + ["分布式系统", "领域驱动设计", "性能调优", "团队管理"],
    "projects": [{"name": f"结算引擎 {i}", "description": SENTENCES_ZH[i], "technologies": SKILLS[i:i + 3],
                  "url": f"https://example.com/p{i}", "highlights": SENTENCES_ZH[i + 1:i + 3],
                  "startDate": "2020-01", "endDate": "2021-01"} for i in range(3)],
}
SENTENCES_AR = [
    "قدت فريقاً من ستة مهندسين لإعادة بناء منصة الدفع باستخدام Python و PostgreSQL، فتضاعف الأداء ثلاث مرات.",
    "صممت نظاماً لجدولة المهام يعالج أكثر من عشرين مليون مهمة يومياً بدقة عالية.",
    "نقلت قاعدة البيانات من MySQL إلى PostgreSQL دون توقف للخدمة خلال عام 2021.",
    "أنشأت خط تسليم مستمر على Kubernetes فقصرت دورة الإصدار من أسبوعين إلى يوم واحد.",
    "عملت مع فرق المنتج والعمليات على تحليل المتطلبات وتسليم أكثر من عشر ميزات أساسية.",
    "كتبت وثائق تقنية ومواد تدريب داخلية ودربت خمسة مهندسين جدد.",
]
SENTENCES_HI = [
    "छह इंजीनियरों की टीम का नेतृत्व किया और Python तथा PostgreSQL से भुगतान मंच को फिर से बनाया, "
    "जिससे प्रदर्शन तीन गुना हुआ।",
    "प्रतिदिन दो करोड़ से अधिक कार्यों को संभालने वाली वितरित कार्य-निर्धारण प्रणाली की रूपरेखा तैयार की।",
    "2021 में बिना सेवा रोके डेटाबेस को MySQL से PostgreSQL में स्थानांतरित किया।",
    "Kubernetes पर निरंतर डिलीवरी पाइपलाइन बनाई और रिलीज़ चक्र दो सप्ताह से घटाकर एक दिन किया।",
    "उत्पाद और संचालन टीमों के साथ मिलकर दस से अधिक मुख्य सुविधाओं की आवश्यकताओं का विश्लेषण किया।",
    "तकनीकी दस्तावेज़ और आंतरिक प्रशिक्षण सामग्री लिखी तथा पाँच नए इंजीनियरों को प्रशिक्षित किया।",
]

SENTENCES_TH = [
    "นำทีมวิศวกรหกคนสร้างระบบชำระเงินใหม่ด้วย Python และ PostgreSQL ทำให้ประสิทธิภาพเพิ่มขึ้นสามเท่า",
    "ออกแบบระบบจัดตารางงานแบบกระจายที่รองรับงานมากกว่ายี่สิบล้านรายการต่อวัน",
    "ย้ายฐานข้อมูลจาก MySQL ไปยัง PostgreSQL โดยไม่มีการหยุดให้บริการและตรวจสอบข้อมูลหนึ่งพันล้านแถว",
    "พัฒนาระบบติดตามและแจ้งเตือนที่ลดเวลาการแก้ไขเหตุขัดข้องลงเหลือไม่ถึงสิบห้านาที",
    "ร่วมกับฝ่ายผลิตภัณฑ์กำหนดแผนงานรายไตรมาสและจัดลำดับความสำคัญของงานค้างกว่าสองร้อยรายการ",
    "เขียนเอกสารทางเทคนิคและสื่อการฝึกอบรมภายในพร้อมทั้งดูแลวิศวกรใหม่ห้าคน",
    "ปรับปรุงกระบวนการทดสอบอัตโนมัติจนเวลาในการส่งมอบซอฟต์แวร์ลดลงจากสองสัปดาห์เหลือสองวัน",
]


def two_pages(name: str, address: str, company: str, position: str, school: str, degree: str,
              sentences: list[str], jobs: int = 5) -> dict:
    """A two-page resume in one language, shaped like TWO_PAGES_ZH."""
    return {
        "personalInfo": {"name": name, "email": "candidate@example.com", "phone": "+1 555 0100",
                         "address": address, "summary": " ".join(sentences[:3])},
        "workExperience": [{"company": f"{company} {i + 1}", "position": position,
                            "startDate": f"{2010 + i}-01", "endDate": "" if i == 0 else f"{2011 + i}-06",
                            "description": "\n".join(sentences[i % 3:i % 3 + 4])} for i in range(jobs)],
        "education": [{"school": school, "degree": degree, "startDate": "2002-09", "endDate": "2006-06"}],
        "skills": SKILLS[:10],
        "projects": [{"name": f"{company} {i}", "description": sentences[i], "technologies": SKILLS[i:i + 3],
                      "url": f"https://example.com/p{i}", "highlights": sentences[i + 1:i + 3],
                      "startDate": "2020-01", "endDate": "2021-01"} for i in range(3)],
    }


SENTENCES_EMOJI = [
    "Shipped the payments API 🚀 with Python 🐍 and PostgreSQL ✅, cutting checkout time by a third ⏱️.",
    "Led a team of six 👩‍💻👨‍💻 across three time zones 🌍 ➔ weekly releases instead of monthly.",
    "Built the on-call tooling 🔔 that pages the right person ★★★★☆ and closes 90 % of alerts ✓ itself.",
    "Mentored five new engineers 🎓; two now lead teams of their own 👍🏽.",
]
EMOJI = {**TWO_PAGES,
         "personalInfo": {**TWO_PAGES["personalInfo"], "name": "Grace Hopper 🚀",
                          "summary": " ".join(SENTENCES_EMOJI[:3]) + " ☎ ✉ ≥ ∑ ♫ 🇺🇸"},
         "workExperience": [{**job, "description": "\n".join(SENTENCES_EMOJI[i % 2:i % 2 + 3])}
                            for i, job in enumerate(TWO_PAGES["workExperience"])]}
CONTENT = {"en": TWO_PAGES, "zh": TWO_PAGES_ZH, "emoji": EMOJI,
           "ar": two_pages("ليلى حداد", "عمّان، الأردن", "شركة النجم للتقنية", "مهندسة برمجيات أولى",
                           "الجامعة الأردنية", "ماجستير علوم الحاسوب", SENTENCES_AR),
           "hi": two_pages("प्रिया शर्मा", "बेंगलुरु, कर्नाटक", "तारा प्रौद्योगिकी", "वरिष्ठ सॉफ़्टवेयर इंजीनियर",
                           "भारतीय प्रौद्योगिकी संस्थान दिल्ली", "कंप्यूटर विज्ञान में स्नातकोत्तर", SENTENCES_HI),
           "th": two_pages("สมศรี ใจดี", "กรุงเทพมหานคร", "บริษัท ดาวเหนือ เทคโนโลยี", "วิศวกรซอฟต์แวร์อาวุโส",
                           "จุฬาลงกรณ์มหาวิทยาลัย", "วิศวกรรมศาสตรมหาบัณฑิต สาขาวิศวกรรมคอมพิวเตอร์",
                           SENTENCES_TH)}


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="measured runs of each of the four (default 15)")
    parser.add_argument("--language", choices=sorted(CONTENT), default="en",
                        help="the resume's language (zh, ar, hi, th: with Latin terms; emoji: English with "
                             "emoji and symbols; default en)")
    args = parser.parse_args(argv)
    if not 3 <= args.runs <= 500:
        parser.error("--runs must be in [3, 500]")

    from flask_migrate import upgrade
    from pypdf import PdfReader
    from xhtml2pdf import pisa

    from app import create_app
    from app.auth import registration
    from app.auth import service as auth
    from app.config import config_for
    from app.extensions import db
    from app import documents
    from app.resumes import exports
    from app.resumes import service as resumes
    from app.documents import pdf
    from app.documents.pdf import linebreak, shaping
    from app.resumes.models import Template

    with tempfile.TemporaryDirectory(prefix="resume-export-bench-") as tmp:
        env = {"SECRET_KEY": secrets.token_urlsafe(48), "DATABASE_URL": f"sqlite:///{tmp}/bench.db",
               "STORAGE_DIR": f"{tmp}/storage", "LOG_LEVEL": "WARNING",
               "RATELIMIT_AUTHENTICATED": "1000000 per minute"}
        app = create_app(config_for("production", env))
        with app.app_context():
            upgrade()
            user = registration.new_user(email="bench@example.com", name="Bench", password_hash=None, verified=True)
            user.subscription.type = "ENTERPRISE"  # unlimited storage: the runs add up
            db.session.commit()
            template = db.session.scalar(db.select(Template).where(Template.name == "Horizon"))
            resume_id = resumes.create_resume(user, {"title": "Two pages", "templateId": template.id,
                                                     "contentJson": CONTENT[args.language]}).id
            _, cookie = auth.start_session(user, replaces=None, ip_address="127.0.0.1", user_agent="bench")
            source, _ = exports.export_source(resume_id)
            html = documents.html_document(source, documents.Options(), None)
            html = pdf.with_fallback_font(html)  # the very HTML xhtml2pdf is handed (marked runs, fonts)
            db.session.remove()

        client = app.test_client()
        client.set_cookie(app.config["AUTH_COOKIE_NAME"], cookie)

        def api(fmt: str) -> bytes:
            response = client.post(f"/api/resumes/{resume_id}/export", json={"format": fmt})
            if response.status_code != 201:
                raise RuntimeError(f"export as {fmt}: {response.status_code} {response.get_data(as_text=True)}")
            return response

        def bare_pdf() -> bytes:
            # xhtml2pdf as the render sets it up: its engine's hooks (shaping, CJK line breaking) put in
            # place and the codes of the document before forgotten, as every render of the app does
            linebreak.install()
            shaping.install()
            out = io.BytesIO()
            # with the export's link_callback: it is what finds the fallback fonts' files
            if pisa.CreatePDF(html, dest=out, encoding="utf-8", link_callback=pdf.link_callback).err:
                raise RuntimeError("xhtml2pdf reported errors")
            return out.getvalue()

        def direct_docx() -> bytes:
            return documents.render("docx", source, documents.Options())

        pages = len(PdfReader(io.BytesIO(bare_pdf())).pages)
        print(f"Export bench: embedded default (SQLite, in-process worker), {os.cpu_count()} CPUs, "
              f"Python {platform.python_version()}")
        print(f"A {pages}-page resume ({args.language}, Horizon template), {args.runs} interleaved runs of each "
              "after 2 warm-ups")
        if pages != 2:
            print(f"  (expected two pages, got {pages}: the comparison still holds, but check TWO_PAGES)")
        for _ in range(2):
            api("pdf"), bare_pdf(), api("docx"), direct_docx()
        samples: dict[str, list[float]] = {"api pdf": [], "bare pdf": [], "api docx": [], "direct docx": []}
        for _ in range(args.runs):
            samples["api pdf"].append(timed(lambda: api("pdf")))
            samples["bare pdf"].append(timed(bare_pdf))
            samples["api docx"].append(timed(lambda: api("docx")))
            samples["direct docx"].append(timed(direct_docx))
        median = {name: statistics.median(values) for name, values in samples.items()}

        rows = (("PDF", "api pdf", "bare pdf", "bare xhtml2pdf of the same HTML"),
                ("DOCX", "api docx", "direct docx", "the DOCX renderer called directly"))
        for label, measured, baseline, baseline_label in rows:
            ratio = median[measured] / median[baseline]
            print(f"\n{label}")
            print(f"  export through the API (job + storage)   median {median[measured] * 1000:8.1f} ms")
            print(f"  {baseline_label:<39} median {median[baseline] * 1000:8.1f} ms")
            print(f"  ratio {ratio:.2f}   goal ≤ {GOAL}: {'met' if ratio <= GOAL else 'not met'}")
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
