"""The words of resumes in the languages people write them in, beyond those the service prints.

``words`` and ``dates`` know the headings, months and "present" of the fourteen languages our templates
print (``app.content.vocabulary``) and the commonest English, Chinese and Spanish ones. People write
resumes in many more, and with more words: "Beruflicher Werdegang", "Parcours professionnel",
"Опыт работы", "職務経歴", "Kinh nghiệm làm việc". These lists are general knowledge of each language,
written from dictionaries and the usual resume vocabulary of each country, not from any one document:
headings by section (compared as ``words.heading_key`` makes them: lower case, no punctuation, joining
words such as "und", "et", "de" dropped), month names and abbreviations, the words for an ongoing
period, "since" and "to", and the words that tell a job title, an employer, a school and a degree.
"""
from __future__ import annotations

HEADINGS: dict[str, tuple[str, ...]] = {
    "summary": (
        "zusammenfassung", "persönliches profil", "profil", "über mich", "kurzprofil", "berufsziel",  # de
        "à propos moi", "présentation", "objectif", "objectif professionnel", "profil professionnel",
        "resumo", "resumo profissional", "objetivo", "objetivos", "sobre mim", "apresentação", "perfil profissional",
        "profilo", "profilo professionale", "sommario", "chi sono", "su me", "obiettivo",  # it
        "profiel", "over mij", "samenvatting",  # nl
        "o mnie", "podsumowanie", "cel zawodowy",  # pl
        "hakkımda", "özet", "kariyer hedefi",  # tr
        "о себе", "обо мне", "профиль", "цель", "краткая информация", "про себе",  # ru, uk
        "職務要約", "自己pr", "自己紹介", "概要", "プロフィール", "自己ｐｒ",  # ja
        "자기소개", "소개", "요약",  # ko
        "自我介紹", "個人簡介", "個人總結",  # zh-Hant
        "tentang saya", "ringkasan", "profil singkat",  # id
        "giới thiệu", "mục tiêu nghề nghiệp", "tóm tắt", "mục tiêu",  # vi
        "نبذة", "الملخص", "نبذة عني", "الهدف", "درباره من", "خلاصه", "על עצמי", "תקציר", "सारांश", "उद्देश्य",
        "o mně", "profil", "σχετικά με εμένα", "προφίλ", "summary of qualifications", "professional summary",
        "executive summary", "summary qualifications", "about myself", "who i am",
    ),
    "contact": (
        "kontaktdaten", "persönliche daten", "persönliche angaben", "angaben zur person", "zur person",
        "informations personnelles", "coordonnées", "dados pessoais", "informações pessoais", "contatos",
        "contatti", "informazioni personali", "dati personali", "contactgegevens", "persoonlijke gegevens",
        "personalia", "dane osobowe", "dane kontaktowe", "iletişim", "kişisel bilgiler", "iletişim bilgileri",
        "контакты", "контактная информация", "личная информация", "личные данные", "контактні дані", "контакти",
        "連絡先", "基本情報", "個人情報", "연락처", "인적사항", "인적 사항", "聯絡方式", "個人資料", "基本資料",
        "kontak", "data pribadi", "informasi pribadi", "thông tin cá nhân", "liên hệ", "thông tin liên hệ",
        "معلومات الاتصال", "معلومات شخصية", "البيانات الشخصية", "اطلاعات تماس", "اطلاعات شخصی", "פרטים אישיים",
        "פרטי קשר", "संपर्क", "व्यक्तिगत विवरण", "osobní údaje", "kontaktní údaje", "στοιχεία επικοινωνίας",
        "επικοινωνία", "προσωπικά στοιχεία", "personal data", "personal info", "get in touch", 
    ),
    "workExperience": (
        "berufserfahrung", "arbeitserfahrung", "berufliche erfahrung", "beruflicher werdegang", "werdegang",
        "berufspraxis", "praxiserfahrung", "praktische erfahrung", "erfahrung", "berufliche laufbahn",
        "beruflicher hintergrund", "berufstätigkeit", "tätigkeiten", "beschäftigungen", "praktika", "berufliches",
        "expériences", "expériences professionnelles", "parcours professionnel", "emplois", "stages",
        "expérience professionnelle", "historique professionnel", "carrière",
        "experiências", "experiência profissional", "experiências profissionais", "histórico profissional",
        "atuação profissional", "trajetória profissional", "experiencia", "experiencias",
        "experiencias profesionales", "experiencia laboral", "trayectoria laboral", "empleos",
        "esperienza", "esperienze", "esperienza professionale", "esperienze professionali", "esperienza lavorativa",
        "esperienze lavorative", "werkervaring", "ervaring", "professionele ervaring", "loopbaan", "werkgeschiedenis",
        "doświadczenie", "doświadczenie zawodowe", "przebieg kariery", "przebieg pracy zawodowej",
        "deneyim", "deneyimler", "iş deneyimi", "iş deneyimleri", "iş tecrübesi", "tecrübe", "profesyonel deneyim",
        "опыт работы", "опыт", "профессиональный опыт", "трудовая деятельность", "места работы", "трудовой опыт",
        "досвід роботи", "досвід", "професійний досвід",
        "職歴", "職務経歴", "職務経験", "経歴", "業務経験", "職務経歴詳細", "実務経験", "職務内容",
        "경력", "경력사항", "경력 사항", "업무 경험", "업무경험", "직무 경험",
        "工作經歷", "工作經驗", "工作经历与项目", "实践经历", "实习与工作经历", "任職經歷",
        "pengalaman", "pengalaman kerja", "pengalaman profesional", "riwayat pekerjaan",
        "kinh nghiệm", "kinh nghiệm làm việc", "quá trình làm việc", "kinh nghiệm chuyên môn",
        "الخبرات", "الخبرة", "الخبرة العملية", "الخبرات العملية", "الخبرة المهنية", "الخبرات المهنية",
        "سوابق کاری", "تجربه کاری", "سوابق شغلی", "ניסיון", "ניסיון תעסוקתי", "ניסיון מקצועי",
        "अनुभव", "कार्य अनुभव", "व्यावसायिक अनुभव", "pracovní zkušenosti", "zkušenosti", "praxe",
        "εμπειρία", "επαγγελματική εμπειρία", "εργασιακή εμπειρία",
        "experiences", "work experiences", "professional experiences", "working experience", "work history",
        "employment experience", "industry experience", "professional history", "positions", "positions held",
        "internships", "internship", "internship experience", "experience summary", "research experience",
        "teaching experience", "relevant work experience", "work leadership experience",
    ),
    "education": (
        "bildung", "bildungsweg", "schulbildung", "schulische ausbildung", "akademische ausbildung", "studium",
        "hochschulbildung", "bildungsabschlüsse", "akademischer werdegang", "aus weiterbildung", "schule",
        "schulausbildung", "bildungsgang", "ausbildung studium", "studium ausbildung",
        "formations", "formation académique", "études", "diplômes", "cursus", "parcours académique", "scolarité",
        "éducation", "formation", "diplômes formations",
        "formação acadêmica", "formação académica", "escolaridade", "formação escolar", "educação", "formação",
        "estudios", "formación académica", "educación", "formación", "titulación", "estudios realizados",
        "istruzione", "formazione", "istruzione formazione", "titoli studio", "studi", "percorso formativo",
        "opleiding", "opleidingen", "onderwijs", "studie", "wykształcenie", "edukacja", "eğitim", "eğitim bilgileri",
        "öğrenim", "образование", "высшее образование", "освіта", "学歴", "学歴職歴", "教育", "教育歴",
        "학력", "학력사항", "학력 사항", "교육", "學歷", "教育經歷", "pendidikan", "riwayat pendidikan",
        "học vấn", "trình độ học vấn", "quá trình học tập", "giáo dục", "التعليم", "المؤهلات العلمية",
        "المؤهلات الأكاديمية", "تحصیلات", "سوابق تحصیلی", "השכלה", "शिक्षा", "शैक्षिक योग्यता", "शैक्षणिक योग्यता",
        "vzdělání", "εκπαίδευση", "σπουδές", "educations", "academic", "academics", "academic profile",
        "education and training", "training", "schooling", "degrees", "academic credentials", "studies",
    ),
    "skills": (
        "fähigkeiten", "fertigkeiten", "kompetenzen", "it kenntnisse", "edv kenntnisse", "technische kenntnisse",
        "fachkenntnisse", "qualifikationen", "computerkenntnisse", "fachliche kompetenzen", "schwerpunkte",
        "kenntnisse fähigkeiten", "compétences", "compétences techniques", "savoir faire", "connaissances",
        "compétences informatiques", "outils", "habilidades", "competências", "conhecimentos",
        "conhecimentos técnicos", "habilidades técnicas", "tecnologias", "ferramentas", "competencias técnicas",
        "competenze", "competenze tecniche", "abilità", "conoscenze", "competenze informatiche", "capacità",
        "vaardigheden", "competenties", "kennis", "umiejętności", "kompetencje", "umiejętności techniczne",
        "yetenekler", "beceriler", "yetkinlikler", "teknik beceriler", "teknik yetenekler", "навыки",
        "ключевые навыки", "профессиональные навыки", "технические навыки", "умения", "компетенции", "технологии",
        "навички", "ключові навички", "технічні навички", "スキル", "技術スキル", "保有スキル", "テクニカルスキル",
        "活かせる経験知識技術", "技術", "開発環境", "기술", "보유 기술", "보유기술", "기술 스택", "기술스택", "스킬",
        "專業技能", "技能專長", "技術棧", "keahlian", "keterampilan", "kemampuan", "kỹ năng", "kĩ năng",
        "kỹ năng chuyên môn", "المهارات", "مهارات", "المهارات التقنية", "مهارت ها", "مهارت‌ها", "מיומנויות",
        "כישורים", "कौशल", "तकनीकी कौशल", "dovednosti", "znalosti", "δεξιότητες", "skill", "technical skill",
        "skills summary", "technical proficiencies", "proficiencies", "technical expertise", "areas expertise",
        "tools technologies", "technologies tools", "programming", "programming skills", "computer skills",
        "it skills", "hard skills", "soft skills", "top skills", "abilities", "strengths",
        "technical competencies", "key competencies", "core qualifications", "toolbox",
    ),
    "projects": (
        "projekterfahrung", "projets", "projets personnels", "réalisations", "projetos", "proyectos", "progetti",
        "projecten", "projekty", "projeler", "проекты", "проєкти", "проекти", "プロジェクト", "プロジェクト経験",
        "主なプロジェクト", "프로젝트", "項目經歷", "專案經驗", "專案", "proyek", "dự án", "المشاريع", "پروژه ها",
        "פרויקטים", "परियोजनाएं", "परियोजनाएँ", "projekty", "έργα", "project", "academic projects",
        "technical projects", "notable projects", "projects experience", "research projects",
    ),
    "languages": (
        "sprachkenntnisse", "fremdsprachen", "langues", "langues étrangères", "línguas", "idiomas", "lingue",
        "conoscenze linguistiche", "talen", "języki", "języki obce", "diller", "yabancı diller", "языки",
        "знание языков", "иностранные языки", "владение языками", "мови", "語学", "言語", "語学力", "어학",
        "언어", "외국어", "語言能力", "bahasa", "ngoại ngữ", "ngôn ngữ", "اللغات", "زبان ها", "زبان‌ها", "שפות",
        "भाषाएँ", "भाषाएं", "jazyky", "γλώσσες", "spoken languages", "language proficiency",
    ),
    "certificates": (
        "zertifizierungen", "weiterbildungen", "weiterbildung", "bescheinigungen", "certifications", "certificats",
        "certificações", "certificados", "cursos", "certificazioni", "certificati", "certificaten", "certificeringen",
        "certyfikaty", "sertifikalar", "сертификаты", "курсы", "сертифікати", "資格", "免許資格", "資格免許",
        "保有資格", "자격증", "자격", "證照", "證書", "sertifikat", "sertifikasi", "chứng chỉ", "الشهادات",
        "گواهینامه ها", "תעודות", "प्रमाणपत्र", "certifikáty", "πιστοποιήσεις", "courses", "licenses",
        "courses certifications", "certifications courses", "trainings", "professional development",
    ),
    "awards": (
        "preise", "prix", "récompenses", "conquistas", "premi", "riconoscimenti", "prijzen", "nagrody", "ödüller",
        "награды", "достижения", "нагороди", "受賞歴", "表彰", "受賞", "수상", "수상 경력", "수상경력", "獲獎",
        "榮譽", "penghargaan", "giải thưởng", "thành tích", "الجوائز", "جوایز", "פרסים", "पुरस्कार", "ocenění",
        "βραβεία", "honors awards", "accomplishments", "scholarships",
    ),
    "volunteer": (
        "ehrenamtliches engagement", "engagement", "ehrenamtliche tätigkeiten", "engagement associatif",
        "vie associative", "trabalho voluntário", "volontariato", "vrijwilligerswerk", "wolontariat", "gönüllülük",
        "волонтерство", "волонтёрство", "ボランティア", "봉사활동", "봉사 활동", "志願服務", "relawan",
        "hoạt động", "hoạt động tình nguyện", "التطوع", "התנדבות", "स्वयंसेवा", "dobrovolnictví", "εθελοντισμός",
        "leadership", "activities", "extracurricular activities", "leadership activities",
    ),
    "publications": (
        "publikationen", "publications", "pubblicazioni", "publicaties", "publikacje", "yayınlar", "публикации",
        "публікації", "論文", "研究業績", "業績", "논문", "著作", "publikasi", "công bố", "المنشورات", "פרסומים",
        "प्रकाशन", "publikace", "δημοσιεύσεις",
    ),
    "interests": (
        "hobbys", "hobbies", "freizeit", "freizeitaktivitäten", "loisirs", "centres intérêt", "intérêts",
        "passions", "interesses", "hobby", "interessi", "interesses", "zainteresowania", "ilgi alanları", "hobiler",
        "интересы", "хобби", "увлечения", "захоплення", "趣味", "興味", "취미", "관심사", "興趣", "minat", "hobi",
        "sở thích", "الاهتمامات", "الهوايات", "علایق", "תחביבים", "रुचियाँ", "zájmy", "ενδιαφέροντα",
    ),
    "references": (
        "referenzen", "références", "referências", "referenze", "referenties", "referencje", "referanslar",
        "рекомендации", "рекомендації", "推薦人", "referensi", "người tham chiếu", "المراجع", "معرفین", "ממליצים",
        "संदर्भ", "reference", "συστάσεις",
    ),
}

