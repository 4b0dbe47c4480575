"""y2038lab: the Python side of the y2038 inode timestamp lab.

The command lines in scripts/ (bench_report.py, layouts_report.py,
report.py, perf_report.py, slub_model.py) and `scripts/lab` call these
modules; each has a test under tests/ run by CTest.

  fsio        every file written: atomic_open/write_text/save_figure, OutputSet (several files
              replaced together or not at all), read_text, InputError and run_main (one line, exit 2)
  envvars     the Y2038_* environment variables, checked before anything runs
  results     Google Benchmark JSON parsed once into Records (validated); the naming rule
  sizes       reports/layouts/sizes-<abi>.csv, read and checked
  tables      Markdown tables of a run and the README summary
  plots       PNG plots of a run
  runchecks   how a run went: CPU speed change, two-thread ceiling, layout twins as controls
  benchreport the benchmark fragment (scripts/bench_report.py)
  benchrun    `scripts/lab bench`: CPU probes, the pass plan, merge, staging, replace when done
  fragment    report fragments quoting a command or the layouts tables
  assemble    REPORT.md and README's results block (scripts/report.py)
  pahole      pahole runs and parser, the layout probe manifests
  layouts     the layouts report (scripts/layouts_report.py); slab: its SLUB tables
  slub_model  the SLUB order model (scripts/slub_model.py)
  fuzzrun     `scripts/lab test`'s fuzzing step

Every file a module writes goes through fsio (a temporary file in the
destination folder, renamed into place once complete), and every bad input is
reported as one line through fsio.InputError.
"""
