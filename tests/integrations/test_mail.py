"""The mail adapters: SMTP against real aiosmtpd servers on loopback, and the log adapter.

The TLS servers use a certificate authority made for the test run; the client
trusts it through ``SSL_CERT_FILE``, as an operator would point it at theirs.
"""
import logging
import smtplib
import ssl
import time
from datetime import datetime, timedelta, timezone
from ipaddress import IPv4Address
from types import SimpleNamespace

import pytest
from aiosmtpd.smtp import AuthResult
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from flask import Flask
from rq.job import Job, JobStatus
from rq.registry import ScheduledJobRegistry

from app.config import config_for
from app.extensions import db
from app.integrations import mail
from app.queue import MAIL, enqueue_after_commit
from tests.support import PASSWORD, Mailbox, free_port, html_part, start_smtp_server, text_part, wait_until

SENDER = "Resume Service <no-reply@example.com>"
USERNAME, SMTP_PASSWORD = "mailer", "s3cret-smtp-password"

A_MAIL = mail.Mail(to="zhang.wei@example.com", subject="Verify your email address · 验证邮箱",
                   text="Hello 张伟,\n\nhttp://localhost:5000/verify-email?token=abc\n",
                   html="<p>Hello 张伟,</p><p><a href=\"http://localhost:5000/verify-email?token=abc\">Verify</a></p>\n")


# Servers -------------------------------------------------------------------

class RecordingMailbox(Mailbox):
    """A mailbox that also notes, for each mail, whether it came over TLS and who logged in."""

    def __init__(self):
        super().__init__()
        self.sessions: list[SimpleNamespace] = []

    async def handle_DATA(self, server, session, envelope):
        self.sessions.append(SimpleNamespace(
            tls=server.transport.get_extra_info("ssl_object") is not None,
            login=session.auth_data.login.decode() if session.authenticated else None))
        return await super().handle_DATA(server, session, envelope)


class Accounts:
    """An aiosmtpd authenticator that knows one user and notes the mechanisms used."""

    def __init__(self):
        self.mechanisms: list[str] = []

    def __call__(self, server, session, envelope, mechanism, auth_data):
        self.mechanisms.append(mechanism)
        ok = auth_data.login == USERNAME.encode() and auth_data.password == SMTP_PASSWORD.encode()
        return AuthResult(success=ok, handled=False, auth_data=auth_data)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    """A throw-away CA, and a certificate for 127.0.0.1 and localhost signed by it."""
    directory = tmp_path_factory.mktemp("tls")
    now = datetime.now(timezone.utc)

    def name(common_name):
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])

    def builder(subject, issuer, public_key):
        return (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(public_key)
                .serial_number(x509.random_serial_number())
                .not_valid_before(now - timedelta(minutes=5)).not_valid_after(now + timedelta(days=1)))

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_cert = (builder(name("Test mail CA"), name("Test mail CA"), ca_key.public_key())
               .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                            content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False,
                                            encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()), critical=False)
               .sign(ca_key, hashes.SHA256()))
    server_key = ec.generate_private_key(ec.SECP256R1())
    server_cert = (builder(name("127.0.0.1"), ca_cert.subject, server_key.public_key())
                   .add_extension(x509.SubjectAlternativeName([x509.IPAddress(IPv4Address("127.0.0.1")),
                                                               x509.DNSName("localhost")]), critical=False)
                   .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                   .add_extension(x509.ExtendedKeyUsage([x509.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
                   .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()),
                                  critical=False)
                   .sign(ca_key, hashes.SHA256()))

    paths = SimpleNamespace(ca=directory / "ca.pem", cert=directory / "server.pem", key=directory / "server.key")
    paths.ca.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    paths.cert.write_bytes(server_cert.public_bytes(serialization.Encoding.PEM))
    paths.key.write_bytes(server_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                   serialization.NoEncryption()))
    return paths


@pytest.fixture
def trust_test_ca(certificates, monkeypatch):
    monkeypatch.setenv("SSL_CERT_FILE", str(certificates.ca))


def server_tls_context(certificates) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificates.cert, certificates.key)
    return context


