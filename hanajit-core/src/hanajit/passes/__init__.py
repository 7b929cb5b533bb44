"""hanajit.passes"""
