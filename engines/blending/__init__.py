"""Blending: lay land tiles, walk heroes, raise guardians on estates, fight them with the match."""
