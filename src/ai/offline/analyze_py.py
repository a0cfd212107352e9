# Static checks over a Python solution's syntax tree, for the offline reviewer.
# Runs INSIDE the sandbox as `python3 -B -I -c <this> main.py`: it parses the
# learner's file with `compile()`/`ast` and never executes it. Prints one JSON
# object on stdout (shape: see PyFindings in src/ai/offline/heuristics.ts).
import ast
import json
import re
import sys
import warnings

path = sys.argv[1]
src = open(path, "rb").read()
out = {
    "syntaxError": None,
    "compileWarnings": [],
    "maxLoopDepth": 0,
    "loopLogs": 0,
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

    # Loop kinds, as in src/ai/offline/clike.ts (LoopKind): "n" grows with the input, "log" is a
    # binary search or halving loop, "one" a constant (a literal bound, the four directions),
    # "amortised" the input in total however often it is entered (a drained queue, one node's neighbours).
    DIRECTION_NAMES = re.compile(r"^(dirs?|directions|moves|deltas|offsets|d[xyrc]|dd|DIRS?|D[XYRC])$")
    SMALL_BOUND = 64

    def small_constant(node):
        return isinstance(node, ast.Constant) and isinstance(node.value, int) and abs(node.value) <= SMALL_BOUND

    def iter_kind(it):
        if isinstance(it, (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.Constant)):
            return "one"
        if isinstance(it, ast.Call):
            name = call_name(it) or ""
            if name == "range" and it.args and all(isinstance(a, ast.Constant) for a in it.args):
                stop = it.args[1] if len(it.args) > 1 else it.args[0]
                return "one" if small_constant(stop) else "n"
            if name in ("enumerate", "reversed", "sorted", "zip", "list", "iter") and it.args:
                return iter_kind(it.args[0])
            if isinstance(it.func, ast.Attribute) and it.func.attr in ("items", "keys", "values"):
                return "amortised" if isinstance(it.func.value, ast.Subscript) else "n"
            if isinstance(it.func, ast.Attribute) and it.func.attr == "get":
                return "amortised"
            return "n"
        if isinstance(it, ast.Subscript):
            return "n" if isinstance(it.slice, ast.Slice) else "amortised"
        if isinstance(it, ast.Name) and DIRECTION_NAMES.match(it.id):
            return "one"
        return "n"

    def halves(node):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and sub.id == "mid":
                return True
            op = getattr(sub, "op", None)
            right = getattr(sub, "right", None) if isinstance(sub, ast.BinOp) else getattr(sub, "value", None)
            if isinstance(sub, (ast.BinOp, ast.AugAssign)) and isinstance(right, ast.Constant):
                if isinstance(op, (ast.FloorDiv, ast.Div)) and right.value in (2, 10):
                    return True
                if isinstance(op, ast.RShift) and right.value == 1:
                    return True
        return False

    def drains(test):
        # `while q:`, `while stack and ...:`, `while len(heap) > 0:` (not `while i < n:`).
        if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
            test = test.values[0]
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            return isinstance(test.left, ast.Call) and call_name(test.left) == "len"
        if isinstance(test, ast.Call) and call_name(test) == "len":
            return True
        return isinstance(test, (ast.Name, ast.Attribute))

    def while_kind(node):
        if halves(node):
            return "log"
        if drains(node.test):
            return "amortised"
        return "n"

    def leaves(stmt):
        if isinstance(stmt, (ast.Break, ast.Return)):
            return True
        return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and (call_name(stmt.value) or "") in ("exit", "quit", "sys.exit")

    # print() calls a loop leaves right after print once, not once per iteration.
    prints_once = set()
    for block_owner in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(block_owner, field, None)
            if isinstance(block, list) and any(leaves(st) for st in block):
                for st in block:
                    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and call_name(st.value) == "print":
                        prints_once.add(id(st.value))

    class Visitor(ast.NodeVisitor):
        def __init__(self):
            # The enclosing loops: (kind, line, size depth, log depth) from the outermost in.
            self.chain = []
            self.functions = []

        def size_depth(self):
            return self.chain[-1][2] if self.chain else 0

        def enter(self, kind, line):
            outer, logs = (self.chain[-1][2], self.chain[-1][3]) if self.chain else (0, 0)
            size = outer + (1 if kind == "n" or (kind == "amortised" and outer == 0) else 0)
            logs += 1 if kind == "log" else 0
            self.chain.append((kind, line, size, logs))
            if (size, logs) > (out["maxLoopDepth"], out["loopLogs"]):
                out["maxLoopDepth"] = size
                out["loopLogs"] = logs
                # The innermost loop of this chain that adds a size factor.
                adds = [l for k, l, s, _ in self.chain if k == "n" or (k == "amortised" and s == 1)]
                out["deepestLoopLine"] = adds[-1] if size and adds else None

        def loop(self, node, kinds):
            for kind in kinds:
                self.enter(kind, node.lineno)
            self.generic_visit(node)
            del self.chain[len(self.chain) - len(kinds):]

        def visit_For(self, node):
            # The iterable is evaluated once, before the loop (`for _ in range(int(input()))`).
            self.visit(node.iter)
            self.enter(iter_kind(node.iter), node.lineno)
            self.visit(node.target)
            for st in node.body:
                self.visit(st)
            self.chain.pop()
            for st in node.orelse:
                self.visit(st)

        visit_AsyncFor = visit_For

        def visit_While(self, node):
            self.loop(node, [while_kind(node)])

        def visit_comprehension_like(self, node):
            self.loop(node, [iter_kind(g.iter) for g in node.generators])

        visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = visit_comprehension_like

        def visit_FunctionDef(self, node):
            # A function body is its own loop context: calls are counted where they happen.
            saved = self.chain
            self.chain = []
            self.functions.append(node.name)
            for inner in ast.walk(node):
                if isinstance(inner, ast.Call) and call_name(inner) == node.name:
                    out["recursiveFunctions"].append({"name": node.name, "line": node.lineno})
                    break
            self.generic_visit(node)
            self.functions.pop()
            self.chain = saved

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
            if self.size_depth() > 0:
                if name in ("input", "sys.stdin.readline", "sys.stdin.buffer.readline"):
                    out["inputInLoop"].append(line)
                elif name == "print" and id(node) not in prints_once:
                    out["printInLoop"].append(line)
            if self.chain:
                if name.endswith(".pop") and len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
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
