#!/usr/bin/env python3
"""Checks deploy/kubernetes.yaml against the daemon and the image it runs.

usage: kubernetes_test.py SOURCE_DIR

Parses the manifest (PyYAML) and checks the Deployment: readiness on /readyz and liveness on
/healthz, both on the port the daemon's --metrics serves; the solving port the one --listen
binds; terminationGracePeriodSeconds above --drain-timeout; CPU and memory requested and
limited, with no --threads or --max-memory beside them: the daemon sizes itself by the limits
(its cgroup's), and what it makes of these ones is printed; a non-root user, the one
deploy/Containerfile creates; and a Service sending its port to the solving port.
Prints one "ok: ..." line a check; exits 1 at the first failure, 77 (with "SKIP: why") without
PyYAML.
"""
import re
import sys

try:
    import yaml
except ImportError:
    print("SKIP: no python3-yaml (import yaml failed)")
    sys.exit(77)

UNITS = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "K": 10**3, "M": 10**6, "G": 10**9, "": 1}


def quantity(text):
    number, unit = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text)).groups()
    return float(number) * UNITS[unit]


def seconds(text):
    number, unit = re.fullmatch(r"([0-9.]+)(ms|s|m|)", text).groups()
    return float(number) * {"ms": 0.001, "s": 1, "": 1, "m": 60}[unit]


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)
    print(f"ok: {what}")


def main():
    source = sys.argv[1]
    with open(f"{source}/deploy/kubernetes.yaml") as f:
        documents = [d for d in yaml.safe_load_all(f) if d]
    kinds = {d["kind"]: d for d in documents}
    check(set(kinds) == {"Deployment", "Service"}, f"a Deployment and a Service: {sorted(kinds)}")
    deployment = kinds["Deployment"]
    check(deployment["apiVersion"] == "apps/v1", "apps/v1")
    pod = deployment["spec"]["template"]["spec"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    check(deployment["spec"]["selector"]["matchLabels"].items() <= labels.items(),
          f"the selector matches the pods' labels {labels}")
    (container,) = pod["containers"]
    args = container["args"]
    flags = dict(zip(args[::2], args[1::2]))
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    listen_port = int(flags["--listen"].rsplit(":", 1)[1])
    metrics_port = int(flags["--metrics"].rsplit(":", 1)[1])
    check(ports["solve"] == listen_port == 9810, f"port solve {ports['solve']} is --listen's")
    check(ports["metrics"] == metrics_port == listen_port + 100,
          f"port metrics {ports['metrics']} is --metrics' (the solving port plus 100)")

    def probe_port(probe):
        port = probe["httpGet"]["port"]
        return ports[port] if isinstance(port, str) else port

    for kind, path in (("readinessProbe", "/readyz"), ("livenessProbe", "/healthz")):
        probe = container[kind]
        check(probe["httpGet"]["path"] == path and probe_port(probe) == metrics_port,
              f"{kind}: GET {probe['httpGet']['path']} on {probe_port(probe)}")
    drain = seconds(flags.get("--drain-timeout", "30s"))
    grace = pod["terminationGracePeriodSeconds"]
    check(grace > drain, f"terminationGracePeriodSeconds {grace} > --drain-timeout {drain:g} s")

    resources = container["resources"]
    for bound in ("requests", "limits"):
        check({"cpu", "memory"} <= set(resources[bound]), f"resources.{bound}: {resources[bound]}")
    # The daemon's defaults under the limits (daemon/cgroup_limits.h): the CPU limit's whole
    # cores, and half the memory limit, at most 4 GiB.
    check("--threads" not in flags and "--max-memory" not in flags,
          "no --threads or --max-memory: they follow resources.limits")
    cpu = quantity(resources["limits"]["cpu"])
    memory = quantity(resources["limits"]["memory"])
    threads = max(int(cpu), 1)
    max_memory = min(int(memory) // 2, 4 << 30)
    check(threads == cpu, f"the CPU limit {resources['limits']['cpu']} is whole cores: "
          f"{threads} solver threads, none throttled")
    check(max_memory >= 2 * (16 << 20),
          f"the memory limit {resources['limits']['memory']}: --max-memory {max_memory} (half), "
          "at least twice --max-frame-bytes")

    with open(f"{source}/deploy/Containerfile") as f:
        containerfile = f.read()
    user = re.search(r"^USER (\d+):(\d+)$", containerfile, re.M)
    security = pod["securityContext"]
    check(security["runAsNonRoot"] is True and security["runAsUser"] == int(user.group(1)) != 0,
          f"runAsNonRoot, runAsUser {security['runAsUser']} (the Containerfile's USER)")
    stopsignal = re.search(r"^STOPSIGNAL (\S+)$", containerfile, re.M).group(1)
    check(stopsignal == "SIGTERM", "the Containerfile's STOPSIGNAL is SIGTERM (the drain)")

    service = kinds["Service"]
    check(service["spec"]["selector"].items() <= labels.items(), "the Service selects the pods")
    (port,) = service["spec"]["ports"]
    check(port["targetPort"] == "solve" and port["port"] == listen_port,
          f"the Service's port {port['port']} goes to the solving port")
    print("kubernetes.yaml: every check passed")


if __name__ == "__main__":
    main()
