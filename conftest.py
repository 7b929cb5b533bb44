"""Test-session settings shared by every distribution's tests."""
import os

# run the IR verifier on the typed IR and after the passes in every test
# (HANAJIT_VERIFY=passes: after every pass, naming the one that broke it)
os.environ.setdefault("HANAJIT_VERIFY", "1")
