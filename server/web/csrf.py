"""CSRF protection on every page form (Flask-WTF): one extension object, set up by
`server.web.init_app` and asked by the routes that check a token themselves."""

from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
