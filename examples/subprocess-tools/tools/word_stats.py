#!/usr/bin/env python3
"""Counts the words and lines of a text, and its most frequent words.

A Toolwright subprocess tool: reads {"text": string} as JSON on stdin and prints
{"words": n, "lines": n, "top": [{"word": w, "count": n}, ...]} as JSON on stdout.
Plain Python 3, no packages.
"""
import json
import re
import sys
from collections import Counter

TOP = 5


def word_stats(text):
    words = [word.lower() for word in re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", text)]
    counts = Counter(words)
    # The most frequent first; equal counts in alphabetical order, so the result does not depend on the text's order.
    top = sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:TOP]
    return {
        "words": len(words),
        "lines": len(text.splitlines()),
        "top": [{"word": word, "count": count} for word, count in top],
    }


def main():
    arguments = json.load(sys.stdin)
    text = arguments.get("text")
    if not isinstance(text, str):
        print("word_stats: the argument 'text' must be a string", file=sys.stderr)
        return 2
    json.dump(word_stats(text), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
