"""Mail coming in: players play by replying to the server's emails.

`ingest(message_bytes)` (server.inbound.ingest) is behind every way in: the embedded SMTP
receiver (server.inbound.smtp), `iridescia-server mail ingest` for an MTA's pipe
(server.cli.mail) and IMAP polling by the scheduler (server.inbound.imap).
"""