# The last part of a compound heading ("Arbeitserfahrung", "Schulausbildung", "IT-Kenntnisse"): German
# writes its headings as one word, so a heading ending with one of these names its section.
COMPOUND_ENDINGS = {"erfahrung": "workExperience", "erfahrungen": "workExperience", "werdegang": "workExperience",
                    "ausbildung": "education", "bildung": "education", "kenntnisse": "skills",
                    "fähigkeiten": "skills", "kompetenzen": "skills", "sprachen": "languages",
                    "sprachkenntnisse": "languages", "projekte": "projects", "zertifikate": "certificates",
                    # Dutch compounds: "Studentenervaringen", "ICT-vaardigheden"
                    "ervaring": "workExperience", "ervaringen": "workExperience", "vaardigheden": "skills"}

MONTHS: dict[str, int] = {}
for _names in (
        "januar februar märz april mai juni juli august september oktober november dezember",  # de
        "jan feb mär apr mai jun jul aug sep okt nov dez",
        "jänner februar maerz april mai juni juli august sept oktober november dezember",
        "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",  # fr
        "janv févr mars avr mai juin juil août sept oct nov déc",
        "janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre",
        "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro",  # pt
        "jan fev mar abr mai jun jul ago set out nov dez",
        "janeiro fevereiro marco abril maio junho julho agosto setembro outubro novembro dezembro",
        "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre",  # it
        "gen feb mar apr mag giu lug ago set ott nov dic",
        "januari februari maart april mei juni juli augustus september oktober november december",  # nl
        "jan feb mrt apr mei jun jul aug sep okt nov dec",
        "styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień",  # pl
        "stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia",
        "sty lut mar kwi maj cze lip sie wrz paź lis gru",
        "ocak şubat mart nisan mayıs haziran temmuz ağustos eylül ekim kasım aralık",  # tr
        "январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь",  # ru
        "января февраля марта апреля мая июня июля августа сентября октября ноября декабря",
        "янв фев мар апр май июн июл авг сен окт ноя дек",
        "січень лютий березень квітень травень червень липень серпень вересень жовтень листопад грудень",  # uk
        "січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня",
        "januari februari maret april mei juni juli agustus september oktober november desember",  # id
        "leden únor březen duben květen červen červenec srpen září říjen listopad prosinec",  # cs
        "január február marec apríl máj jún júl august september október november december",  # sk
        "ιανουάριος φεβρουάριος μάρτιος απρίλιος μάιος ιούνιος ιούλιος αύγουστος σεπτέμβριος οκτώβριος "
        "νοέμβριος δεκέμβριος",  # el
        "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre",  # es
        "ene feb mar abr may jun jul ago sep oct nov dic"):
    for _number, _name in enumerate(_names.split(), start=1):
        MONTHS.setdefault(_name, _number)
