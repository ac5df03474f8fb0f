"""Repo-level pytest configuration for the project's own suites."""
