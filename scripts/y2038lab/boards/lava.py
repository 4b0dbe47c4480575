"""The board farm: LAVA job and test definitions, and LAVA results back.

boards/lava/ holds a job template (job-template.yaml, @NAME@ placeholders) and a test definition in
Linaro's test-definitions style (y2038-board.yaml, y2038-board.sh, send-to-lava.sh), checked with
Debian's lava-common (the dispatcher's own schemas; no LAVA server or dispatcher needed).
"""
import json
import os
import re

from y2038lab.core import abis, fsio
from y2038lab.core.fsio import InputError

PLACEHOLDERS = ("DEVICE_TYPE", "ABI", "MODE", "BOARD", "KERNEL_URL", "KERNEL_TYPE", "DTB_URL",
                "ROOTFS_URL", "BUNDLE_URL", "REPOSITORY")
EXAMPLE = {"DEVICE_TYPE": "bcm2711-rpi-4-b", "ABI": "aarch64", "MODE": "quick", "BOARD": "rpi4",
           "KERNEL_URL": "https://lava.example.org/images/rpi4/Image",
           "KERNEL_TYPE": "image", "DTB_URL": "https://lava.example.org/images/rpi4/bcm2711-rpi-4-b.dtb",
           "ROOTFS_URL": "https://lava.example.org/images/debian-bookworm-arm64.tar.xz",
           "BUNDLE_URL": "https://lava.example.org/y2038/y2038-bundle-aarch64.tar.gz",
           "REPOSITORY": "https://git.example.org/y2038-lab.git"}
CHECKS = {"ABI": lambda v: v in abis.CROSS, "MODE": lambda v: v in ("quick", "full", "smoke"),
          "KERNEL_TYPE": lambda v: v in ("image", "zimage", "uimage"),
          "BOARD": lambda v: re.match(r"^[a-z0-9._-]*$", v) is not None}


def lava_folder(top):
    return os.path.join(top, "boards", "lava")


def _schemas():
    try:
        import lava_common.schemas
        import lava_common.schemas.test.testdef
        import voluptuous
        import yaml
    except ImportError as err:
        raise InputError(f"lava_common not importable ({err}): Debian package lava-common") from err
    return lava_common.schemas, voluptuous, yaml


def render_job(top, values):
    """The job template with VALUES filled in, checked by lava_common.schemas.validate(job,
    strict=True); returns its text."""
    schemas, voluptuous, yaml = _schemas()
    wrong = {"unknown": sorted(set(values) - set(PLACEHOLDERS)),
             "missing": [p for p in PLACEHOLDERS if p not in values]}
    if any(wrong.values()):
        problems = "; ".join(f"{what} {', '.join(keys)}" for what, keys in wrong.items() if keys)
        raise InputError(f"lava-job: {problems} (placeholders: {', '.join(PLACEHOLDERS)})")
    for key, value in values.items():
        if re.search(r'["\\\n]', value) or (key in CHECKS and not CHECKS[key](value)):
            raise InputError(f"lava-job: {key}={value!r} is not a valid value")
    path = os.path.join(lava_folder(top), "job-template.yaml")
    text = fsio.read_text(path, "LAVA job template")
    for key, value in values.items():
        text = text.replace(f"@{key}@", value)
    left = re.findall(r"@[A-Z_]+@", "\n".join(line for line in text.splitlines()
                                              if not line.lstrip().startswith("#")))
    if left:
        raise InputError(f"{path}: placeholder {left[0]} has no value")
    try:
        schemas.validate(yaml.safe_load(text), strict=True)
    except voluptuous.Invalid as err:
        raise InputError(f"{path}: not a valid LAVA job once rendered: {err}") from err
    except yaml.YAMLError as err:
        raise InputError(f"{path}: not YAML once rendered ({err})".splitlines()[0]) from None
    return text


def validate_testdef(top):
    schemas, voluptuous, yaml = _schemas()
    path = os.path.join(lava_folder(top), "y2038-board.yaml")
    try:
        data = yaml.safe_load(fsio.read_text(path, "LAVA test definition"))
    except yaml.YAMLError as err:
        raise InputError(f"{path}: not YAML ({err})".splitlines()[0]) from None
    try:
        schemas.test.testdef.validate(data)
    except voluptuous.Invalid as err:
        raise InputError(f"{path}: not a valid LAVA test definition: {err}") from err
    steps = " ".join(data["run"]["steps"])
    for script in re.findall(r"\./([\w.-]+\.sh)", steps):
        if not os.access(os.path.join(lava_folder(top), script), os.X_OK):
            raise InputError(f"{path}: its steps call {script}, not an executable in boards/lava/")
    for param in re.findall(r"\$\{(\w+)\}", steps):
        if param not in data.get("params", {}):
            raise InputError(f"{path}: its steps use ${{{param}}}, which params does not define")
    return data