MONTHS.update({"sept": 9, "sen": 9, "сент": 9, "févr": 2, "fév": 2, "juil": 7, "déc": 12, "dic": 12, "set": 9,
               "okt": 10})

# An ongoing period's end, in lower case: "seit 03/2020 – heute", "2019 – presente", "2018 – н.в.".
PRESENT = ("heute", "bis heute", "aktuell", "derzeit", "laufend", "jetzt", "gegenwärtig", "dato", "bis dato",
           "aujourd'hui", "aujourd’hui", "actuel", "actuellement", "en cours", "présent", "maintenant",
           "atual", "atualmente", "presente", "hoje", "o momento", "momento", "actualmente", "la fecha", "fecha",
           "attuale", "oggi", "in corso", "heden", "nu", "huidig", "obecnie", "teraz", "nadal",
           "н.в.", "н. в.", "н.в", "настоящее время", "по настоящее время", "наст. время", "сейчас", "теперь",
           "тепер", "теперішній час", "дотепер", "günümüz", "halen", "devam ediyor", "şimdi", "hâlâ",
           "sekarang", "saat ini", "hiện tại", "nay", "hiện nay", "現在", "現職", "至今", "现在", "在職中", "在籍中",
           "현재", "재직중", "재직 중", "till date", "to date", "till now", "current", "currently",
           "present day", "ongoing", "now", "today", "nyní", "současnost", "doteraz", "súčasnosť", "σήμερα", "الآن",
           "حتى الآن", "היום",
           "اکنون", "अब तक")

