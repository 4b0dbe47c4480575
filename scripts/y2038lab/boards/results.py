"""Reading one results tarball of boards/run.sh: the board's facts and its JSON.

A tarball holds one folder, y2038-results-<abi>-<board>-<date>/, with run.txt and manifest.txt
("key: value" lines), facts/ (copies of /proc and /sys files, uname, the kernel config and BTF when
readable), tests.txt, bench/ (the CPU probes and the two passes' Google Benchmark JSON) and
headline.txt.  Everything is read into memory and checked here; nothing is extracted to disk.
"""
import collections
import hashlib
import json
import os
import re
import tarfile

from y2038lab.bench.run import PROBES
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


def suite_json(res, board):
    """The two passes merged as `scripts/lab bench` merges them, plus the
    board's facts in the context (y2038_board_*): the suite's JSON."""
    single, threaded = res.json("bench/bench.single.json"), res.json("bench/bench.threaded.json")
    c = single["context"]
    c["y2038_seed"] = (f"{c.get('y2038_seed', '?')} (single-threaded pass), "
                       f"{threaded['context'].get('y2038_seed', '?')} (threaded pass)")
    c["y2038_passes"] = ["single-threaded: " + c.get("date", "?"),
                         "threaded: " + threaded["context"].get("date", "?")]
    c["y2038_thread_cpus"] = threaded["context"].get("y2038_thread_cpus", "?")
    c["y2038_cpu_ns_before"], c["y2038_cpu_ns_after"] = probes(res, "before"), probes(res, "after")
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
    single["benchmarks"] += threaded["benchmarks"]
    if not single["benchmarks"]:
        raise InputError(f"{res.path}: no benchmark results in either pass")
    return single
