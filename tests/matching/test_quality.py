"""Quality of the analysis engine, measured on (resume, fitting job, unrelated job) triples across
professions, in English and Chinese: the fitting job must score higher in at least 90 % of them;
and naming a missing keyword in the resume must raise keywordMatchScore."""
from __future__ import annotations

from app.matching.engine import analyse

# profession: (resume: position, summary, lines, skills, degree), job description
EN = {
    "backend engineer": (
        ("Backend Engineer", "Backend engineer building reliable Python services and REST APIs.",
         ["Built REST APIs in Python and Flask serving 2 million requests a day",
          "Migrated the billing database to PostgreSQL with zero downtime",
          "Deployed services on Kubernetes with CI pipelines"],
         ["Python", "Flask", "PostgreSQL", "Docker", "Kubernetes", "Redis"], "BSc Computer Science"),
        "We are hiring a backend engineer to design and build REST APIs in Python. You will work with "
        "Postgres, Redis and Kubernetes, write unit tests and review code. Experience with distributed systems "
        "and CI/CD is a plus."),
    "frontend engineer": (
        ("Frontend Developer", "Frontend developer crafting accessible web interfaces in React and TypeScript.",
         ["Rebuilt the checkout in React and TypeScript, raising conversion by 12%",
          "Created a component library used by 5 teams", "Improved page load time by 40% with code splitting"],
         ["JavaScript", "TypeScript", "React", "CSS", "Webpack", "Jest"], "BSc Software Engineering"),
        "Frontend engineer wanted: build responsive user interfaces with React and TypeScript, write JS unit "
        "tests with Jest, care about accessibility, CSS and web performance."),
    "registered nurse": (
        ("Registered Nurse", "Registered nurse with six years of intensive care experience.",
         ["Provided patient care for 6 ICU patients per shift", "Administered medications and IV therapy",
          "Trained 10 new nurses on electronic health records"],
         ["Patient care", "ICU", "Medication administration", "IV therapy", "EHR", "BLS"], "BSc Nursing"),
        "Hospital seeks a registered nurse (RN) for its intensive care unit. Responsibilities: patient care, "
        "medication administration, monitoring vital signs, documenting in electronic health records. BLS "
        "certification required."),
    "accountant": (
        ("Senior Accountant", "Accountant experienced in financial reporting, audits and tax.",
         ["Prepared monthly financial statements under GAAP", "Reconciled the general ledger and accounts payable",
          "Led the annual audit and cut closing time by 3 days"],
         ["GAAP", "Financial reporting", "General ledger", "Excel", "QuickBooks", "Tax preparation"],
         "BA Accounting"),
        "We need an accountant to prepare financial statements, reconcile accounts payable and accounts "
        "receivable, maintain the general ledger, support audits and tax filings. CPA and advanced Excel "
        "preferred."),
    "teacher": (
        ("Mathematics Teacher", "Secondary school teacher who makes mathematics engaging.",
         ["Taught algebra and geometry to 120 students a year", "Designed lesson plans aligned with the curriculum",
          "Raised exam pass rates by 15%"],
         ["Lesson planning", "Classroom management", "Curriculum development", "Assessment", "Mathematics"],
         "MA Education"),
        "Secondary school seeks a mathematics teacher. You will plan lessons, deliver the curriculum, manage the "
        "classroom, assess students and communicate with parents. Teaching certificate required."),
    "designer": (
        ("Product Designer", "Product designer focused on user experience and visual design.",
         ["Designed the mobile app onboarding, improving retention by 20%",
          "Ran user research interviews with 30 customers", "Built a design system in Figma"],
         ["Figma", "User research", "Prototyping", "Visual design", "UX", "Design systems"], "BA Graphic Design"),
        "Looking for a product designer with strong UX skills: user research, wireframes, prototyping in Figma, "
        "visual design and maintaining a design system."),
    "sales": (
        ("Account Executive", "B2B sales professional who consistently exceeds quota.",
         ["Closed $1.2M in new business in 2023", "Exceeded quota by 30% for 8 quarters",
          "Managed a pipeline of 60 accounts in Salesforce"],
         ["B2B sales", "Salesforce", "Negotiation", "Lead generation", "CRM", "Cold calling"], "BA Business"),
        "Account executive to grow B2B sales: prospect and generate leads, run demos, negotiate and close deals, "
        "manage your pipeline in Salesforce CRM, meet quarterly quota."),
    "chef": (
        ("Sous Chef", "Sous chef with a passion for seasonal French cuisine.",
         ["Led a kitchen team of 12 cooks", "Developed seasonal menus and cut food cost by 8%",
          "Maintained food safety and HACCP standards"],
         ["Menu development", "Food safety", "HACCP", "Kitchen management", "French cuisine", "Food cost"],
         "Culinary Arts Diploma"),
        "Restaurant seeks a chef to run the kitchen: menu development, supervising cooks, ordering, food cost "
        "control, food safety and HACCP compliance. Fine dining experience preferred."),
    "lawyer": (
        ("Corporate Lawyer", "Corporate lawyer advising on mergers, contracts and compliance.",
         ["Drafted and negotiated commercial contracts", "Led due diligence for 5 acquisitions",
          "Advised the board on regulatory compliance"],
         ["Contract law", "Corporate law", "Due diligence", "M&A", "Legal research", "Compliance"], "JD Law"),
        "Law firm seeks a corporate lawyer for M&A work: draft and negotiate contracts, conduct due diligence, "
        "legal research, advise clients on corporate law and compliance."),
    "data analyst": (
        ("Data Analyst", "Data analyst turning data into decisions with SQL and Python.",
         ["Built Tableau dashboards used by 50 managers", "Automated weekly reports with SQL and Python",
          "Ran A/B tests that lifted sign-ups by 9%"],
         ["SQL", "Python", "Tableau", "Excel", "Statistics", "Data visualization"], "BSc Statistics"),
        "Data analyst to query data with SQL, analyse it in Python or Excel, build dashboards in Tableau or "
        "Power BI, run A/B testing and present insights to stakeholders. Statistics background needed."),
    "hr": (
        ("HR Generalist", "HR generalist handling recruitment, onboarding and employee relations.",
         ["Recruited 45 employees in a year", "Ran onboarding for new hires", "Managed payroll and benefits"],
         ["Recruitment", "Onboarding", "Payroll", "Employee relations", "HRIS", "Labor law"], "BA Psychology"),
        "HR generalist wanted for recruitment, onboarding, payroll and benefits administration, employee relations "
        "and labor law compliance. HRIS experience required."),
    "mechanic": (
        ("Automotive Technician", "Certified automotive technician for diagnostics and repair.",
         ["Diagnosed engine and electrical faults on 8 vehicles a day", "Performed brake and suspension repairs",
          "Kept the shop's tools and records in order"],
         ["Engine diagnostics", "Brakes", "Electrical systems", "ASE certified", "Suspension"],
         "Automotive Technology Certificate"),
        "Auto repair shop needs a technician to diagnose engine and electrical problems, repair brakes and "
        "suspension, perform maintenance. ASE certification a plus."),
    "marketing": (
        ("Digital Marketing Manager", "Digital marketer growing brands through SEO and social media.",
         ["Grew organic traffic by 150% with SEO", "Managed a $500k paid advertising budget",
          "Ran social media campaigns reaching 2 million people"],
         ["SEO", "Google Analytics", "Social media", "Content marketing", "Google Ads", "Email marketing"],
         "BA Marketing"),
        "Digital marketing manager to own SEO, paid search with Google Ads, social media campaigns, content "
        "marketing and email marketing. Google Analytics reporting skills needed."),
    "pharmacist": (
        ("Pharmacist", "Licensed pharmacist dispensing medications and counselling patients.",
         ["Dispensed 300 prescriptions a day", "Counselled patients on drug interactions",
          "Managed pharmacy inventory"],
         ["Dispensing", "Patient counselling", "Drug interactions", "Inventory", "Pharmacology"], "PharmD"),
        "Community pharmacy seeks a licensed pharmacist to dispense prescriptions, counsel patients on medications "
        "and drug interactions, and manage inventory."),
    "electrician": (
        ("Electrician", "Licensed electrician for commercial wiring and maintenance.",
         ["Installed wiring and lighting in 20 commercial buildings", "Troubleshot electrical panels",
          "Followed the national electrical code"],
         ["Wiring", "Electrical panels", "Troubleshooting", "NEC", "Conduit", "Blueprints"],
         "Electrical Apprenticeship"),
        "Licensed electrician to install and repair wiring, conduit and electrical panels in commercial sites; "
        "read blueprints and follow the NEC code."),
    "project manager": (
        ("IT Project Manager", "Project manager delivering software projects on time and on budget.",
         ["Managed 6 projects with budgets up to $2M", "Ran Agile ceremonies for three Scrum teams",
          "Reported risks and status to stakeholders"],
         ["Project management", "Agile", "Scrum", "Jira", "Stakeholder management", "Budgeting", "PMP"],
         "MSc Information Systems"),
        "IT project manager: plan and deliver projects with Agile and Scrum, track work in Jira, manage budgets, "
        "risks and stakeholders. PMP certification preferred."),
    "civil engineer": (
        ("Civil Engineer", "Civil engineer designing roads and drainage.",
         ["Designed 12 km of roads in AutoCAD Civil 3D", "Prepared cost estimates and tender documents",
          "Supervised construction sites for quality"],
         ["AutoCAD", "Civil 3D", "Structural analysis", "Construction supervision", "Cost estimation"],
         "BEng Civil Engineering"),
        "Civil engineer to design roads and drainage in AutoCAD Civil 3D, prepare cost estimates, and supervise "
        "construction for quality and safety."),
    "customer support": (
        ("Customer Support Specialist", "Support specialist resolving customer issues quickly and kindly.",
         ["Resolved 60 tickets a day in Zendesk", "Kept customer satisfaction at 96%",
          "Wrote 40 help centre articles"],
         ["Customer service", "Zendesk", "Troubleshooting", "Communication", "Live chat"], "BA English"),
        "Customer support specialist to answer tickets and live chat in Zendesk, troubleshoot problems, keep "
        "customer satisfaction high and write help articles."),
    "translator": (
        ("Translator", "Translator between English and Spanish for legal and medical texts.",
         ["Translated 1 million words of legal contracts", "Localized medical software",
          "Proofread translations for 3 agencies"],
         ["Translation", "Spanish", "Localization", "Proofreading", "SDL Trados", "Medical terminology"],
         "BA Translation Studies"),
        "Translator English to Spanish for legal and medical documents: translation, proofreading, localization "
        "with SDL Trados."),
    "pilot": (
        ("First Officer", "Airline first officer with 3,000 flight hours on the A320.",
         ["Flew 800 sectors on the Airbus A320", "Completed line checks without remarks",
          "Trained in crew resource management"],
         ["A320", "ATPL", "Crew resource management", "Flight planning", "Safety"], "ATPL Flight School"),
        "Airline hiring A320 first officers with an ATPL, flight planning skills, crew resource management "
        "training and a strong safety record."),
    "photographer": (
        ("Photographer", "Commercial photographer for products and events.",
         ["Shot product photos for 30 e-commerce brands", "Edited images in Lightroom and Photoshop",
          "Covered 50 weddings and corporate events"],
         ["Photography", "Lightroom", "Photoshop", "Studio lighting", "Retouching"], "BA Photography"),
        "Studio seeks a photographer for product and event photography; studio lighting, retouching in "
        "Photoshop and Lightroom."),
    "logistics": (
        ("Logistics Coordinator", "Logistics coordinator keeping supply chains moving.",
         ["Coordinated 200 shipments a month", "Cut freight costs by 11% by renegotiating carriers",
          "Managed warehouse inventory in SAP"],
         ["Supply chain", "Logistics", "SAP", "Inventory management", "Freight", "Customs"], "BA Logistics"),
        "Logistics coordinator to manage shipments and freight carriers, customs paperwork, warehouse inventory "
        "in SAP and supply chain reporting."),
}

