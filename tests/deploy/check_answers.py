#!/usr/bin/env python3
"""Checks `sudoku-client solve` output against its input: every line a solution.

usage: check_answers.py PUZZLES OUTPUT

PUZZLES holds one 81-character puzzle a line ('1'-'9' givens, anything else blank), each with a
solution; OUTPUT must hold, line for line, an 81-digit grid that is valid (each row, column and
box holds 1-9) and keeps every given. Prints "checked N answers" or the first wrong line, and
exits 1 when a line is wrong or missing. Shares no code with the solver (nor with
tests/support/sudoku_check.cc, which is C++ and not in the packages the deploy tests install).
"""
import sys

UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)]
         + [[r * 9 + c for r in range(9)] for c in range(9)]
         + [[(b // 3 * 3 + i // 3) * 9 + b % 3 * 3 + i % 3 for i in range(9)] for b in range(9)])
DIGITS = set("123456789")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        puzzles = [line.strip() for line in f if line.strip()]
    with open(sys.argv[2]) as f:
        answers = [line.rstrip("\n") for line in f]
    if len(answers) != len(puzzles):
        print(f"{len(answers)} answers for {len(puzzles)} puzzles")
        return 1
    for number, (puzzle, answer) in enumerate(zip(puzzles, answers), 1):
        ok = (len(answer) == 81 and set(answer) <= DIGITS
              and all(p not in DIGITS or p == a for p, a in zip(puzzle, answer))
              and all(len({answer[i] for i in unit}) == 9 for unit in UNITS))
        if not ok:
            print(f"line {number}: {answer!r} does not solve {puzzle}")
            return 1
    print(f"checked {len(answers)} answers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
