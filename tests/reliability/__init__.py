"""Reliability and security tests (issue 8): nothing lost, nothing leaked."""
