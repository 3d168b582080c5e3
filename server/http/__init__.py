"""HTTP plumbing every way in shares: errors, request parsing, pages of lists, caching, CORS,
request limits and who is calling."""
