package dev.noneops.testkit.sandbox;

/**
 * Which network namespace a {@link SystemdSandbox} runs in. {@link #OWN} gives it a namespace of
 * its own with only its loopback (up): the links, addresses and routes a node or its pods create
 * (a bridge, veths, LocalDNS's interface) stay inside the sandbox and vanish with it, and two
 * sandboxes no longer collide on ports such as kubelet's 10248 or on containerd shims' abstract
 * unix sockets. {@link #HOST} shares the host's.
 */
public enum SandboxNetwork {
  HOST,
  OWN;

  String scriptArgument() {
    return this == OWN ? "own" : "host";
  }
}
