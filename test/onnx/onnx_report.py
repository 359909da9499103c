"""onnx_report.py - the conformance results as TAP, a summary, and markdown.

TAP counts what must hold: each model that passes is one `ok`, a crash or
a hang is a `not ok`, and the suite's pass rate against its threshold is
one more line; a plain failure (an op not lowered yet, a wrong value) is a
TAP comment, so CI counts real progress and real breakage, not the
importer's backlog. The markdown table (docs/onnx-conformance.md) lists
every suite and backend, every out-of-scope model with its reason and
every remaining failure with its first error line.
"""

import collections
import re

PASS, FAIL, CRASH, HANG, SCOPE = "pass", "fail", "crash", "hang", "scope"


class Tap:
    def __init__(self, out):
        self.out = out
        self.n = 0

    def line(self, ok, text):
        self.n += 1
        print(f"{'ok' if ok else 'not ok'} {self.n} - {text}", file=self.out,
              flush=True)

    def comment(self, text):
        for part in text.splitlines() or [""]:
            print(f"# {part}", file=self.out, flush=True)

    def plan(self):
        print(f"1..{self.n}", file=self.out, flush=True)


def tally(results):
    """{(suite, device): Counter of outcomes} in first-seen order."""
    table = {}
    for r in results:
        table.setdefault((r["suite"], r["device"]), collections.Counter())[
            r["outcome"]] += 1
    return table


def rate(c):
    in_scope = c[PASS] + c[FAIL] + c[CRASH] + c[HANG]
    return in_scope, (100.0 * c[PASS] / in_scope if in_scope else 100.0)


def summary_lines(results):
    lines = []
    for (suite, device), c in tally(results).items():
        in_scope, pct = rate(c)
        lines.append(f"{suite} on {device}: {c[PASS]} passed, {c[FAIL]} failed, "
                     f"{c[CRASH]} crashed, {c[HANG]} hung, {c[SCOPE]} out of "
                     f"scope ({c[PASS]}/{in_scope} in scope = {pct:.1f}%)")
    return lines


def _shape(reason):
    """A failure's reason with its names and numbers blanked, to group by."""
    r = re.sub(r"/\S*?\.onnx", "MODEL.onnx", reason)
    r = re.sub(r"'[^']*'", "'…'", r)
    return re.sub(r"\b\d+(\.\d+)?\b", "N", r)


def markdown(results, header):
    out = [header, ""]
    out.append("| Suite | Backend | In scope | Passed | Failed | Crashed | Hung "
               "| Out of scope | Pass rate |")
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for (suite, device), c in tally(results).items():
        in_scope, pct = rate(c)
        out.append(f"| {suite} | {device} | {in_scope} | {c[PASS]} | {c[FAIL]} "
                   f"| {c[CRASH]} | {c[HANG]} | {c[SCOPE]} | {pct:.1f}% |")
    suites = list(dict.fromkeys(r["suite"] for r in results))

    out += ["", "## Out of scope", "",
            "Detected from each model (its op types, domains and value types; "
            "see test/onnx/onnx_scope.py), not from a list of test names.", ""]
    for suite in suites:
        seen = {}
        for r in results:
            if r["suite"] == suite and r["outcome"] == SCOPE:
                seen.setdefault(r["reason"].split(" (")[0], set()).add(r["test"])
        if not seen:
            continue
        out.append(f"### {suite}")
        out.append("")
        for why, tests in sorted(seen.items()):
            out.append(f"- {why} ({len(tests)}): {', '.join(sorted(tests))}")
        out.append("")

    out += ["## Remaining failures", "",
            "Grouped by the first error line, with names and numbers blanked; "
            "a test that fails on only some backends names them.", ""]
    for suite in suites:
        groups = collections.OrderedDict()
        for r in results:
            if r["suite"] == suite and r["outcome"] in (FAIL, CRASH, HANG):
                key = f"{r['outcome']}: {_shape(r['reason'])}"
                groups.setdefault(key, collections.OrderedDict()).setdefault(
                    r["test"], []).append(r["device"])
        if not groups:
            continue
        out.append(f"### {suite}")
        out.append("")
        for key, tests in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            out.append(f"- {len(tests)} × `{key}`")
            everywhere = {r["device"] for r in results if r["suite"] == suite}
            names = [t if set(d) == everywhere else f"{t} ({', '.join(d)})"
                     for t, d in tests.items()]
            out.append(f"  - {', '.join(names)}")
        out.append("")
    return "\n".join(out) + "\n"
