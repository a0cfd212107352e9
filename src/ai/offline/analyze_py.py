# Static checks over a Python solution's syntax tree, for the offline reviewer.
# Runs INSIDE the sandbox as `python3 -B -I -c <this> main.py`: it parses the
# learner's file with `compile()`/`ast` and never executes it. Prints one JSON
# object on stdout (shape: see PyFindings in src/ai/offline/heuristics.ts).
import ast
import json
import sys
import warnings

path = sys.argv[1]
src = open(path, "rb").read()
out = {
    "syntaxError": None,
    "compileWarnings": [],
    "maxLoopDepth": 0,
    "deepestLoopLine": None,
    "recursiveFunctions": [],
    "setsRecursionLimit": None,
    "inputInLoop": [],
    "printInLoop": [],
    "readsWholeInput": False,
    "popFrontInLoop": [],
    "bareExcept": [],
}

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    try:
        compile(src, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        out["syntaxError"] = {"line": getattr(e, "lineno", None), "message": str(getattr(e, "msg", e))}
    for w in caught:
        out["compileWarnings"].append({"line": getattr(w, "lineno", None), "category": w.category.__name__, "message": str(w.message)})

if out["syntaxError"] is None:
    tree = ast.parse(src, path)

    def call_name(node):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id
        if isinstance(f, ast.Attribute):
            parts = [f.attr]
            v = f.value
            while isinstance(v, ast.Attribute):
                parts.append(v.attr)
                v = v.value
            if isinstance(v, ast.Name):
                parts.append(v.id)
            return ".".join(reversed(parts))
        return None

    LOOPS = (ast.For, ast.While, ast.AsyncFor)
    COMPS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)

    class Visitor(ast.NodeVisitor):
        def __init__(self):
            self.depth = 0
            self.functions = []

        def loop(self, node, extra=1):
            self.depth += extra
            if self.depth > out["maxLoopDepth"]:
                out["maxLoopDepth"] = self.depth
                out["deepestLoopLine"] = node.lineno
            self.generic_visit(node)
            self.depth -= extra

        def visit_For(self, node):
            self.loop(node)

        visit_AsyncFor = visit_For

        def visit_While(self, node):
            self.loop(node)

        def visit_comprehension_like(self, node):
            self.loop(node, len(node.generators))

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_like

        def visit_FunctionDef(self, node):
            # A function body is its own loop context: calls are counted where they happen.
            saved = self.depth
            self.depth = 0
            self.functions.append(node.name)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and call_name(inner) == node.name:
                    out["recursiveFunctions"].append({"name": node.name, "line": node.lineno})
                    break
            self.generic_visit(node)
            self.functions.pop()
            self.depth = saved

        visit_AsyncFunctionDef = visit_FunctionDef

        def visit_Call(self, node):
            name = call_name(node) or ""
            line = node.lineno
            if name == "sys.setrecursionlimit":
                arg = node.args[0] if node.args else None
                out["setsRecursionLimit"] = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, int) else -1
            if name in ("sys.stdin.read", "sys.stdin.buffer.read", "sys.stdin.readlines", "sys.stdin.buffer.readlines"):
                out["readsWholeInput"] = True
            if name == "open" and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
                out["readsWholeInput"] = True
            if self.depth > 0:
                if name in ("input", "sys.stdin.readline", "sys.stdin.buffer.readline"):
                    out["inputInLoop"].append(line)
                elif name == "print":
                    out["printInLoop"].append(line)
                elif name.endswith(".pop") and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
                    out["popFrontInLoop"].append(line)
                elif name.endswith(".insert") and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
                    out["popFrontInLoop"].append(line)
            self.generic_visit(node)

        def visit_ExceptHandler(self, node):
            if node.type is None:
                out["bareExcept"].append(node.lineno)
            self.generic_visit(node)

    Visitor().visit(tree)
    for key in ("inputInLoop", "printInLoop", "popFrontInLoop", "bareExcept"):
        out[key] = sorted(set(out[key]))[:20]

sys.stdout.write(json.dumps(out))
