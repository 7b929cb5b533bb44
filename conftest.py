"""Test-session settings shared by every distribution's tests."""
import os

# run the IR verifier between passes in every test
os.environ.setdefault("HANAJIT_VERIFY", "1")
