#!/usr/bin/env python3
"""Checks deploy/kubernetes.yaml against the daemon and the image it runs.

usage: kubernetes_test.py SOURCE_DIR

Parses the manifest (PyYAML) and checks the Deployment: no containerPorts (podman kube play
would publish them on the host, where two replicas collide); readiness on /readyz (httpGet) and
liveness on /healthz (the image's sudokud-probe), both on the port the daemon's --metrics
serves, which the Prometheus annotation names too; the solving port the one --listen binds;
terminationGracePeriodSeconds above --drain-timeout; CPU and memory requested and limited, with
no --threads or --max-memory beside them: the daemon sizes itself by the limits (its cgroup's),
and what it makes of these ones is printed; a non-root user, the one deploy/Containerfile
creates; and a Service sending its port to the solving port.
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
    listen_port = int(flags["--listen"].rsplit(":", 1)[1])
    metrics_port = int(flags["--metrics"].rsplit(":", 1)[1])
    check(listen_port == 9810 and metrics_port == listen_port + 100,
          f"--listen on {listen_port}, --metrics on {metrics_port} (the solving port plus 100)")
    check(not container.get("ports"),
          "no containerPorts (podman kube play publishes each one on the host)")
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    check(annotations["prometheus.io/port"] == str(metrics_port),
          f"prometheus.io/port {annotations['prometheus.io/port']} is --metrics' port")

    with open(f"{source}/deploy/Containerfile") as f:
        containerfile = f.read()
    ready = container["readinessProbe"]["httpGet"]
    check(ready["path"] == "/readyz" and ready["port"] == metrics_port,
          f"readinessProbe: GET {ready['path']} on {ready['port']}")
    live = container["livenessProbe"]["exec"]["command"]
    check(live == ["sudokud-probe", str(metrics_port), "/healthz"]
          and ">/usr/local/bin/sudokud-probe" in containerfile,
          f"livenessProbe: {' '.join(live)} (the Containerfile writes sudokud-probe)")
    check(all(re.fullmatch(r"[\w./-]+", word) for word in live),
          "livenessProbe: words that need no quoting (podman 4.3 makes a shell line of them)")
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

    user = re.search(r"^USER (\d+):(\d+)$", containerfile, re.M)
    security = pod["securityContext"]
    check(security["runAsNonRoot"] is True and security["runAsUser"] == int(user.group(1)) != 0,
          f"runAsNonRoot, runAsUser {security['runAsUser']} (the Containerfile's USER)")
    stopsignal = re.search(r"^STOPSIGNAL (\S+)$", containerfile, re.M).group(1)
    check(stopsignal == "SIGTERM", "the Containerfile's STOPSIGNAL is SIGTERM (the drain)")

    service = kinds["Service"]
    check(service["spec"]["selector"].items() <= labels.items(), "the Service selects the pods")
    (port,) = service["spec"]["ports"]
    check(port["targetPort"] == port["port"] == listen_port,
          f"the Service's port {port['port']} goes to the solving port {port['targetPort']}")
    print("kubernetes.yaml: every check passed")


if __name__ == "__main__":
    main()
