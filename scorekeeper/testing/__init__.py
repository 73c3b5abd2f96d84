"""Helpers for tests and benchmarks that the app itself never imports."""
