"""The import structure, read from every module's import statements, those inside functions included.

No module imports itself back through others; and the product never imports what the installed packages
hold beside it: the bench, and the fakes that stand in for hardware.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("companion", "rules", "firmware", "wiring")              # the installed packages
PACKAGES = (*PRODUCT, "tests")
BESIDE_THE_PRODUCT = ("companion.bench", "companion.hardware.fake")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}


def imports(name: str) -> set[str]:
    """The project's modules that ``name`` imports anywhere in its file (a ``from`` import of a name
    that is not a module counts as importing the module it comes from)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            found.update(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                         for alias in node.names)
    return found & MODULES.keys() - {name}


GRAPH = {name: imports(name) for name in MODULES}


def reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in GRAPH[todo.pop()] - seen:
            seen.add(target)
            todo.append(target)
    return seen


def beside_the_product(name: str) -> bool:
    return any(name == outside or name.startswith(outside + ".") for outside in BESIDE_THE_PRODUCT)


def test_the_graph_is_read():
    assert "companion.session" in GRAPH["companion.service"]                  # a top-level import
    assert "companion.hardware.sim" in GRAPH["companion.hardware"]            # one inside a function
    assert "companion.hardware.panel" in GRAPH["companion.hardware"]          # a relative one


def test_no_module_imports_itself_back():
    reach = {name: reachable(name) for name in GRAPH}
    cycles = {frozenset(other for other in reach[name] if name in reach[other])
              for name in GRAPH if name in reach[name]}
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(sorted(cycle)) for cycle in cycles)


def test_the_product_never_imports_the_bench_or_the_fakes():
    assert set(BESIDE_THE_PRODUCT) <= GRAPH.keys()
    product = [name for name in GRAPH if name.split(".")[0] in PRODUCT and not beside_the_product(name)]
    wrong = {name: sorted(filter(beside_the_product, GRAPH[name])) for name in product}
    assert not {name: found for name, found in wrong.items() if found}


#: each layer names only what is below it: (these modules, must not import these) (docs/companion.md)
BELOW = [
    ("rules", ("companion", "wiring", "firmware")),                                   # the games know no box
    ("companion.hardware", ("companion.session", "companion.table", "companion.outputs", "companion.web",
                            "companion.journal", "companion.pause")),                 # the hardware knows no game
    ("companion.web", ("companion.session", "companion.table", "companion.journal", "companion.outputs",
                       "companion.pause", "companion.port", "companion.displays", "companion.painter")),  # its port
]


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_each_layer_imports_only_what_is_below_it():
    wrong = {(name, target) for layer, above in BELOW for name in GRAPH if under(name, layer)
             for target in GRAPH[name] if any(under(target, outside) for outside in above)}
    assert not wrong, sorted(wrong)


def test_the_rules_name_no_module_of_the_box_in_their_code():
    """Not even in a string no import shows (a game's renderer was once named so)."""
    named = {}
    for name, path in MODULES.items():
        if not under(name, "rules"):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        found = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                 and isinstance(node.value, str) and id(node) not in docstrings and "companion" in node.value]
        if found:
            named[name] = found
    assert not named