# Words before a start with no end: "seit 2019", "depuis 2020", "desde 2018", "с 2017 г.", "od 2021".
SINCE = ("since", "from", "seit", "ab", "depuis", "desde", "dal", "dall'", "sinds", "vanaf", "od", "с", "з",
         "itibaren", "sejak", "từ", "自", "从", "起")

# Between a period's start and end: "2019 bis 2021", "de 2019 à 2021", "2018 até 2020".
TO = ("bis", "à", "au", "até", "al", "hasta", "a", "fino a", "al", "tot", "do", "по", "до", "sampai", "hingga",
      "đến", "–", "to", "until", "till", "through", "thru", "~", "～", "〜", "から", "까지", "ー")

POSITION_WORDS = (
    # de
    "werkstudent", "werkstudentin", "praktikantin", "entwicklerin", "ingenieurin", "leiterin", "berater",
    "beraterin", "mitarbeiter", "mitarbeiterin", "wissenschaftlicher", "wissenschaftliche", "softwareentwickler",
    "softwareentwicklerin", "softwareingenieur", "projektleiter", "projektleiterin", "teamleiter", "teamleiterin",
    "geschäftsführer", "geschäftsführerin", "auszubildender", "auszubildende", "hilfskraft", "referent",
    "referentin", "sachbearbeiter", "sachbearbeiterin", "administrator", "architekt", "informatiker",
    "fachinformatiker", "trainee", "abteilungsleiter", "doktorand", "doktorandin", "tutor", "tutorin",
    "entwickler", "ingenieur", "praktikant", "leiter", "programmierer", "programmiererin", "helfer", "helferin",
    "techniker", "technikerin", "assistent", "assistentin", "kaufmann", "kauffrau", "hiwi", "dozent", "lehrer",
    # fr
    "développeuse", "ingénieure", "stagiaire", "chef de projet", "responsable", "consultante", "analyste",
    "directeur", "directrice", "alternant", "alternante", "chargé", "chargée", "technicien", "technicienne",
    "enseignant", "chercheur", "chercheuse", "doctorant", "doctorante", "concepteur", "conceptrice", "assistant",
    # pt
    "desenvolvedora", "engenheira", "estagiária", "analista", "gerente", "coordenador", "coordenadora",
    "consultor", "técnico", "professor", "pesquisador", "pesquisadora", "programador", "diretor", "bolsista",
    # it
    "sviluppatore", "sviluppatrice", "ingegnere", "tirocinante", "stagista", "responsabile", "consulente",
    "ricercatore", "ricercatrice", "programmatore", "direttore", "docente",
    # nl, pl, tr, id, vi
    "ontwikkelaar", "stagiair", "medewerker", "adviseur", "beheerder", "programista", "inżynier", "kierownik",
    "specjalista", "stażysta", "praktykant", "mühendis", "mühendisi", "geliştirici", "uzman", "stajyer",
    "yönetici", "müdür", "pengembang", "insinyur", "magang", "manajer", "kỹ sư", "lập trình viên",
    "thực tập sinh", "nhân viên", "trưởng nhóm", "quản lý",
    # ru, uk
    "ведущий", "старший", "младший", "специалист", "стажёр", "преподаватель", "инженер-программист",
    "разработчица", "руководитель", "программістка", "розробник", "інженер", "програміст", "керівник", "аналітик",
    # ja, ko
    "リーダー", "マネージャー", "プログラマー", "インターン", "アルバイト", "主任", "課長", "部長", "社員",
    "研究員", "인턴", "팀장", "연구원", "사원", "대리", "과장",
)
COMPANY_WORDS = ("gmbh", "ag", "kg", "mbh", "e.v", "gbr", "e.k", "ohg", "ug", "sarl", "sas", "s.a.s", "srl", "s.r.l",
                 "spa", "s.p.a", "bv", "b.v", "nv", "ltda", "s.a", "eireli", "oy", "aps", "kft",
                 "z.o.o", "a.s", "s.r.o", "ооо", "ао", "пао", "зао", "ип", "тов", "tbk", "jsc",
                 "co.,ltd", "k.k", "firma", "unternehmen", "konzern", "entreprise", "société", "groupe", "empresa",
                 "azienda", "bedrijf", "şirketi", "a.ş", "holding", "bank", "sparkasse", "versicherung", "stadt",
                 "stadtwerke", "werke", "klinikum", "krankenhaus", "landesamt", "bundesamt", "verwaltung",
                 "startup", "start-up", "agentur", "agence", "agência", "agenzia", "studio")
