"""Spellbook Table companion: a Flask app that phones share during a physical game."""
