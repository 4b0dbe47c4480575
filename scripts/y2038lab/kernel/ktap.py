"""The one reader of the lab's KTAP (what `kunit.py exec --raw_output=kunit` prints, or a board's
dmesg after loading the suite's module: its time stamps are dropped).

KTAP v1 as KUnit writes it: "# Subtest: NAME" opens a block, its results follow at
the same indentation, and the block's own "ok N NAME" closes it one level (4 spaces)
out; "# SKIP reason" after a result marks a skip.  The suite's figures are diagnostic
lines "# [test: ]y2038: KIND key=value ..." (values may be double-quoted).
"""
import re
from dataclasses import dataclass, field

from y2038lab.core import fsio

RESULT = re.compile(r"^( *)(not ok|ok) \d+(?: (?:- )?(.*?))?(?: # (SKIP|TODO)\b ?(.*))?$")
SUBTEST = re.compile(r"^( *)# Subtest: (.+)$")
PLAN = re.compile(r"^1\.\.(\d+)$")
STAMP = re.compile(r"^\[ *\d+\.\d+\] ?")   # dmesg's time stamp, on a board's log
FIGURE = re.compile(r"# (?:[\w.]+: )?y2038: (\w+) (.*)$")
PAIR = re.compile(r'(\w+)=("[^"]*"|\S+)')


@dataclass
class Case:
    path: tuple          # (suite, test[, parameter])
    ok: bool
    skipped: bool = False
    reason: str = ""
    log: list = field(default_factory=list)   # the diagnostic lines just before the result

    @property
    def name(self):
        return " / ".join(self.path)


@dataclass
class Ktap:
    source: str
    cases: list = field(default_factory=list)
    figures: list = field(default_factory=list)   # (kind, {key: value})
    planned: int = 0
    top: int = 0                                  # top-level results seen

    @property
    def failed(self):
        return [c for c in self.cases if not c.ok and not c.skipped]

    def suites(self):
        """{suite: (passed, failed, skipped)} over the leaf cases."""
        leaves = [c for c in self.cases if not any(o.path[:len(c.path)] == c.path and o is not c
                                                    for o in self.cases)]
        out = {}
        for c in leaves:
            p, f, s = out.get(c.path[0], (0, 0, 0))
            out[c.path[0]] = (p + (c.ok and not c.skipped), f + (not c.ok and not c.skipped), s + c.skipped)
        return out

    def figure(self, kind, **match):
        return [f for k, f in self.figures if k == kind and all(f.get(a) == v for a, v in match.items())]


def parse(text, source):
    """A Ktap from TEXT (SOURCE names it in errors); InputError when no KTAP is there or the
    run stopped early (fewer top-level results than its plan: a crash or a timeout)."""
    out, stack, pending = Ktap(source), [], []
    lines = [STAMP.sub("", x) for x in text.splitlines()]
    start = next((i for i, x in enumerate(lines) if x.strip().startswith(("KTAP version", "TAP version"))), None)
    if start is None:
        raise fsio.InputError(f"{source}: no KTAP output (no 'KTAP version' line)")
    for line in lines[start + 1:]:
        line = line.rstrip()
        if m := SUBTEST.match(line):
            stack.append((len(m[1]), m[2].strip()))
        elif m := RESULT.match(line):
            depth = len(m[1])
            path = tuple(n for d, n in stack if d <= depth) + ((m[3] or "").strip(),)
            stack = [(d, n) for d, n in stack if d <= depth]
            out.cases.append(Case(path, m[2] == "ok", m[4] == "SKIP", (m[5] or "").strip(), pending))
            pending = []
            out.top += depth == 0
        elif m := PLAN.match(line):
            out.planned = out.planned or int(m[1])
        else:
            if m := FIGURE.search(line):
                out.figures.append((m[1], {k: v.strip('"') for k, v in PAIR.findall(m[2])}))
            if line.strip().startswith("#"):
                pending.append(line.strip())
    if out.planned == 0 or out.top < out.planned:
        raise fsio.InputError(f"{source}: the kernel stopped after {out.top} of {out.planned} suites "
                              f"(crash, panic or timeout); last lines: {' | '.join(lines[-3:])[:300]}")
    return out