ZH = {
    "软件工程师": (
        ("后端开发工程师", "五年后端开发经验，熟悉分布式系统与微服务。",
         ["负责订单系统的微服务架构设计，支撑日均千万级请求", "主导数据库性能优化，查询耗时降低60%",
          "搭建单元测试与代码审查流程"],
         ["Java", "微服务", "分布式系统", "MySQL", "Redis", "性能优化"], "计算机科学学士"),
        "招聘后端开发工程师：负责微服务与分布式系统的设计和开发，熟悉 Java、MySQL、Redis，具备高并发与性能优化经验，"
        "重视单元测试和代码审查。"),
    "护士": (
        ("注册护士", "重症监护病房注册护士，六年临床护理经验。",
         ["负责重症监护病房患者护理，每班照护6名患者", "执行医嘱、静脉输液与用药管理",
          "完成护理记录与健康宣教"],
         ["重症监护", "静脉输液", "生命体征监测", "护理记录", "健康宣教"], "护理学学士"),
        "医院招聘注册护士：负责重症监护病房的患者护理，熟悉静脉输液和生命体征监测，按医嘱用药，做好护理记录与健康宣教。"),
    "会计": (
        ("会计主管", "八年会计与财务工作经验，熟悉会计准则与税务。",
         ["负责编制月度财务报表与总账核对", "主导年度审计配合工作", "完成纳税申报，降低税务风险"],
         ["财务报表", "总账", "审计", "纳税申报", "成本核算", "Excel"], "会计学学士"),
        "招聘会计：负责编制财务报表、总账管理、成本核算、纳税申报，配合年度审计；熟悉会计准则，持注册会计师证书者优先。"),
    "教师": (
        ("初中数学教师", "十年数学教学经验，擅长班级管理与教研。",
         ["负责两个班级的数学教学，平均成绩提升15分", "编写教案并参与教研活动", "开展家校沟通，组织家长会"],
         ["数学教学", "班级管理", "备课", "教研", "家校沟通"], "数学教育学士"),
        "学校招聘初中数学教师：负责数学课程教学、备课与教案编写，做好班级管理，参与教研，重视家校沟通。"),
    "设计师": (
        ("视觉设计师", "专注用户体验与视觉设计的设计师。",
         ["主导品牌视觉设计升级，用户满意度提升20%", "完成App交互设计与原型制作", "建立设计规范并推动落地"],
         ["Figma", "视觉设计", "交互设计", "原型", "设计规范", "用户研究"], "视觉传达设计学士"),
        "招聘视觉设计师：负责产品视觉设计与交互设计，使用 Figma 制作原型，参与用户研究，维护设计规范。"),
    "销售": (
        ("大客户销售经理", "七年大客户销售经验，业绩连续超额完成。",
         ["负责华东区大客户开发，年销售额3000万元", "带领团队完成销售目标120%", "维护客户关系并推动回款"],
         ["大客户销售", "谈判", "客户关系", "渠道", "商务拓展"], "市场营销学士"),
        "招聘大客户销售经理：负责市场开拓与大客户开发，完成销售目标，维护客户关系，负责商务谈判与回款管理。"),
    "厨师": (
        ("粤菜主厨", "十二年粤菜烹饪经验，擅长菜品研发与厨房管理。",
         ["负责厨房团队15人的管理", "研发季节菜单，食材成本降低8%", "执行食品安全标准，连续三年零事故"],
         ["粤菜", "菜品研发", "厨房管理", "食品安全", "成本控制"], "烹饪专业"),
        "餐厅招聘粤菜厨师：负责菜品研发与菜单设计，管理厨房团队，控制食材成本，严格执行食品安全规范。"),
    "律师": (
        ("公司律师", "专注公司法与合同审查的执业律师。",
         ["负责起草并审查商务合同200余份", "主导3起并购项目的尽职调查", "代理合同纠纷诉讼与仲裁案件"],
         ["合同审查", "公司法", "尽职调查", "诉讼", "仲裁", "合规"], "法学硕士"),
        "律师事务所招聘公司律师：负责合同起草与审查、并购尽职调查、法律咨询，处理诉讼与仲裁，熟悉公司法与合规。"),
    "数据分析师": (
        ("数据分析师", "擅长用 SQL 和 Python 做数据分析与可视化。",
         ["搭建销售数据看板，服务50名管理者", "完成用户留存统计分析，推动留存提升9%", "编写自动化报表脚本"],
         ["SQL", "Python", "数据分析", "数据可视化", "统计分析", "Tableau"], "统计学学士"),
        "招聘数据分析师：负责业务数据分析与数据可视化，熟练使用 SQL 和 Python，掌握统计分析方法，会用 Tableau 制作报表。"),
    "物流": (
        ("物流主管", "负责仓储与运输管理的物流主管。",
         ["管理仓库库存与出入库流程", "优化运输路线，运费降低11%", "协调供应商与承运商"],
         ["仓储管理", "运输", "供应链", "库存", "SAP"], "物流管理学士"),
        "招聘物流主管：负责仓储管理、库存控制与运输调度，协调承运商，优化供应链流程，熟悉 SAP 系统。"),
}


