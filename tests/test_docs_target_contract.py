"""docs/plugins.md's target contract matches hanajit.target: every documented
method exists on ``Target`` with the documented parameters, every public method of
``Target`` is documented, and so is every ``Capabilities`` field with its default."""
import dataclasses
import inspect
import pathlib
import re

from hanajit.target import Capabilities, Target

DOC = (pathlib.Path(__file__).parents[1] / "docs" / "plugins.md").read_text()


def _section(title):
    start = DOC.index(title)
    nxt = DOC.find("\n#", start + len(title))
    return DOC[start:nxt if nxt != -1 else None]


def _rows(section):
    return re.findall(r"^\| `([^`]+)` \| ([^|]*)\|", section, flags=re.M)


def test_documented_methods_match_the_class():
    rows = _rows(_section("## The `Target` class"))
    documented = {}
    for cell, _ in rows:
        m = re.fullmatch(r"(\w+)(?:\((.*)\))?", cell)
        assert m, cell
        documented[m.group(1)] = m.group(2)
    for name, params in documented.items():
        assert hasattr(Target, name), f"docs/plugins.md documents Target.{name}"
        member = inspect.getattr_static(Target, name)
        if params is None:                   # an attribute or property
            assert not inspect.isfunction(member), f"{name} is a method: document its call"
            continue
        got = [p.name if p.kind is not p.VAR_KEYWORD else "**" + p.name
               for p in list(inspect.signature(member).parameters.values())[1:]]
        want = [p.strip() for p in params.split(",") if p.strip()]
        assert got == want, f"Target.{name}{tuple(got)} but the docs say ({params})"
    public = {n for n, v in vars(Target).items()
              if not n.startswith("_") and (inspect.isfunction(v) or isinstance(v, property))}
    public |= {n for n in Target.__annotations__ if not n.startswith("_")}
    assert public <= set(documented), f"undocumented: {sorted(public - set(documented))}"


def test_documented_capabilities_match_the_class():
    rows = _rows(_section("### Capabilities"))
    doc = {}
    for cell, default in rows:
        doc[cell] = default.strip()
    fields = {f.name: f.default for f in dataclasses.fields(Capabilities)}
    assert set(doc) == set(fields)
    for name, default in fields.items():
        assert doc[name] == str(default), name


def test_defaults_say_not_supported():
    t = type("Plain", (Target,), {"name": "plain"})()
    assert t.native_dispatcher(None, [], None) is None
    assert t.cache_env() is None
    assert t.synchronize() is None
    for call in (lambda: t.compile(None, {}), lambda: t.launch(None, ()),
                 lambda: t.export(None, "x"), lambda: t.compile_single_thread(None),
                 lambda: t.assembly(None), lambda: t.load(None, None)):
        try:
            call()
        except NotImplementedError as exc:
            assert "'plain'" in str(exc)
        else:                                           # pragma: no cover
            raise AssertionError("a default must refuse")
    try:
        t.to_device(None)
    except TypeError as exc:
        assert "'plain' has no device arrays" in str(exc)


def test_no_core_module_tests_a_target_by_name_or_attribute():
    """Core decides by capabilities and the declared contract: no comparison with a
    target's name and no hasattr/getattr probing of a target."""
    root = pathlib.Path(__file__).parents[1] / "hanajit-core" / "src" / "hanajit"
    bad = []
    for path in root.rglob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"""(==|!=)\s*["'](cpu|cuda|exe|wasm|fpga|hip|vulkan|metal|levelzero)["']"""
                             r"""|(hasattr|getattr)\(\s*(target|tgt)\b""", text):
            line = text.count("\n", 0, m.start()) + 1
            bad.append(f"{path.relative_to(root)}:{line}: {m.group(0)}")
    assert not bad, bad
