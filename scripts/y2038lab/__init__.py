"""y2038lab: the Python side of the y2038 inode timestamp lab.

Modules here are imported by the thin command-line scripts in scripts/ and by
the tests under tests/.  Every file a module writes goes through fsio (a
temporary file in the destination folder, renamed into place once complete),
and every bad input is reported as one line through fsio.InputError.
"""
