"""`scripts/lab test`'s fuzzing step: every libFuzzer target for Y2038_FUZZ_SECONDS.

    python3 -m y2038lab fuzz --build build/fuzz --corpus tests/fuzz/corpus [--source tests/fuzz]

With --source, builds the targets with clang first (no clang: says so and skips, as
they need libFuzzer).  For each committed seed corpus tests/fuzz/corpus/<target>/ runs
build/fuzz/<target> for Y2038_FUZZ_SECONDS (default 30; 0 skips), one target per CPU at a
time; new inputs go to
build/fuzz/corpus/<target>/, the log to build/fuzz/<target>.log.  A crash or a failed
property fails the step, its reproducer left in build/fuzz/artifacts/<target>/ and
the log's end printed.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

from y2038lab.core import envvars, fsio


def log(message):
    print(f"{fsio.prog()}: {message}", file=sys.stderr, flush=True)


def run_target(build, corpus, target, seconds):
    kept, artifacts = os.path.join(build, "corpus", target), os.path.join(build, "artifacts", target)
    os.makedirs(kept, exist_ok=True)
    os.makedirs(artifacts, exist_ok=True)
    log_path = os.path.join(build, f"{target}.log")
    log(f"{target} for {seconds}s (seed corpus: {len(os.listdir(os.path.join(corpus, target)))} files)")
    with open(log_path, "w", encoding="utf-8") as out:
        proc = subprocess.run([os.path.join(build, target), f"-max_total_time={seconds}",
                               "-print_final_stats=1", f"-artifact_prefix={artifacts}/", kept,
                               os.path.join(corpus, target)], stdout=out, stderr=subprocess.STDOUT)
    with open(log_path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    if proc.returncode != 0:
        sys.stderr.write("\n".join(lines[-30:]) + "\n")
        raise fsio.InputError(f"{target} failed (exit {proc.returncode}); reproducer in {artifacts}/, "
                              f"log {log_path}")
    for line in lines:
        if line.startswith(("Done", "stat::number_of_executed_units")):
            print(line)
    log(f"{target}: {len(os.listdir(kept))} inputs kept in {kept}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", required=True, help="the fuzz build folder (build/fuzz)")
    parser.add_argument("--corpus", required=True, help="the seed corpora (tests/fuzz/corpus)")
    parser.add_argument("--source", help="the fuzz targets' CMake project, built into --build with clang")
    args = parser.parse_args(argv)
    if (seconds := envvars.fuzz_seconds()) == 0:
        log("skipped (Y2038_FUZZ_SECONDS=0)")
        return 0
    if args.source:
        if not shutil.which("clang"):
            log("clang not found, fuzz targets NOT run (scripts/lab deps test)")
            return 0
        for cmd in (["cmake", "-S", args.source, "-B", args.build, "-DCMAKE_C_COMPILER=clang"],
                    ["cmake", "--build", args.build, "-j", str(os.cpu_count() or 1)]):
            if subprocess.run(cmd, stdout=subprocess.DEVNULL if cmd[1] == "-S" else None).returncode != 0:
                raise fsio.InputError(f"fuzz targets: {' '.join(cmd)} failed")
    targets = sorted(d for d in os.listdir(args.corpus) if os.path.isdir(os.path.join(args.corpus, d))) \
        if os.path.isdir(args.corpus) else []
    if not targets:
        raise fsio.InputError(f"{args.corpus}: no seed corpus folder")
    for target in targets:  # all built, before minutes are spent on the first
        if not os.access(os.path.join(args.build, target), os.X_OK):
            raise fsio.InputError(f"{os.path.join(args.build, target)}: no fuzz target built for the corpus "
                                  f"{os.path.join(args.corpus, target)}")
    # One target per CPU at a time: each runs single-threaded for its SECONDS, so the targets get the
    # same fuzzing as one after another, in a fraction of the wall time.  Every target runs to its end;
    # the first failure (by target name) is then raised.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(os.sched_getaffinity(0)))) as pool:
        futures = [pool.submit(run_target, args.build, args.corpus, target, seconds) for target in targets]
        errors = [f.exception() for f in futures]
    if failed := [e for e in errors if e is not None]:
        raise failed[0]
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
