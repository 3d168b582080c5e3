"""/api/v1/rules: what the cards say (engine/text/card_help.py), public."""
