"""gunicorn settings, read automatically by ``gunicorn wsgi:app`` (Procfile).

Threaded workers (gthread): a request waiting for its export's render job
blocks one thread, not a whole process, so the rest of the API keeps answering
during a burst of exports (bench/exports_under_load.py). The values come from
``app.config.server_settings`` (the one place that reads the environment):
``PORT``, ``WEB_CONCURRENCY`` processes (2), ``WEB_THREADS`` each (32), and a
time-out of ``EXPORT_WAIT_SECONDS`` + 30 s.
"""
from app.config import server_settings

_settings = server_settings()
bind = _settings["bind"]
workers = _settings["workers"]
worker_class = "gthread"
threads = _settings["threads"]
timeout = _settings["timeout"]
accesslog = "-"
# The response's X-Request-ID ties an access line to the app's log lines of that request.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms [%({x-request-id}o)s] "%(a)s"'
