#!/usr/bin/env python3
"""Dates in other calendars, from PyPI's lunardate (Chinese, 1900-2099) and
convertdate (Hebrew, arithmetic Islamic), to check tminus's RSCALE expansion
against conversions that share no code with ICU.

Reads {"cases": [case, ...]} on stdin and prints one list of ISO dates per case:
  {"kind": "chineseNewYear", "years": [first, last]}             Gregorian years
  {"kind": "chineseLeapMonth", "years": [...], "month": 4, "day": 10, "skip": "BACKWARD"}
      the date in the leap month, or what SKIP makes of it in years without one
  {"kind": "hebrew", "years": [...], "month": "5L", "day": 8, "skip": "FORWARD"}
      Hebrew years, RFC 7529 month numbers (1 Tishri ... 5L Adar I, 6 Adar ... 12 Elul)
  {"kind": "islamic", "years": [...], "month": 9, "day": 1}      arithmetic (civil) Islamic years
"""
import json
import sys

from convertdate import gregorian, hebrew, islamic
from lunardate import LunarDate


def chinese_leap_birthday(year, month, day, skip):
    try:
        return LunarDate(year, month, day, True).to_solar_date()
    except ValueError:
        if skip == "OMIT":
            return None
        return LunarDate(year, month if skip == "BACKWARD" else month % 12 + 1, day, False).to_solar_date()


def hebrew_date(year, month, day, skip):
    """RFC 7529 numbers Hebrew months 1 (Tishri) to 12 (Elul), with 5L for Adar I;
    convertdate numbers them from Nisan (1), with Adar 12, Adar II 13 in leap years."""
    leap = hebrew.leap(year)
    if month == "5L":
        if not leap:
            if skip == "OMIT":
                return None
            month = "5" if skip == "BACKWARD" else "6"
        else:
            return hebrew.to_gregorian(year, 12, day)
    number = int(month)
    if number == 6:
        converted = 13 if leap else 12
    else:
        converted = number + 6 if number <= 5 else number - 6
    length = hebrew.month_length(year, converted)
    if day > length:
        if skip == "OMIT":
            return None
        if skip == "BACKWARD":
            day = length
        else:
            return gregorian.from_jd(hebrew.to_jd(year, converted, length) + 1)
    return hebrew.to_gregorian(year, converted, day)


def iso(value):
    if value is None:
        return None
    if isinstance(value, tuple):
        return "%04d-%02d-%02d" % value
    return value.isoformat()


def dates(case):
    first, last = case["years"]
    years = range(first, last + 1)
    kind = case["kind"]
    if kind == "chineseNewYear":
        found = (LunarDate(y, 1, 1).to_solar_date() for y in years)
    elif kind == "chineseLeapMonth":
        found = (chinese_leap_birthday(y, case["month"], case["day"], case["skip"]) for y in years)
    elif kind == "hebrew":
        found = (hebrew_date(y, case["month"], case["day"], case["skip"]) for y in years)
    elif kind == "islamic":
        found = (islamic.to_gregorian(y, case["month"], case["day"]) for y in years)
    else:
        raise ValueError(f"unknown kind {kind}")
    return [iso(d) for d in found if d is not None]


def main():
    request = json.load(sys.stdin)
    json.dump({"dates": [dates(case) for case in request["cases"]]}, sys.stdout)


if __name__ == "__main__":
    main()