@pytest.fixture
def smtp_server():
    """``smtp_server(**aiosmtpd options)`` → (mailbox, authenticator, port); stopped after the test."""
    controllers = []

    def start(**options):
        mailbox, accounts = RecordingMailbox(), Accounts()
        controller = start_smtp_server(mailbox, authenticator=accounts, **options)
        controllers.append(controller)
        return mailbox, accounts, controller.port

    yield start
    for controller in controllers:
        controller.stop()


@pytest.fixture
def starttls_server(smtp_server, certificates):
    """STARTTLS required before anything else; AUTH offered only over TLS."""
    return lambda **options: smtp_server(tls_context=server_tls_context(certificates), require_starttls=True,
                                         auth_require_tls=True, **options)


@pytest.fixture
def implicit_tls_server(smtp_server, certificates):
    """TLS from the first byte (SMTPS); the connection is encrypted before AUTH."""
    return lambda **options: smtp_server(ssl_context=server_tls_context(certificates), auth_require_tls=False,
                                         **options)


def mailer_for(**variables):
    """The mailer the app picks from these environment variables."""
    app = Flask(__name__)
    app.config.update(config_for("testing", {"MAIL_DEFAULT_SENDER": SENDER,
                                             **{k: str(v) for k, v in variables.items()}}))
    mail.init_app(app)
    return app.extensions["mailer"]


def assert_received(mailbox, sent: mail.Mail):
    message = mailbox.wait_for(sent.to)
    assert message["From"] == SENDER
    assert message["To"] == sent.to
    assert message["Subject"] == sent.subject
    assert message["Message-ID"]
    assert message.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in message.iter_parts()] == ["text/plain", "text/html"]
    # SMTP carries lines ending in CRLF.
    assert text_part(message).replace("\r\n", "\n") == sent.text
    assert html_part(message).replace("\r\n", "\n") == sent.html
    assert mailbox.envelopes[-1] == ("no-reply@example.com", [sent.to])
    return message


# SMTP ----------------------------------------------------------------------

def test_plain_smtp_delivers_a_text_and_html_mail_from_the_default_sender(smtp_server):
    mailbox, accounts, port = smtp_server(auth_require_tls=False)
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port)
    assert isinstance(mailer, mail.SmtpMailer)

    mailer.send(A_MAIL)

    assert_received(mailbox, A_MAIL)
    assert mailbox.sessions[-1].login is None and accounts.mechanisms == []


@pytest.mark.parametrize("mechanism", ["LOGIN", "PLAIN"])
def test_starttls_then_login_delivers_over_an_encrypted_connection(starttls_server, trust_test_ca, mechanism):
    other = {"LOGIN": "PLAIN", "PLAIN": "LOGIN"}[mechanism]
    mailbox, accounts, port = starttls_server(auth_exclude_mechanism=[other])
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, MAIL_USE_TLS="true",
                        MAIL_USERNAME=USERNAME, MAIL_PASSWORD=SMTP_PASSWORD)

    mailer.send(A_MAIL)

    assert_received(mailbox, A_MAIL)
    assert mailbox.sessions[-1].tls and mailbox.sessions[-1].login == USERNAME
    assert accounts.mechanisms == [mechanism]


def test_implicit_tls_then_login_delivers(implicit_tls_server, trust_test_ca):
    mailbox, accounts, port = implicit_tls_server()
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, MAIL_USE_SSL="1",
                        MAIL_USERNAME=USERNAME, MAIL_PASSWORD=SMTP_PASSWORD)

    mailer.send(A_MAIL)

    assert_received(mailbox, A_MAIL)
    assert mailbox.sessions[-1].tls and mailbox.sessions[-1].login == USERNAME


TLS_SERVERS = {"starttls_server": {"MAIL_USE_TLS": "true"}, "implicit_tls_server": {"MAIL_USE_SSL": "true"}}


