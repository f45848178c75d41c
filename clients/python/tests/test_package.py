"""Packaging checks: byte-compiles, Python 3.9 syntax only, type hints everywhere, metadata."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import unittest
from typing import Iterator, List

from _support import PACKAGE_ROOT, SRC

PACKAGE_DIR = os.path.join(SRC, "browser_task_service")


def python_files(root: str) -> Iterator[str]:
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                yield os.path.join(folder, name)


def annotation_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            for arg in args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]:
                if arg.annotation is not None:
                    yield arg.annotation
            if node.returns is not None:
                yield node.returns
        elif isinstance(node, ast.AnnAssign):
            yield node.annotation


class PackageTest(unittest.TestCase):
    def test_compileall(self) -> None:
        result = subprocess.run(
            [sys.executable, "-m", "compileall", "-q", PACKAGE_ROOT], capture_output=True, text=True, check=False
        )
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)

    def test_sources_parse_as_python_3_9(self) -> None:
        for path in python_files(PACKAGE_ROOT):
            with self.subTest(path=os.path.relpath(path, PACKAGE_ROOT)):
                with open(path, encoding="utf-8") as f:
                    source = f.read()
                tree = ast.parse(source, filename=path, feature_version=(3, 9))
                self.assertFalse(any(type(n).__name__ == "Match" for n in ast.walk(tree)), "match statement")
                unions = [n for a in annotation_nodes(tree) for n in ast.walk(a) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitOr)]
                self.assertEqual(unions, [], "X | Y annotations need Python 3.10; use Optional/Union")

    def test_every_function_of_the_package_is_annotated(self) -> None:
        missing: List[str] = []
        for path in python_files(PACKAGE_DIR):
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), filename=path)
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                where = f"{os.path.basename(path)}:{node.lineno} {node.name}"
                if node.returns is None:
                    missing.append(f"{where} (return)")
                args = node.args
                named = args.posonlyargs + args.args + args.kwonlyargs
                for i, arg in enumerate(named):
                    if i == 0 and arg.arg in ("self", "cls"):
                        continue
                    if arg.annotation is None:
                        missing.append(f"{where} ({arg.arg})")
                for arg in (args.vararg, args.kwarg):
                    if arg is not None and arg.annotation is None:
                        missing.append(f"{where} (*{arg.arg})")
        self.assertEqual(missing, [])

    def test_metadata(self) -> None:
        with open(os.path.join(PACKAGE_ROOT, "pyproject.toml"), encoding="utf-8") as f:
            pyproject = f.read()
        self.assertRegex(pyproject, r'(?m)^version = "0\.1\.0"$')
        self.assertRegex(pyproject, r'(?m)^requires-python = ">=3\.9"$')
        self.assertRegex(pyproject, r"(?m)^dependencies = \[\]$")
        self.assertTrue(os.path.isfile(os.path.join(PACKAGE_DIR, "py.typed")))
        import browser_task_service

        self.assertEqual(browser_task_service.__version__, "0.1.0")
        with open(os.path.join(PACKAGE_ROOT, "CHANGELOG.md"), encoding="utf-8") as f:
            self.assertRegex(f.read(), r"(?m)^## \[?0\.1\.0")

    def test_only_the_standard_library_is_imported(self) -> None:
        stdlib = getattr(sys, "stdlib_module_names", None)
        allowed_prefix = re.compile(r"^(\.|browser_task_service)")
        for path in python_files(PACKAGE_DIR):
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read(), filename=path)
            for node in ast.walk(tree):
                names: List[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    top = name.split(".")[0]
                    if allowed_prefix.match(name) or top == "__future__":
                        continue
                    if stdlib is not None:
                        self.assertIn(top, stdlib, f"{os.path.basename(path)} imports {name}")


if __name__ == "__main__":
    unittest.main()
