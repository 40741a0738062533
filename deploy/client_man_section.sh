#!/bin/sh
# Writes a help2man include file with `sudoku-client solve --help` as a section of its own, so
# that the man page carries the command's options. Usage: client_man_section.sh CLIENT OUTPUT
set -eu
{
  echo '[SOLVE COMMAND]'
  echo '.nf'
  # Backslashes escaped, and lines that open with . or ' (roff requests) made plain text.
  "$1" solve --help | sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"
  echo '.fi'
} >"$2"
