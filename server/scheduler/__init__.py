"""The scheduler: one APScheduler tick job that claims due work from tables and does it."""
