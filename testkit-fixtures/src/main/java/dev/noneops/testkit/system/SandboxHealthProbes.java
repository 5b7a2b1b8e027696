package dev.noneops.testkit.system;

import dev.noneops.ports.commands.Command;
import dev.noneops.ports.commands.CommandRunner;
import dev.noneops.ports.health.HealthProbes;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The node's health probes for a sandbox with a network namespace of its own: kubelet's healthz on
 * {@code 127.0.0.1} and LocalDNS's address are reachable only from inside that namespace, which a
 * JVM thread cannot enter. Each probe is one short Python program run by {@code nsenter --net}
 * into the sandbox's namespace (the host's {@code /usr/bin/python3}, nothing installed in the
 * sandbox); like the production probes, it never throws and answers within its timeout plus the
 * program's start.
 */
final class SandboxHealthProbes implements HealthProbes {
  static final String PYTHON = "/usr/bin/python3";
  private static final Duration START_ALLOWANCE = Duration.ofSeconds(5);

  private static final String HTTP = """
      import sys, urllib.request
      try:
          with urllib.request.urlopen(sys.argv[1], timeout=float(sys.argv[2])) as r:
              sys.exit(0 if r.status == 200 else 1)
      except Exception:
          sys.exit(1)
      """;

  private static final String DNS = """
      import os, socket, struct, sys
      address, port, name, timeout = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
      ident = int.from_bytes(os.urandom(2), 'big')
      question = b''.join(bytes([len(p)]) + p.encode() for p in name.strip('.').split('.') if p)
      query = struct.pack('>HHHHHH', ident, 0x0100, 1, 0, 0, 0) + question + b'\\0' + struct.pack('>HH', 1, 1)
      s = socket.socket(socket.AF_INET6 if ':' in address else socket.AF_INET, socket.SOCK_DGRAM)
      s.settimeout(timeout)
      try:
          s.sendto(query, (address, port))
          while True:
              reply, _ = s.recvfrom(4096)
              if len(reply) >= 12 and struct.unpack('>H', reply[:2])[0] == ident and reply[2] & 0x80:
                  sys.exit(0)
      except Exception:
          sys.exit(1)
      """;

  private final CommandRunner host;
  private final SandboxRoot root;

  SandboxHealthProbes(CommandRunner host, SandboxRoot root) {
    this.host = Objects.requireNonNull(host, "host");
    this.root = Objects.requireNonNull(root, "root");
  }

  @Override
  public boolean httpOk(URI url, Duration timeout) {
    return succeeds(timeout, HTTP, url.toString(), seconds(timeout));
  }

  @Override
  public boolean dnsAnswers(String address, int port, String name, Duration timeout) {
    return succeeds(timeout, DNS, address, Integer.toString(port), name, seconds(timeout));
  }

  private boolean succeeds(Duration timeout, String program, String... args) {
    List<String> argv = new ArrayList<>(List.of(
        "nsenter", "--target", Long.toString(root.pid()), "--net", "--", PYTHON, "-c", program));
    argv.addAll(List.of(args));
    try {
      return host.run(Command.of(timeout.plus(START_ALLOWANCE), argv.toArray(String[]::new)))
          .succeeded();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static String seconds(Duration timeout) {
    return Double.toString(Math.max(0.05, timeout.toMillis() / 1000.0));
  }
}
