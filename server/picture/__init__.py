"""The board as a picture: an SVG drawn from what a seat may see, and its PNG for email."""
