"""hanajit.infer"""
