"""Helpers shared by the tests, imported one way: `from tests.support.<module> import <name>`."""
