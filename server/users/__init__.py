"""Accounts: registration, the API token, notification preferences."""
