"""Mails come in their recipient's language (preferences.language), whatever the request's language."""
from tests.support import PASSWORD, html_part, link_token, text_part

from app.users.models import User


def set_language(query, email: str, language: str) -> None:
    def update(session):
        user = session.query(User).filter_by(email=email).one()
        user.preferences = {**(user.preferences or {}), "language": language}
        session.commit()

    query(update)


def signed_in_client(app, user):
    client = app.test_client()
    response = client.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    assert response.status_code == 200, response.get_json()
    return client


def test_a_chinese_user_gets_the_verification_mail_in_chinese(client, mailbox, query):
    body = {"email": "ada@example.com", "password": PASSWORD, "name": "Ada Lovelace"}
    assert client.post("/api/register", json=body).status_code == 201
    first = mailbox.wait_for("ada@example.com")
    assert first["Subject"] == "Verify your email address"
    assert "Please confirm your email address" in text_part(first)

    set_language(query, "ada@example.com", "zh-cn")
    assert client.post("/api/resend-verification", json={"email": "ada@example.com"}).status_code == 200
    mail = mailbox.wait_for("ada@example.com", count=2)

    assert mail["Subject"] == "验证您的邮箱地址"
    text, html = text_part(mail), html_part(mail)
    assert "Ada Lovelace，您好：" in text and "请打开以下链接" in text and "24 小时后失效" in text
    assert "验证我的邮箱" in html and "简历服务" in html and 'lang="zh-cn"' in html
    assert "Please confirm" not in text + html and "Hello" not in text + html
    token = link_token(mail, "http://localhost:5000/verify-email")
    assert client.post("/api/verify-email", json={"token": token}).status_code == 200


def test_a_chinese_user_gets_the_reset_mail_in_chinese_even_from_an_english_browser(app, client, mailbox, make_user):
    user = make_user()
    account = signed_in_client(app, user)
    assert account.put("/api/account", json={"preferences": {"language": "zh-cn"}}).status_code == 200

    client.post("/api/forgot-password", json={"email": user["email"]}, headers={"Accept-Language": "en-US"})
    mail = mailbox.wait_for(user["email"])

    assert mail["Subject"] == "重置您的密码"
    text, html = text_part(mail), html_part(mail)
    assert "Ada Lovelace，您好：" in text and "请求重置您的简历服务账户密码" in text and "分钟后失效" in text
    assert "设置新密码" in html and "或打开此地址：" in html
    assert "password" not in text.replace("reset-password", "").lower()
    link_token(mail, "http://localhost:5000/reset-password")


def test_an_english_user_gets_english_mails_even_from_a_chinese_browser(app, client, mailbox, make_user):
    user = make_user()
    account = signed_in_client(app, user)
    assert account.put("/api/account", json={"preferences": {"language": "en"}}).status_code == 200

    client.post("/api/forgot-password", json={"email": user["email"]}, headers={"Accept-Language": "zh-CN"})
    mail = mailbox.wait_for(user["email"])

    assert mail["Subject"] == "Reset your password"
    text, html = text_part(mail), html_part(mail)
    assert "Hello Ada Lovelace," in text and "Choose a new password here:" in text
    assert "Choose a new password" in html and 'lang="en"' in html
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in text + html + mail["Subject"])


def test_signing_up_from_a_chinese_browser_starts_the_account_and_its_first_mail_in_chinese(app, client, mailbox):
    body = {"email": "lin@example.com", "password": PASSWORD, "name": "Lin"}
    headers = {"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"}
    assert client.post("/api/register", json=body, headers=headers).status_code == 201
    mail = mailbox.wait_for("lin@example.com")
    assert mail["Subject"] == "验证您的邮箱地址"
    assert "请打开以下链接" in text_part(mail)
    token = link_token(mail, "http://localhost:5000/verify-email")
    assert client.post("/api/verify-email", json={"token": token}).status_code == 200
    account = signed_in_client(app, {"email": "lin@example.com", "password": PASSWORD})
    assert account.get("/api/account").get_json()["data"]["preferences"]["language"] == "zh-cn"


def test_the_page_form_sign_up_keeps_the_pages_language(client, mailbox):
    form = {"email": "wen@example.com", "password": PASSWORD, "name": "Wen"}
    client.post("/register", data=form, headers={"Accept-Language": "zh-CN", "Origin": "http://localhost:5000"})
    assert mailbox.wait_for("wen@example.com")["Subject"] == "验证您的邮箱地址"
