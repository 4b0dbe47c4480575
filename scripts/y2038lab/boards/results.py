"""Reading one results tarball of boards/run.sh: the board's facts and its JSON.

A tarball holds one folder, y2038-results-<abi>-<board>-<date>/, with run.txt and manifest.txt
("key: value" lines), facts/ (copies of /proc and /sys files, uname, the kernel config and BTF when
readable), tests.txt, bench/ (the CPU probes, the Google Benchmark JSON of every process and
processes.txt, which lists them: pass, part, program, environment padding, seconds, repetitions,
minimum time) and headline.txt.  A run.sh older than the paired pass on boards left two passes,
bench.single.json and bench.threaded.json, and no processes.txt; both are read.  Everything is read
into memory and checked here; nothing is extracted to disk.
"""
import collections
import hashlib
import json
import os
import re
import tarfile

from y2038lab.bench.run import PROBES, Pass, merged
from y2038lab.core.fsio import InputError
from y2038lab.layouts import slub_model

MAX_BYTES = 256 << 20
REQUIRED = ("run.txt", "manifest.txt", "facts/uname.txt", "bench/probes-before.txt",
            "bench/probes-after.txt", "bench/bench.single.json", "bench/bench.threaded.json",
            "bench/bench.cmd")
CPU_FACTS = (("min_khz", "cpufreq/cpuinfo_min_freq"), ("max_khz", "cpufreq/cpuinfo_max_freq"),
             ("cur_khz", "cpufreq/scaling_cur_freq"), ("governor", "cpufreq/scaling_governor"),
             ("capacity", "cpu_capacity"), ("cluster", "topology/cluster_id"))  # what the report shows
# ARM's CPU part numbers (MIDR, /proc/cpuinfo "CPU part") for implementer 0x41.
ARM_PARTS = {0xb76: "ARM1176", 0xc07: "Cortex-A7", 0xc08: "Cortex-A8", 0xc09: "Cortex-A9",
             0xc0d: "Cortex-A12", 0xc0e: "Cortex-A17", 0xc0f: "Cortex-A15", 0xd03: "Cortex-A53",
             0xd04: "Cortex-A35", 0xd05: "Cortex-A55", 0xd07: "Cortex-A57", 0xd08: "Cortex-A72",
             0xd09: "Cortex-A73", 0xd0a: "Cortex-A75", 0xd0b: "Cortex-A76", 0xd0c: "Neoverse-N1",
             0xd0d: "Cortex-A77", 0xd41: "Cortex-A78", 0xd44: "Cortex-X1", 0xd46: "Cortex-A510",
             0xd47: "Cortex-A710", 0xd48: "Cortex-X2"}


