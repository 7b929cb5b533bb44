"""hanajit.testing"""
