"""Storage: database engines and sessions, the tables, prepared statements, the SQLite writers'
queue and the migrations."""
