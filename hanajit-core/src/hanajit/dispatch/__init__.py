"""hanajit.dispatch"""
