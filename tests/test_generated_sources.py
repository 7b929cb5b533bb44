"""Modules written by a script of ``scripts/`` are that script's output: an edit
goes into the script, and the module is written again from it."""
import pathlib
import runpy

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_lane_kernels_are_the_generators_output():
    script = runpy.run_path(str(ROOT / "scripts" / "gen_lane_kernels.py"))
    assert script["TARGET"].read_text() == script["source"](), \
        "lane_kernels.py differs from scripts/gen_lane_kernels.py's output: edit the " \
        "script and run it"
