"""Target boards: bundles, board runs, imported reports, merged reports, LAVA.

`python3 -m y2038lab boards COMMAND --help` describes each command; scripts/lab
bundle / board-run / import / merge call the first four of COMMANDS, each a
function of this package's modules.  Bad input: one line naming the file and
the problem, exit 2, nothing written.
"""
import argparse
import importlib
import os
import sys

from y2038lab.core import fsio

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _module(name):
    return importlib.import_module(f"y2038lab.boards.{name}")  # only the command's own module


def _print(result):
    print("\n".join(result) if isinstance(result, list) else result)
    return 0


def lava_values(items):
    if bad := [item for item in items if "=" not in item]:
        raise fsio.InputError(f"lava-job: --set {bad[0]!r} is not NAME=VALUE")
    return dict(item.split("=", 1) for item in items)


COMMANDS = {
    "bundle": lambda a: _print(_module("bundle").bundle(a.abi, TOP, out=a.out, werror=a.werror)),
    "board-run": lambda a: _module("run").main(a, TOP),
    "import": lambda a: _print(_module("importer").import_results(a.results, TOP, out=a.out)),
    "merge": lambda a: _print(_module("merge").merge(a.inputs, TOP, out=a.out)),
    "smoke": lambda a: _print(_module("run").smoke(a.abis, TOP, werror=a.werror)),
    "lava-validate": lambda a: _print(_module("lava").validate_all(TOP)),
    "lava-job": lambda a: sys.stdout.write(_module("lava").render_job(TOP, lava_values(a.set))) and 0,
    "lava-results": lambda a: _print(_module("lava").convert(a.export, TOP, out=a.out)),
}


def parser():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("bundle", help="cross-build and pack the bundle of one ABI")
    b.add_argument("abi", help="armhf, aarch64, riscv64 or i386")
    b.add_argument("--out", help="the tarball (default build/bundles/y2038-bundle-<abi>.tar.gz)")
    b.add_argument("--werror", action="store_true", help="build with -Werror (CI)")

    r = sub.add_parser("board-run", help="run a bundle on a board over ssh, or in place (--local)")
    r.add_argument("host", nargs="?", help="the board's address (ssh)")
    r.add_argument("--local", metavar="DIR", help="run the unpacked bundle DIR here instead")
    r.add_argument("--bundle", help="the bundle tarball to copy (ssh); default from --abi")
    r.add_argument("--abi", help="pick build/bundles/y2038-bundle-<abi>.tar.gz")
    r.add_argument("--user", help="ssh user")
    r.add_argument("--port", type=int, help="ssh port")
    r.add_argument("--identity", help="ssh identity file")
    r.add_argument("--remote-dir", default="/tmp/y2038-lab", help="working folder on the board")
    mode = r.add_mutually_exclusive_group()
    for m in ("quick", "full", "smoke"):
        mode.add_argument(f"--{m}", dest="mode", action="store_const", const=m)
    r.add_argument("--minutes", help="the run's time budget in minutes (run.sh's default: 10, --full 60, "
                                     "--smoke 0.5), spread over the passes and the paired processes")
    r.add_argument("--board", help="the board's name in the results")
    r.add_argument("--emulator", help="with --local: run every program through this (marks it emulated)")
    r.add_argument("--no-tests", action="store_true", help="skip the tests")
    r.add_argument("--results", help="where the results tarball goes (default results/boards)")
    r.set_defaults(mode="quick")

    i = sub.add_parser("import", help="write reports/<abi>-<board>/REPORT.md from a results tarball")
    i.add_argument("results", help="y2038-results-*.tar.gz from run.sh")
    i.add_argument("--out", help="the report folder (default reports/<abi>-<board>)")

    m = sub.add_parser("merge", help="one report across result sets (host and boards)")
    m.add_argument("inputs", nargs="+", metavar="FILE",
                   help="suite JSON: results/<target>-<date>/bench-<abi>.json, reports/<abi>-<board>/bench-<abi>.json, "
                        "or the JSON of lava-results")
    m.add_argument("--out", help="the report folder (default reports/merged)")

    s = sub.add_parser("smoke", help="CI: build each ABI's bundle, run it under qemu-user, import it")
    s.add_argument("abis", nargs="+", metavar="ABI")
    s.add_argument("--werror", action="store_true")

    sub.add_parser("lava-validate", help="validate boards/lava/ with lava_common's schemas")
    j = sub.add_parser("lava-job", help="render boards/lava/job-template.yaml, validated, to stdout")
    j.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="one placeholder's value")
    c = sub.add_parser("lava-results", help="LAVA results (lavacli/REST export) to the suite's JSON")
    c.add_argument("export", help="YAML or JSON export of one job's results")
    c.add_argument("--out", help="the JSON to write (default beside EXPORT, .json)")
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    return fsio.run_main(lambda: COMMANDS[args.cmd](args), f"{fsio.prog()} {args.cmd}")


if __name__ == "__main__":
    sys.exit(main())
