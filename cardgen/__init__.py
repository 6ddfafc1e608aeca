"""Spellbook Table print kit: the card-data layer (``cardgen.catalog``) and the PDF generator."""

__version__ = "0.1.0"
