"""Per game: what the shared tests need to know (tests/game_traits.py), one module per game in the tree."""
