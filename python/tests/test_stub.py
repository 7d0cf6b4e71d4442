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
            inherited = set().union(*(members.get(b.id, set()) for b in node.bases
                                      if isinstance(b, ast.Name)))
            members[node.name] = inherited | \
                {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | \
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


def stub_parameters():
    """Each top-level function's and Context method's parameter names in the
    stub (the union over its overloads)."""
    tree = ast.parse(STUB.read_text())
    out = {}

    def add(key, node):
        names = [a.arg for a in node.args.args + node.args.kwonlyargs if a.arg != "self"]
        out.setdefault(key, set()).update(names)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            add(node.name, node)
        if isinstance(node, ast.ClassDef) and node.name == "Context":
            for member in node.body:
                if isinstance(member, ast.FunctionDef) and not member.name.startswith("_"):
                    add("Context." + member.name, member)
    return out


def module_parameters(function):
    """The parameter names of a compiled function, from its signature line (the
    union over its overloads' lines, "1. name(...)", where it has several)."""
    lines = function.__doc__.splitlines()
    signatures = lines[:1]
    if lines[1:2] == ["Overloaded function."]:
        signatures = [line.split(". ", 1)[1] for line in lines[2:]
                      if line[:1].isdigit() and ". " in line]
    names = set()
    for line in signatures:
        inside = line[line.index("(") + 1:line.rindex(")")]
        names |= {p.split(":")[0].strip() for p in inside.split(",")
                  if ":" in p and p.split(":")[0].strip() not in ("self", "*")}
    return names


def test_the_stub_gives_every_compiled_function_its_parameters():
    stub = stub_parameters()
    for name in gpuhist.__all__:
        value = getattr(gpuhist, name)
        if type(value).__name__ == "builtin_function_or_method":
            assert module_parameters(value) == stub[name], name
    for name in dir(gpuhist.Context):
        if name.startswith("_"):
            continue
        value = getattr(gpuhist.Context, name)
        if callable(value) and value.__doc__ and value.__doc__.startswith(name + "("):
            assert module_parameters(value) == stub["Context." + name], name
