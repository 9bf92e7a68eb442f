"""The event outbox: what happened, written by the change that caused it, read by webhooks.

Every producer (resumes, users, billing, ai) adds an ``events`` row in the transaction of its
change with ``outbox.record_event``; nothing is sent then. Once the transaction commits, the
relay job of ``app.webhooks`` (enqueued after the commit, by name) reads the rows and delivers
them. A producer therefore never imports webhooks, and an event exists exactly when its change does.
"""