class Results:
    """The files of one results tarball, by path inside its folder."""

    def __init__(self, path):
        self.path, self.files = path, {}
        try:
            with open(path, "rb") as f:
                self.sha256 = hashlib.sha256(f.read()).hexdigest()
            with tarfile.open(path, "r:*") as tar:
                total = 0
                for member in tar:
                    parts = member.name.split("/")
                    if member.name.startswith("/") or ".." in parts:
                        raise InputError(f"{path}: unsafe member name {member.name!r}")
                    if not (member.isfile() or member.isdir()):
                        raise InputError(f"{path}: {member.name}: not a regular file or folder")
                    self.top = getattr(self, "top", parts[0])
                    if parts[0] != self.top:
                        raise InputError(f"{path}: more than one top folder ({self.top}, {parts[0]})")
                    total += member.size
                    if total > MAX_BYTES:
                        raise InputError(f"{path}: more than {MAX_BYTES >> 20} MiB unpacked")
                    if member.isfile() and len(parts) > 1:
                        self.files["/".join(parts[1:])] = tar.extractfile(member).read()
        except (tarfile.TarError, EOFError, OSError) as err:
            why = str(err).splitlines()[0].rstrip(":")
            raise InputError(f"{path}: not a readable results tarball ({why})") from err
        if not re.match(r"^y2038-results-[a-z0-9_]+-[a-z0-9._-]+-\d{8}T\d{6}Z$", getattr(self, "top", "")):
            raise InputError(f"{path}: not a run.sh results tarball (top folder "
                             f"{getattr(self, 'top', 'missing')!r})")
        if missing := [f for f in REQUIRED if f not in self.files]:
            raise InputError(f"{path}: {self.top}/{missing[0]} missing (the run did not complete?)")

    def text(self, name, default=None):
        return self.files[name].decode("utf-8", "replace") if name in self.files else default

    def keys(self, name):
        """The "key: value" lines of NAME as a dict."""
        pairs = (line.partition(": ") for line in (self.text(name) or "").splitlines())
        return {key.strip(): value.strip() for key, sep, value in pairs if sep}

    def fact(self, path):
        """A copied /proc or /sys file, stripped, or None when it was not readable."""
        value = self.text("facts" + path)
        return None if value is None else value.replace("\0", " ").strip()

    def json(self, name):
        if name not in self.files:
            raise InputError(f"{self.path}: {self.top}/{name} missing (the run did not complete?)")
        try:
            data = json.loads(self.files[name])
        except (KeyError, ValueError, UnicodeDecodeError) as err:
            raise InputError(f"{self.path}: {self.top}/{name}: not valid JSON ({err})") from err
        if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list) \
                or not isinstance(data.get("context"), dict):
            raise InputError(f"{self.path}: {self.top}/{name}: not Google Benchmark JSON")
        return data


def cpu_models(cpuinfo):
    """{processor number: model text} from /proc/cpuinfo of any architecture."""
    models = {}
    for block in re.split(r"\n\s*\n", cpuinfo or ""):
        kv = {key.strip().lower(): value.strip()
              for key, sep, value in (line.partition(":") for line in block.splitlines()) if sep}
        if "processor" not in kv or not kv["processor"].isdigit():
            continue
        cur = int(kv["processor"])
        if kv.get("cpu implementer") and kv.get("cpu part"):
            impl, part = int(kv["cpu implementer"], 0), int(kv["cpu part"], 0)
            name = ARM_PARTS.get(part) if impl == 0x41 else None
            models[cur] = name or f"implementer {impl:#x} part {part:#x}"
            if kv.get("cpu revision"):
                models[cur] += f" r{kv.get('cpu variant', '0x0')[2:] or '0'}p{kv['cpu revision']}"
        else:
            models[cur] = kv.get("model name") or kv.get("uarch") or kv.get("isa") or kv.get("cpu") or "unknown"
    return models


def per_cpu(res):
    """[(cpu, {fact: value})] for every CPU folder the run copied."""
    cpus = sorted({int(m.group(1)) for name in res.files
                   for m in [re.match(r"^facts/sys/devices/system/cpu/cpu(\d+)/", name)] if m})
    return [(cpu, {k: res.fact(f"/sys/devices/system/cpu/cpu{cpu}/{f}") for k, f in CPU_FACTS}) for cpu in cpus]


def caches(res):
    """Distinct caches: [(level, type, size, ways, line, sharing)], sharing =
    "one per CPU" when every instance serves one CPU, else the CPU lists."""
    shared = {}
    for name in sorted(res.files):
        if not (m := re.match(r"^facts(/sys/devices/system/cpu/cpu\d+/cache/index\d+/)level$", name)):
            continue
        key = tuple(res.fact(m.group(1) + f) or "?" for f in
                    ("level", "type", "size", "ways_of_associativity", "coherency_line_size"))
        shared.setdefault(key, {})[res.fact(m.group(1) + "shared_cpu_list") or "?"] = None  # in order seen
    return [key + ("one per CPU" if all(c.isdigit() for c in lists) else "; ".join(lists),)
            for key, lists in sorted(shared.items())]


