"""The type stub (gpuhist/__init__.pyi) names everything the module exports,
and each class's public methods and properties, so that it cannot drift."""
import ast
import pathlib

import gpuhist

STUB = pathlib.Path(__file__).resolve().parents[1] / "gpuhist" / "__init__.pyi"


def stub_names():
    tree = ast.parse(STUB.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            top.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | \
                {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        if isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
    return top, members


def test_the_stub_names_every_export_and_member():
    top, members = stub_names()
    assert set(gpuhist.__all__) <= top, set(gpuhist.__all__) - top
    for name in gpuhist.__all__:
        kind = getattr(gpuhist, name)
        if not isinstance(kind, type) or issubclass(kind, BaseException):
            continue
        public = {m for m in dir(kind) if not m.startswith("_")}
        assert public <= members[name], (name, public - members[name])
