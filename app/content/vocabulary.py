"""The words a resume's documents print of their own, by language: each section's heading, the small
words ("at", "Present", "Courses"), the months. ``app.documents.words`` prints them; the importer
(``app.importing``) reads them back, so that a resume the service printed in any of its languages
comes back whole.

Each language's headings are the ones its job sites and resume guides use (a Simplified Chinese
resume has 工作经历 and 教育背景, a German one Berufserfahrung and Ausbildung).
"""
from __future__ import annotations

KEYS = ("summary", "workExperience", "education", "skills", "projects", "languages", "certificates",
        "awards", "volunteer", "publications", "interests", "references", "contact")
SMALL_WORDS = ("at", "Present", "Courses", "Technologies", "Stack", "Score")
LABELS = ("Position", "Phone", "Email", "Address", "Website", "Profile")  # a header's labels (Jinghua's)


def _table(headings: str, words: str) -> tuple[dict[str, str], dict[str, str]]:
    return dict(zip(KEYS, headings.split("|"), strict=True)), dict(zip(SMALL_WORDS, words.split("|"), strict=True))


HEADINGS, WORDS = {}, {}
for _language, _headings, _words in (
    ("en", "Profile|Experience|Education|Skills|Projects|Languages|Certificates|Awards|Volunteering|"
           "Publications|Interests|References|Contact", " at |Present|Courses|Technologies|Stack|Score"),
    ("zh-Hans", "个人简介|工作经历|教育背景|专业技能|项目经历|语言能力|证书|荣誉奖项|志愿经历|出版物|兴趣爱好|推荐人|联系方式",
     " · |至今|主修课程|技术栈|技术栈|成绩"),
    ("zh-Hant", "個人簡介|工作經歷|教育背景|專業技能|專案經歷|語言能力|證照|榮譽獎項|志工經歷|出版著作|興趣|推薦人|聯絡方式",
     " · |至今|主修課程|技術|技術|成績"),
    ("ja", "概要|職務経歴|学歴|スキル|プロジェクト|語学|資格|受賞歴|ボランティア活動|著作・論文|趣味・関心|推薦者|連絡先",
     "・|現在|履修科目|使用技術|使用技術|成績"),
    ("ko", "자기소개|경력|학력|기술|프로젝트|어학|자격증|수상 경력|봉사 활동|출판물|관심 분야|추천인|연락처",
     " · |현재|수강 과목|기술 스택|기술 스택|학점"),
    ("es", "Perfil|Experiencia|Educación|Habilidades|Proyectos|Idiomas|Certificaciones|Premios|Voluntariado|"
           "Publicaciones|Intereses|Referencias|Contacto", " en |Actualidad|Cursos|Tecnologías|Tecnologías|Nota"),
    ("fr", "Profil|Expérience professionnelle|Formation|Compétences|Projets|Langues|Certifications|Distinctions|"
           "Bénévolat|Publications|Centres d’intérêt|Références|Contact",
     " chez |Aujourd’hui|Cours|Technologies|Technologies|Mention"),
    ("de", "Profil|Berufserfahrung|Ausbildung|Kenntnisse|Projekte|Sprachen|Zertifikate|Auszeichnungen|Ehrenamt|"
           "Veröffentlichungen|Interessen|Referenzen|Kontakt", " bei |heute|Kurse|Technologien|Technologien|Note"),
    ("pt", "Perfil|Experiência profissional|Formação|Competências|Projetos|Idiomas|Certificações|Prêmios|"
           "Voluntariado|Publicações|Interesses|Referências|Contato",
     " em |Atual|Disciplinas|Tecnologias|Tecnologias|Nota"),
    ("ru", "О себе|Опыт работы|Образование|Навыки|Проекты|Языки|Сертификаты|Награды|Волонтёрство|Публикации|"
           "Интересы|Рекомендации|Контакты", ", |настоящее время|Курсы|Технологии|Технологии|Средний балл"),
    ("ar", "نبذة|الخبرة العملية|التعليم|المهارات|المشاريع|اللغات|الشهادات|الجوائز|العمل التطوعي|"
           "المنشورات|الاهتمامات|المراجع|التواصل", " في |حتى الآن|المقررات|التقنيات|التقنيات|المعدل"),
    ("hi", "सारांश|कार्य अनुभव|शिक्षा|कौशल|परियोजनाएँ|भाषाएँ|प्रमाणपत्र|पुरस्कार|स्वयंसेवा|प्रकाशन|रुचियाँ|"
           "संदर्भ|संपर्क",
     ", |वर्तमान|पाठ्यक्रम|तकनीकें|तकनीकें|अंक"),
    ("he", "תקציר|ניסיון תעסוקתי|השכלה|כישורים|פרויקטים|שפות|תעודות|פרסים|התנדבות|פרסומים|תחומי עניין|ממליצים|"
           "פרטי קשר", " ב־|היום|קורסים|טכנולוגיות|טכנולוגיות|ציון"),
    ("th", "ประวัติโดยย่อ|ประสบการณ์ทำงาน|ประวัติการศึกษา|ทักษะ|ผลงาน|ภาษา|ใบรับรอง|รางวัล|งานอาสาสมัคร|"
           "ผลงานตีพิมพ์|ความสนใจ|บุคคลอ้างอิง|ข้อมูลติดต่อ", " ที่ |ปัจจุบัน|รายวิชา|เทคโนโลยี|เทคโนโลยี|เกรดเฉลี่ย"),
):
    HEADINGS[_language], WORDS[_language] = _table(_headings, _words)

