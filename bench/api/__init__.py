"""API benchmark: the app under gunicorn (2 sync workers) on SQLite and PostgreSQL, driven by 8
client processes on 127.0.0.1, beside two baselines served the same way (``baseline.py``)."""
