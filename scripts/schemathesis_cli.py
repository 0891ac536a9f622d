"""Runs the schemathesis command line with one guard against a CPython 3.11.7 bug.

CPython before 3.11.8 (gh-106905) can raise `SystemError: AST constructor recursion depth mismatch` from
`ast.parse` when it is called deep in the stack. Hypothesis calls `ast.parse` only to print a readable
description of a filter lambda, and schemathesis's coverage phase hits it at random on some operations, which
ends the run with a "Runtime Error" that says nothing about the server under test. A description is cosmetic,
so here it falls back to hypothesis's own "<unknown>" form instead of stopping the run. Everything else is
schemathesis unchanged.
"""
import sys

from hypothesis.internal import lambda_sources

_describe = lambda_sources._lambda_description


def _describe_or_unknown(f, *args, **kwargs):
    try:
        return _describe(f, *args, **kwargs)
    except SystemError:
        return "lambda: <unknown>"


lambda_sources._lambda_description = _describe_or_unknown

import schemathesis.cli  # noqa: E402  (after the guard is in place)

if __name__ == "__main__":
    sys.argv[0] = "schemathesis"
    schemathesis.cli.schemathesis()
