"""Sorting, searching and partitioning."""
