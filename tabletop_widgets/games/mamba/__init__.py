"""Mamba (Christophe Berg): rules, notation, bots and widget."""