# The labels a header prints before each detail, by language ("Phone", "电话" ...): the words job sites
# and resume guides of the language use.
for _language, _labels in (
    ("en", "Position|Phone|Email|Address|Website|Profile"),
    ("zh-Hans", "求职意向|电话|邮箱|地址|主页|主页"),
    ("zh-Hant", "求職意向|電話|電子郵件|地址|個人網站|個人網站"),
    ("ja", "希望職種|電話|メール|住所|ウェブサイト|プロフィール"),
    ("ko", "희망 직무|전화|이메일|주소|웹사이트|프로필"),
    ("es", "Puesto|Teléfono|Correo|Dirección|Sitio web|Perfil"),
    ("fr", "Poste|Téléphone|E-mail|Adresse|Site web|Profil"),
    ("de", "Position|Telefon|E-Mail|Adresse|Website|Profil"),
    ("pt", "Cargo|Telefone|E-mail|Endereço|Site|Perfil"),
    ("ru", "Должность|Телефон|Эл. почта|Адрес|Сайт|Профиль"),
    ("ar", "المسمى الوظيفي|الهاتف|البريد الإلكتروني|العنوان|الموقع الإلكتروني|الملف الشخصي"),
    ("hi", "पद|फ़ोन|ईमेल|पता|वेबसाइट|प्रोफ़ाइल"),
    ("he", "תפקיד|טלפון|דוא״ל|כתובת|אתר|פרופיל"),
    ("th", "ตำแหน่ง|โทรศัพท์|อีเมล|ที่อยู่|เว็บไซต์|โปรไฟล์"),
):
    WORDS[_language].update(zip(LABELS, _labels.split("|"), strict=True))

MONTHS = {
    "en": "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec",
    "es": "ene feb mar abr may jun jul ago sept oct nov dic",
    "fr": "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.",
    "de": "Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez.",
    "pt": "jan fev mar abr mai jun jul ago set out nov dez",
    "ru": "янв. февр. март апр. май июнь июль авг. сент. окт. нояб. дек.",
    "ar": "يناير فبراير مارس أبريل مايو يونيو يوليو أغسطس سبتمبر أكتوبر نوفمبر ديسمبر",
    "hi": "जन॰ फ़र॰ मार्च अप्रैल मई जून जुल॰ अग॰ सित॰ अक्तू॰ नव॰ दिस॰",
    "he": "ינו׳ פבר׳ מרץ אפר׳ מאי יוני יולי אוג׳ ספט׳ אוק׳ נוב׳ דצמ׳",
    "th": "ม.ค. ก.พ. มี.ค. เม.ย. พ.ค. มิ.ย. ก.ค. ส.ค. ก.ย. ต.ค. พ.ย. ธ.ค.",  # years in the Common Era
}
NUMERIC_MONTHS = {"zh-Hans": "{y}年{m}月", "zh-Hant": "{y}年{m}月", "ja": "{y}年{m}月", "ko": "{y}년 {m}월"}
