"""No import cycles in evm384_native: each module's imports, read with ``ast``, form a graph
whose strongly connected components are all single modules.

A cycle makes a module's behaviour depend on which of its members is imported first (a
partly initialised module, an ImportError from one entry point but not another), so the
scan counts every import: at module level and inside functions alike (a function-level
import only postpones the cycle), and under ``if TYPE_CHECKING:`` too. A type-only import
never runs, but a type-only cycle is still a design knot: two modules that each need the
other's names to say what they are, where the shared piece belongs in a third.
"""
from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Set, Tuple

import evm384_native

Edge = Tuple[str, str, int]   # importer, imported, line


def module_files(root: Path, package: str) -> Dict[str, Tuple[Path, bool]]:
    """Every module of the package in ``root`` (its directory): name -> (file, is a package)."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = (package,) + path.relative_to(root).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        modules[name] = (path, is_package)
    return modules


def _resolve_base(module: str, is_package: bool, level: int, target: Optional[str]) -> str:
    """The absolute name that ``from <level dots><target> import ...`` in ``module`` reads."""
    if level == 0:
        return target or ""
    package = module if is_package else module.rpartition(".")[0]
    for _ in range(level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{target}" if target else package


def imported_names(module: str, path: Path, is_package: bool, known: Set[str]
                   ) -> List[Tuple[str, int]]:
    """Every absolute name ``module`` imports, with its line (``from pkg import name``
    imports ``pkg.name`` where that is a module of ``known``, otherwise ``pkg``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve_base(module, is_package, node.level, node.module)
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                     for alias in node.names]
        else:
            continue
        found.extend((name, node.lineno) for name in names)
    return found


def imports_of(module: str, path: Path, is_package: bool, known: Set[str]) -> List[Edge]:
    """The modules of ``known`` that ``module`` imports."""
    edges = [(module, name, line) for name, line in imported_names(module, path, is_package, known)
             if name in known and name != module]
    return list(dict.fromkeys(edges))   # `from m import a, b` is one edge, not two


def import_graph(root: Path, package: str) -> List[Edge]:
    """Every import edge of the package."""
    modules = module_files(root, package)
    known = set(modules)
    return [edge for name, (path, is_package) in modules.items()
            for edge in imports_of(name, path, is_package, known)]


