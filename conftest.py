"""Test-session settings shared by every distribution's tests."""
import os
import sys
import tempfile

# run the IR verifier between passes in every test
os.environ.setdefault("HANAJIT_VERIFY", "1")

# Bytecode: where PYTHONDONTWRITEBYTECODE is set (as on this project's CI
# hosts), each test worker and each Python the tests start (codegen workers,
# the CLI, benchmarks: about 300 of them) compiled hanajit's modules from
# source again, 0.2-0.3 s each.  They are written under the temporary
# directory instead (PYTHONPYCACHEPREFIX), never into the tree.
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    os.environ.setdefault("PYTHONPYCACHEPREFIX",
                          os.path.join(tempfile.gettempdir(), "hanajit-tests-pycache"))
    sys.dont_write_bytecode = False
    if sys.pycache_prefix is None:
        sys.pycache_prefix = os.environ["PYTHONPYCACHEPREFIX"]
