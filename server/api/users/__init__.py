"""/api/v1/users: accounts, tokens, addresses and mail preferences."""
