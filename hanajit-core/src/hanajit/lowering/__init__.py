"""hanajit.lowering"""
