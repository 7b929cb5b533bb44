"""hanajit.ir"""
