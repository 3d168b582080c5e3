"""The health endpoint."""
