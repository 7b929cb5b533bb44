"""Test-session settings shared by every distribution's tests."""
import os
import sys
import tempfile

# run the IR verifier on the typed IR and after the passes in every test
# (HANAJIT_VERIFY=passes: after every pass, naming the one that broke it)
os.environ.setdefault("HANAJIT_VERIFY", "1")

# Byte-compiled sources for every process of the run.  The distributions are
# installed editable, so their modules are compiled from source on import; where
# the environment sets PYTHONDONTWRITEBYTECODE (CI's does), every pytest worker and
# every subprocess a test starts compiled hanajit's modules again (about 0.5 s of
# CPU each).  The run writes them under a cache folder of its own instead (not next
# to the sources), and its subprocesses inherit the setting.
if os.environ.get("PYTHONDONTWRITEBYTECODE") or sys.dont_write_bytecode:
    _prefix = os.environ.get("PYTHONPYCACHEPREFIX") or os.path.join(
        tempfile.gettempdir(), f"hanajit-tests-pycache-{os.getuid()}")
    os.environ["PYTHONPYCACHEPREFIX"] = _prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix = _prefix
    sys.dont_write_bytecode = False