@pytest.mark.parametrize("server", TLS_SERVERS)
def test_a_wrong_smtp_password_makes_the_send_raise_so_the_job_is_retried(request, trust_test_ca, server):
    mailbox, accounts, port = request.getfixturevalue(server)()
    tls = TLS_SERVERS[server]
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, MAIL_USERNAME=USERNAME,
                        MAIL_PASSWORD="not-the-password", **tls)

    with pytest.raises(smtplib.SMTPAuthenticationError):
        mailer.send(A_MAIL)

    assert accounts.mechanisms and mailbox.messages == []


@pytest.mark.parametrize("server", TLS_SERVERS)
def test_a_server_certificate_the_client_does_not_trust_is_refused(request, monkeypatch, server):
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    mailbox, accounts, port = request.getfixturevalue(server)()
    tls = TLS_SERVERS[server]
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, MAIL_USERNAME=USERNAME,
                        MAIL_PASSWORD=SMTP_PASSWORD, **tls)

    with pytest.raises(ssl.SSLCertVerificationError):
        mailer.send(A_MAIL)

    assert accounts.mechanisms == [] and mailbox.messages == []


def test_with_tls_required_a_server_without_starttls_gets_neither_password_nor_mail(smtp_server):
    mailbox, accounts, port = smtp_server(auth_require_tls=False)
    mailer = mailer_for(MAIL_SERVER="127.0.0.1", MAIL_PORT=port, MAIL_USE_TLS="true",
                        MAIL_USERNAME=USERNAME, MAIL_PASSWORD=SMTP_PASSWORD)

    with pytest.raises(smtplib.SMTPNotSupportedError):
        mailer.send(A_MAIL)

    assert accounts.mechanisms == [] and mailbox.messages == []


# The log adapter -----------------------------------------------------------

def test_without_a_mail_server_mails_are_written_to_the_log(caplog):
    mailer = mailer_for()
    assert isinstance(mailer, mail.LogMailer)

    with caplog.at_level(logging.INFO, logger="app.integrations.mail"):
        mailer.send(A_MAIL)

    (record,) = [r for r in caplog.records if r.name == "app.integrations.mail"]
    logged = record.getMessage()
    assert A_MAIL.to in logged and A_MAIL.subject in logged and A_MAIL.text in logged


# Mail leaves from a job, after the commit ------------------------------------

def test_a_verification_mail_is_sent_by_a_job_once_the_transaction_commits(app, make_user, mailbox):
    user = make_user(verified=False)
    with app.app_context():
        enqueue_after_commit(MAIL, "app.auth.jobs.send_verification_email", user["id"])
        time.sleep(0.5)
        assert mailbox.to(user["email"]) == []

        db.session.commit()

    message = mailbox.wait_for(user["email"])
    assert "/verify-email?token=" in text_part(message)


def test_a_verification_mail_enqueued_in_a_rolled_back_transaction_is_never_sent(app, make_user, mailbox):
    user = make_user(verified=False)
    with app.app_context():
        enqueue_after_commit(MAIL, "app.auth.jobs.send_verification_email", user["id"])
        db.session.rollback()

    time.sleep(1.5)
    assert mailbox.to(user["email"]) == []


def test_registration_succeeds_while_the_mail_server_is_down_and_the_mail_job_is_retried(make_app):
    # An embedded app of its own, so that its own worker (not a shared one) runs the job.
    down = make_app(REDIS_URL=None, MAIL_SERVER="127.0.0.1", MAIL_PORT=str(free_port()))
    jobs = down.extensions["jobs"]

    response = down.test_client().post("/api/register", json={"email": "ada@example.com", "password": PASSWORD,
                                                              "name": "Ada Lovelace"})

    assert response.status_code == 201
    registry = ScheduledJobRegistry(MAIL, connection=jobs.connection)
    (job_id,) = wait_until(lambda: registry.get_job_ids(), timeout=10)
    job = Job.fetch(job_id, connection=jobs.connection)
    assert job.func_name == "app.events.mail.send"  # the outbox's mail (app.events.mail)

    def retried_once():  # the worker records the retry a moment after it schedules it
        job.refresh()
        return job.get_status() == JobStatus.SCHEDULED and job.retries_left == len(down.config["MAIL_JOB_RETRIES"]) - 1
    wait_until(retried_once, timeout=5)
    registry.remove(job, delete_job=True)
