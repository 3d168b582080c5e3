"""/api/v1/mail: the one-click unsubscribe link of every email."""
