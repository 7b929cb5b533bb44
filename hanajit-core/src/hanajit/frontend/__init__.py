"""hanajit.frontend"""