def probes(res, when):
    """{cpu: {probe: ns}} from bench/probes-WHEN.txt ("cpu acc_ns load_ns")."""
    out = {}
    for line in (res.text(f"bench/probes-{when}.txt") or "").splitlines():
        fields = line.split()
        try:
            out[fields[0]] = {p: float(ns) for p, ns in zip(PROBES, fields[1:3], strict=True)}
        except (ValueError, IndexError, TypeError) as err:
            raise InputError(f"{res.path}: bench/probes-{when}.txt: bad line {line!r}") from err
    if not out:
        raise InputError(f"{res.path}: bench/probes-{when}.txt: no CPU measured")
    return out


def facts(res):
    """The board's facts the reports need, as one dict."""
    run, manifest, uname = res.keys("run.txt"), res.keys("manifest.txt"), res.keys("facts/uname.txt")
    models = cpu_models(res.fact("/proc/cpuinfo"))
    present = slub_model.cpulist_count(res.fact("/sys/devices/system/cpu/present"))
    online = slub_model.cpulist_count(res.fact("/sys/devices/system/cpu/online"))
    cpu_text = " + ".join(f"{n} x {m}" for m, n in collections.Counter(models.values()).items()) or "unknown"
    board_model = res.fact("/sys/firmware/devicetree/base/model") or res.fact("/sys/class/dmi/id/product_name")
    emulated = run.get("emulated", "no") == "yes"
    why = run.get("emulated_why", "")
    os_name = re.search(r'^PRETTY_NAME=("?)(.*)\1$', res.fact("/etc/os-release") or "", re.M)
    if not emulated and re.search(r"GenuineIntel|AuthenticAMD", res.fact("/proc/cpuinfo") or "") \
            and manifest.get("abi") not in ("i386", "x86_64"):
        emulated, why = True, "an x86 /proc/cpuinfo for a non-x86 bundle: the programs were emulated"
    return {
        "abi": manifest.get("abi", "?"), "board": run.get("board", "?"), "board_model": board_model,
        "mode": run.get("mode", "?"), "emulated": emulated, "emulated_why": why,
        "started": run.get("started", "?"), "finished": run.get("finished", "?"),
        "seconds": {k: run.get(f"{k}_seconds") for k in ("tests", "bench", "total")},
        "tests": run.get("tests", "?"), "machine": uname.get("machine", "?"),
        "kernel": uname.get("release", "?"),
        "uname_a": (res.text("facts/uname-a.txt") or "?").strip(),
        "cpu_text": cpu_text, "online": online, "present": present or online or len(models) or 1,
        "models": models, "per_cpu": per_cpu(res), "caches": caches(res),
        "cmdline": res.fact("/proc/cmdline") or "", "kernel_config": res.text("facts/kernel-config"),
        "kernel_config_from": run.get("kernel_config", "?"), "btf": res.files.get("facts/btf-vmlinux"),
        "btf_note": run.get("btf", "?"), "slabinfo": res.text("facts/slabinfo-inode.txt"),
        "meminfo": res.fact("/proc/meminfo") or "", "os": os_name and os_name.group(2),
        "unreadable": (res.text("facts/unreadable.txt") or "").split(), "manifest": manifest, "run": run,
    }


def processes(res):
    """[(pass, part, program, env_pad, seconds, repetitions, min_time)] of bench/processes.txt, in the
    order run.sh ran them; None for a tarball of a run.sh without it (two passes, one process)."""
    text = res.text("bench/processes.txt")
    if text is None:
        return None
    out = []
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        try:
            pname, part, program, pad, secs, reps, min_time = fields
            row = (pname, part, program, int(pad), int(secs), int(reps), float(min_time))
        except ValueError:
            raise InputError(f"{res.path}: bench/processes.txt: bad line {line!r} (expected 7 tab-separated "
                             "fields: pass, part, program, env_pad_bytes, seconds, repetitions, min_time_s)") from None
        if pname not in ("headline", "paired", "single", "threaded") or not re.fullmatch(r"[a-z]+\d*", part) \
                or not re.fullmatch(r"y2038-bench(-order\d+)?", program) or row[5] < 1 or not row[6] > 0:
            raise InputError(f"{res.path}: bench/processes.txt: bad line {line!r}")
        out.append(row)
    if not out:
        raise InputError(f"{res.path}: bench/processes.txt: no process listed")
    return out


