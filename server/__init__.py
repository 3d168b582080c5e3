"""The Iridescia REST server (Flask + flask-smorest + SQLModel)."""
