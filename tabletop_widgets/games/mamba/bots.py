"""Mamba bots (filled in below)."""