def resume(profile: tuple) -> dict:
    position, summary, lines, skills, degree = profile
    return {
        "personalInfo": {"name": "Sam Lee", "email": "sam@example.com", "phone": "+1 555 0100", "summary": summary},
        "workExperience": [{"company": "Acme", "position": position, "startDate": "2019-01", "endDate": "",
                            "description": "\n".join(lines)}],
        "education": [{"school": "State University", "degree": degree, "startDate": "2014-09", "endDate": "2018-06"}],
        "skills": skills,
    }


def triples() -> list[tuple[str, dict, str, str]]:
    """(name, resume, fitting job, unrelated job): each resume against a job of a profession half the
    list away, in the same language."""
    found = []
    for table in (EN, ZH):
        names = list(table)
        for i, name in enumerate(names):
            other = names[(i + len(names) // 2) % len(names)]
            found.append((name, resume(table[name][0]), table[name][1], table[other][1]))
    return found


def test_the_fitting_job_scores_higher_in_at_least_90_percent():
    cases = triples()
    assert len(cases) >= 30 and sum(1 for case in cases if case[0] in ZH) >= 8
    wrong = []
    for name, content, fitting, unrelated in cases:
        fit, other = analyse(content, fitting)["overallScore"], analyse(content, unrelated)["overallScore"]
        if fit <= other:
            wrong.append((name, fit, other))
    share = 1 - len(wrong) / len(cases)
    print(f"\nfitting job scored higher in {share:.0%} of {len(cases)} triples; not in: {wrong}")
    assert share >= 0.9, wrong


def test_adding_a_missing_keyword_raises_the_keyword_match():
    raised = 0
    for name, content, fitting, _ in triples():
        before = analyse(content, fitting)
        if not before["missingKeywords"]:  # the resume has them all already
            continue
        added = {**content, "skills": content["skills"] + [before["missingKeywords"][0]]}
        after = analyse(added, fitting)
        assert after["keywordMatchScore"] > before["keywordMatchScore"], (name, before["missingKeywords"][0])
        raised += 1
    print(f"\nnaming the first missing keyword raised keywordMatchScore in {raised} resumes")
    assert raised >= 25
