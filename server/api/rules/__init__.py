"""/api/v1/rules: what the cards say (engine/card_help.py), public."""