def passes(res):
    """[(Pass, Google Benchmark JSON)] in the order they ran, and the run plan's record (as
    `scripts/lab bench` writes y2038_run_plan): the processes of bench/processes.txt, else the two
    passes of an older run.sh."""
    procs = processes(res)
    if procs is None:
        return [(Pass(name, None, name == "threaded", (), ()), res.json(f"bench/bench.{name}.json"))
                for name in ("single", "threaded")], []
    count = collections.Counter(p[0] for p in procs)
    if len({(p[5], p[6]) for p in procs if p[0] == "paired"}) > 1:
        raise InputError(f"{res.path}: bench/processes.txt: the paired processes ran with different repetitions or "
                         "minimum times (its units must be alike)")
    if bad := [n for n, c in count.items() if c > 1 and n != "paired"]:
        raise InputError(f"{res.path}: bench/processes.txt: pass {bad[0]} in {count[bad[0]]} processes")
    datas, record = [], {}
    for pname, part, program, pad, secs, reps, min_time in procs:
        data = res.json(f"bench/bench.{part}.json")
        data["context"]["y2038_program"] = program  # bench.run.merged's unit: the link order it ran
        datas.append((Pass(pname, None, pname == "threaded", (), (), processes=count[pname]), data))
        rec = record.setdefault(pname, {"pass": pname, "benchmarks": 0, "repetitions": 0, "processes": 0,
                                        "link_orders": set(), "min_time_s": min_time, "seconds": 0,
                                        "cpus": "threads on the plan's CPUs" if pname == "threaded"
                                        else "pinned to the fastest CPU"})
        rec["benchmarks"] = max(rec["benchmarks"], len({row.get("run_name") for row in data["benchmarks"]}))
        rec["repetitions"] += reps
        rec["processes"] += 1
        rec["link_orders"].add(program)
        rec["seconds"] += secs
        if pname == "paired":
            rec["env_pad_bytes"] = sorted(set(rec.get("env_pad_bytes", [])) | {pad})
    plan = [dict(rec, link_orders=len(rec["link_orders"])) for rec in record.values()]
    return datas, plan


def suite_json(res, board):
    """Every process of the run merged as `scripts/lab bench` merges them (bench.run.merged: the rows of
    the paired pass's processes with y2038_process, one unit per link order), plus the
    board's facts in the context (y2038_board_*): the suite's JSON."""
    datas, plan = passes(res)
    out = merged(datas, plan, probes(res, "before"), probes(res, "after"))
    c = out["context"]
    if not plan:
        c.pop("y2038_run_plan")
    for rec in plan:
        if rec["pass"] == "paired":
            rec["units"] = rec["link_orders"]  # merged()'s units: the programs the processes ran
    c.update({
        "y2038_source": f"board run: {os.path.basename(res.path)} (sha256 {res.sha256[:16]})",
        "y2038_board": board["board"], "y2038_board_model": board["board_model"] or "?",
        "y2038_board_mode": board["mode"], "y2038_board_cpu": board["cpu_text"],
        "y2038_board_present_cpus": board["present"], "y2038_board_kernel": board["kernel"],
        "y2038_board_machine": board["machine"],
        "y2038_board_emulated": ("yes: " + board["emulated_why"]) if board["emulated"] else "no",
        "y2038_bundle_commit": board["manifest"].get("commit", "?"),
        "y2038_bundle_google_benchmark": board["manifest"].get("google_benchmark", "?"),
    })
    if not out["benchmarks"]:
        raise InputError(f"{res.path}: no benchmark results in any pass")
    return out
