"""Mamma Mia! classic and Plus: rules, decks, bots and widget."""
