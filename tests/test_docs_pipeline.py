"""docs/architecture.md lists the passes of hanajit.pipeline.PASSES, in order."""
import pathlib
import re

from hanajit.pipeline import PASSES

DOC = (pathlib.Path(__file__).parents[1] / "docs" / "architecture.md").read_text()


def test_architecture_lists_the_pipeline_in_order():
    block = DOC[DOC.index("@jit function + argument types"):DOC.index("primitive IR module")]
    listed = [m.group(1) for m in re.finditer(r"^   │  (\w+)\s{2,}", block, flags=re.M)]
    assert listed == [p.name for p in PASSES]


def test_every_pass_is_described():
    for p in PASSES:
        assert p.scope in ("function", "module") and p.doc, p.name
    assert len({p.name for p in PASSES}) == len(PASSES)
