# SPDX-License-Identifier: BSD-3-Clause
"""Command-line flags of the plot scripts: `--name value` pairs."""


def take(argv, defaults):
    """The values of the flags named in defaults (theirs where absent),
    each flag and its value removed from argv."""
    opts = dict(defaults)
    for flag in opts:
        if flag in argv:
            i = argv.index(flag)
            opts[flag] = argv[i + 1]
            del argv[i:i + 2]
    return opts
