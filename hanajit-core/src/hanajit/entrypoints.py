"""A fast reader of installed entry points (for plugin discovery).

``importlib.metadata`` costs tens of milliseconds to import (it pulls in the
``email`` package), which would dominate the first compilation.  Discovery only
needs the ``[hanajit]`` section of each distribution's ``entry_points.txt``, and the
distribution's name and version for reports, so this scans ``*.dist-info`` folders
on ``sys.path`` directly, first occurrence of a distribution winning as in
``importlib.metadata``.
"""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field


@dataclass
class Dist:
    name: str
    version: str
    metadata: dict = field(default_factory=dict)


@dataclass
class EntryPoint:
    name: str
    value: str
    group: str
    dist: Dist | None = None

    def load(self):
        module, _, attr = self.value.partition(":")
        obj = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
        return obj


def _read_section(text: str, group: str) -> list:
    out, inside = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            out.append((name.strip(), value.strip()))
    return out


def _dist_of(folder: str) -> Dist:
    meta = os.path.join(folder, "METADATA")
    if not os.path.exists(meta):
        meta = os.path.join(folder, "PKG-INFO")
    name = version = ""
    try:
        with open(meta, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("Name:"):
                    name = line[5:].strip()
                elif line.startswith("Version:"):
                    version = line[8:].strip()
                elif not line.strip():
                    break
    except OSError:
        pass
    return Dist(name=name, version=version, metadata={"Name": name})


def entry_points(group: str) -> list:
    """Entry points of ``group`` from every distribution on ``sys.path``."""
    return entry_points_of(group)[group]


def entry_points_of(*groups: str) -> dict:
    """Entry points of each of ``groups`` (one scan of ``sys.path``)."""
    seen, found = set(), {g: [] for g in groups}
    for path in sys.path:
        try:
            names = os.listdir(path or ".")
        except OSError:
            continue
        for entry in sorted(names):
            if not entry.endswith((".dist-info", ".egg-info")):
                continue
            key = entry.split("-")[0].lower().replace("_", "-")
            if key in seen:
                continue
            seen.add(key)
            folder = os.path.join(path, entry)
            try:
                with open(os.path.join(folder, "entry_points.txt"), encoding="utf-8") as fh:
                    text = fh.read()
            except OSError:
                continue
            dist = None
            for group in groups:
                pairs = _read_section(text, group)
                if pairs:
                    dist = dist or _dist_of(folder)
                    found[group].extend(EntryPoint(n, v, group, dist) for n, v in pairs)
    return found
