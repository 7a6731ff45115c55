"""The SDK's version, in a module of its own so that any module (the stdio hello line, the package,
the build's metadata) reads it without importing the package ``mizerka`` and its submodules."""

__version__ = "0.2.0"