def validate_all(top):
    """CI: the template rendered with EXAMPLE; the test definition and the scripts its steps call."""
    render_job(top, EXAMPLE)
    data = validate_testdef(top)
    return [f"boards/lava/job-template.yaml: a valid LAVA job (lava_common.schemas.validate, strict) "
            f"once rendered with {len(PLACEHOLDERS)} example values",
            f"boards/lava/y2038-board.yaml: a valid test definition ({data['metadata']['format']}), "
            f"its scripts present"]


def headline_patterns(top):
    lines = fsio.read_text(os.path.join(top, "boards", "headline.txt"), "headline list").splitlines()
    return [re.compile(line.strip()) for line in lines if line.strip() and not line.startswith("#")]


def read_export(path):
    """The list of test cases in a LAVA results export (YAML list or REST JSON)."""
    _, _, yaml = _schemas()
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from err
    except yaml.YAMLError as err:
        raise InputError(f"{path}: neither YAML nor JSON ({err.__class__.__name__})") from err
    if isinstance(data, dict) and isinstance(data.get("results"), list):
        data = data["results"]
    if not isinstance(data, list) or not all(isinstance(c, dict) and "name" in c for c in data):
        raise InputError(f"{path}: not a LAVA results export (a list of test cases with names)")
    return data


def convert(path, top, out=None):
    """A job's results as LAVA exports them (`lavacli results JOB --yaml`, /results/JOB/yaml, or the
    REST API's /api/v0.2/jobs/JOB/tests/ JSON) to the suite's JSON: one median per headline benchmark,
    the board's facts from the y2038.* cases, for `scripts/lab merge`; returns its path."""
    cases = read_export(path)
    patterns = headline_patterns(top)
    facts, benchmarks, tests, unknown = {}, [], {"pass": 0, "fail": 0, "skip": 0}, []
    jobs = {str(c.get("job", "?")) for c in cases}
    for c in cases:
        name, result = str(c["name"]), str(c.get("result", "unknown"))
        if m := re.match(r"^y2038\.(abi|board|mode|emulated)\.(.+)$", name):
            facts[m.group(1)] = m.group(2)
        elif name == "y2038.cpus":
            facts["cpus"] = c.get("measurement")
        elif name.startswith("test."):
            tests[result if result in tests else "skip"] += 1
        elif name.startswith("bench."):
            run_name = name[len("bench."):].replace(".", "/").replace("-", ":")
            if not any(p.search(run_name) for p in patterns):
                unknown.append(name)
                continue
            unit = c.get("unit") or (c.get("metadata") or {}).get("units")
            try:
                ns = float(c.get("measurement"))
            except (TypeError, ValueError) as err:
                raise InputError(f"{path}: {name}: measurement {c.get('measurement')!r} is not a number") from err
            if unit != "ns":
                raise InputError(f"{path}: {name}: unit {unit!r}, expected ns")
            benchmarks.append({"name": run_name + "_median", "run_name": run_name, "run_type": "aggregate",
                               "aggregate_name": "median", "real_time": ns, "time_unit": "ns",
                               "threads": int(run_name.rsplit("threads:", 1)[1]) if "threads:" in run_name else 1})
    if "abi" not in facts:
        raise InputError(f"{path}: no y2038.abi.* case: not the results of a y2038-board job")
    if not benchmarks:
        raise InputError(f"{path}: no bench.* case with a measurement: the run produced no figure")
    context = {
        "date": str(min((c.get("logged") or "?") for c in cases)), "host_name": facts.get("board", "?"),
        "y2038_abi": abis.of(facts["abi"], abis.CROSS).name, "y2038_board": facts.get("board", "?"),
        "y2038_board_mode": facts.get("mode", "?"),
        "y2038_board_emulated": "yes: the run reported y2038.emulated.yes" if facts.get("emulated") == "yes" else "no",
        "y2038_board_present_cpus": int(float(facts["cpus"])) if facts.get("cpus") else 0,
        "y2038_source": f"LAVA job {', '.join(sorted(jobs))}: {os.path.basename(path)} (medians only)",
        "y2038_lava_tests": f"{tests['pass']} passed, {tests['fail']} failed, {tests['skip']} skipped",
        "y2038_lava_unknown_cases": unknown,
    }
    out = out or re.sub(r"\.(ya?ml|json)$", "", path) + ".suite.json"
    fsio.write_text(out, json.dumps({"context": context, "benchmarks": benchmarks}, indent=2) + "\n")
    return out
