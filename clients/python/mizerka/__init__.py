"""Mizerka Arena bot SDK."""
