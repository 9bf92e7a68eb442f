"""gunicorn settings, read automatically by ``gunicorn wsgi:app`` (Procfile)."""
import os

bind = f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
accesslog = "-"
# The response's X-Request-ID ties an access line to the app's log lines of that request.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms [%({x-request-id}o)s] "%(a)s"'