def cycles(edges: Sequence[Edge]) -> List[List[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative: a deep chain of imports must not hit the recursion limit)."""
    successors: Dict[str, List[str]] = {}
    for source, target, _ in edges:
        successors.setdefault(source, []).append(target)
        successors.setdefault(target, [])
    index: Dict[str, int] = {}
    lowlink: Dict[str, int] = {}
    on_stack: Set[str] = set()
    stack: List[str] = []
    components = []
    for start in sorted(successors):
        if start in index:
            continue
        work = [(start, iter(successors[start]))]
        index[start] = lowlink[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    lowlink[parent] = min(lowlink[parent], lowlink[node])
                if lowlink[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
            elif child not in index:
                index[child] = lowlink[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(successors[child])))
            elif child in on_stack:
                lowlink[node] = min(lowlink[node], index[child])
    return sorted(components)


def describe(components: Sequence[Sequence[str]], edges: Sequence[Edge]) -> str:
    """Each cycle's modules and the imports (file lines) that join them."""
    lines = [f"{len(components)} import cycle(s):"]
    for component in components:
        members = set(component)
        lines.append("  " + ", ".join(component))
        lines.extend(f"    {source}:{line} imports {target}" for source, target, line in edges
                     if source in members and target in members)
    return "\n".join(lines)


PACKAGE_ROOT = Path(evm384_native.__file__).parent


def test_package_has_no_import_cycles():
    edges = import_graph(PACKAGE_ROOT, "evm384_native")
    found = cycles(edges)
    assert not found, describe(found, edges)


# tower/contract.py is the assembly every contract shares, not a curve's contracts.
SHARED_LAYERS = {"tower"}


def curve_packages(root: Path, package: str) -> Set[str]:
    """The packages of one curve's (or hash's) contracts: every subpackage with a
    contract.py or contracts.py, the shared layers apart."""
    return {f"{package}.{folder.name}" for folder in root.iterdir()
            if folder.name not in SHARED_LAYERS
            and any((folder / name).is_file() for name in ("contract.py", "contracts.py"))}


def cross_imports(edges: Sequence[Edge], packages: Set[str]) -> List[str]:
    """Each import from a module of one of ``packages`` into another of them."""
    def owner(module: str) -> Optional[str]:
        return next((p for p in packages if module == p or module.startswith(p + ".")), None)
    return [f"{source}:{line} imports {target}" for source, target, line in edges
            if owner(source) and owner(target) and owner(source) != owner(target)]


def test_no_curve_package_imports_another():
    """What two curves' contracts share is curve-generic and belongs to a generic layer
    (tower/, ec/, curves/): a curve package importing another would hide it there."""
    packages = curve_packages(PACKAGE_ROOT, "evm384_native")
    assert {"evm384_native.bls12_381", "evm384_native.bn254", "evm384_native.p256",
            "evm384_native.poseidon", "evm384_native.secp256k1"} <= packages
    found = cross_imports(import_graph(PACKAGE_ROOT, "evm384_native"), packages)
    assert not found, "\n".join(found)


# The checkout's folders beside the package, which a wheel does not ship, and the modules
# their scripts and tests import by their bare names (bench's and tests' folders are on
# sys.path when those run).
CHECKOUT_ROOT = Path(__file__).resolve().parent.parent
CHECKOUT_ONLY = ("bench", "tests", "fuzz")


def checkout_only_names() -> Set[str]:
    return set(CHECKOUT_ONLY) | {path.stem for folder in ("bench", "tests")
                                 for path in (CHECKOUT_ROOT / folder).glob("*.py")}


def test_package_imports_nothing_a_wheel_does_not_ship():
    """From a plain wheel install bench/ and tests/ are not there: an import of them works
    from a checkout only (issue 42: the adversarial corpus came from bench/adversarial.py)."""
    modules = module_files(PACKAGE_ROOT, "evm384_native")
    known, outside = set(modules), checkout_only_names()
    found = [f"{name}:{line} imports {imported}"
             for name, (path, is_package) in modules.items()
             for imported, line in imported_names(name, path, is_package, known)
             if imported.split(".")[0] in outside]
    assert not found, "\n".join(found)


def write_package(root: Path, files: Dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


def test_scanner_finds_cycles_through_functions_and_type_checking(tmp_path):
    root = write_package(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from . import b\n",
        # A function-level import still runs (later): the cycle a <-> b is real.
        "b.py": "def later():\n    from .a import something\n",
        # c <-> d with d's half under TYPE_CHECKING (never runs): a cycle all the same.
        "c.py": "from typing import TYPE_CHECKING\nimport pkg.d\n",
        "d.py": "import typing\nif typing.TYPE_CHECKING:\n    from .c import C\nelse:\n    import os\n",
    })
    edges = import_graph(root, "pkg")
    assert cycles(edges) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"]]
    assert ("pkg.c", "pkg.d", 2) in edges and ("pkg.d", "pkg.c", 3) in edges
    assert "pkg.b:2 imports pkg.a" in describe(cycles(edges), edges)


def test_scanner_resolves_names_and_packages(tmp_path):
    root = write_package(tmp_path / "pkg", {
        "__init__.py": "from . import sub\nfrom .sub import helper\n",
        # `from .. import run` is the package root's name: an edge to pkg itself.
        "sub/__init__.py": "from .. import run\n",
        "sub/helper.py": "from ..sub import helper as again\n",
        "sub/inner/__init__.py": "from ...sub import helper\n",
        "sub/inner/x.py": "from . import y\n",
        "sub/inner/y.py": "from .x import f\n",
    })
    edges = import_graph(root, "pkg")
    assert ("pkg", "pkg.sub", 1) in edges and ("pkg", "pkg.sub.helper", 2) in edges
    assert ("pkg.sub", "pkg", 1) in edges
    assert ("pkg.sub.inner", "pkg.sub.helper", 1) in edges
    assert cycles(edges) == [["pkg", "pkg.sub"], ["pkg.sub.inner.x", "pkg.sub.inner.y"]]


def test_scanner_finds_curve_packages_and_their_cross_imports(tmp_path):
    root = write_package(tmp_path / "pkg", {
        "__init__.py": "",
        "tower/__init__.py": "", "tower/contract.py": "",
        "ec/__init__.py": "", "ec/scalar.py": "from ..tower import contract\n",
        "one/__init__.py": "", "one/contract.py": "from ..ec import scalar\n",
        "two/__init__.py": "", "two/contracts.py": "from ..one.contract import build\n",
    })
    packages = curve_packages(root, "pkg")
    assert packages == {"pkg.one", "pkg.two"}
    assert cross_imports(import_graph(root, "pkg"), packages) == [
        "pkg.two.contracts:1 imports pkg.one.contract"]
