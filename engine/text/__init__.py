"""The engine's words: the command notation (notation.py), events told as sentences
(narrate.py), the final scores (scores.py), the card texts and help (card_text.py,
card_help.py), the text board (board.py, line.py) and the English they share (wording.py)."""