SCHOOL_WORDS = ("gymnasium", "realschule", "gesamtschule", "berufsschule", "fachhochschule", "akademie",
                "fachschule", "berufskolleg", "lycée", "collège", "iut", "insa", "faculté", "escola", "faculdade",
                "colégio", "liceo", "istituto", "università", "politecnico", "scuola", "hogeschool", "universiteit",
                "uniwersytet", "politechnika", "szkoła", "akademia", "üniversitesi", "üniversite", "lisesi", "okulu",
                "школа", "гимназия", "лицей", "вуз", "университет", "університет", "інститут", "училище",
                "техникум", "高校", "高等学校", "大学院", "専門学校", "고등학교", "대학원", "universitas", "institut",
                "sekolah", "politeknik", "trường", "đại học", "học viện", "cao đẳng", "vysoká", "univerzita",
                "πανεπιστήμιο", "tu", "eth", "epfl", "bootcamp", "gimnazjum", "technikum")
DEGREE_WORDS = ("abitur", "fachabitur", "bachelorarbeit", "masterarbeit", "diplom", "diplom-ingenieur",
                "dipl.-ing", "promotion", "realschulabschluss", "mittlere reife", "ausbildung", "magister",
                "staatsexamen", "b.eng", "m.eng", "b.sc", "m.sc", "b.a", "m.a", "baccalauréat", "bac", "licence",
                "master", "mastère", "doctorat", "bts", "dut", "ingénieur", "bacharel", "licenciatura",
                "tecnólogo", "técnico", "pós-graduação", "especialização", "mba", "laurea", "laurea magistrale",
                "laurea triennale", "dottorato", "diploma", "maturità", "bachelor", "hbo", "mbo", "havo", "vwo",
                "licencjat", "inżynier", "doktor", "lisans", "yüksek lisans", "ön lisans", "doktora",
                "бакалавриат", "магистратура", "специалист", "аспирантура", "кандидат", "диплом", "бакалаврат",
                "магістр", "学士", "修士", "博士", "卒業", "学部", "学科", "専攻", "研究科", "전공", "학위", "졸업",
                "sarjana", "cử nhân", "kỹ sư", "thạc sĩ", "tiến sĩ", "mgr",
                "πτυχίο", "μεταπτυχιακό")
# A German role is often a compound ending in one ("Entwicklungsingenieur", "Mitgliederwerber").
POSITION_ENDINGS = ("ingenieur", "ingenieurin", "entwickler", "entwicklerin", "leiter", "leiterin", "berater",
                    "beraterin", "mitarbeiter", "mitarbeiterin", "techniker", "referent", "assistent",
                    "programmierer", "werber", "manager", "kaufmann", "kauffrau", "helfer", "lehrer", "informatiker")
