"""The people who use the service: the ``users`` table and the person's own data on it (email, name,
avatar, preferences). Every room that acts for a user builds on this one; it builds on none of them.
"""
