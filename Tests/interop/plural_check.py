#!/usr/bin/env python3
"""CLDR plural categories from PyPI's babel, to check tminus's own plural rules.

Reads {"languages": ["en", "zh-Hans", ...], "numbers": [0, 1, 2, ...]} on stdin
and prints {"en": ["other", "one", "other", ...], ...}: the category of each
whole number, in order, by babel's copy of CLDR.
"""
import json
import sys

from babel import Locale


def main():
    request = json.load(sys.stdin)
    answer = {}
    for code in request["languages"]:
        locale = Locale.parse(code.replace("-", "_"))
        answer[code] = [locale.plural_form(n) for n in request["numbers"]]
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
