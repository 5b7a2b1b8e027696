package dev.noneops.testkit.gate;

import java.util.List;
import java.util.Objects;

/**
 * One call of a port method as the journal records it.
 *
 * @param sequence the call's position in the journal, from 1
 * @param port the port's short name: {@code files}, {@code systemd}, {@code commands},
 *     {@code processes}, {@code cgroups}, {@code mounts}, {@code downloads}, {@code probes},
 *     {@code facts}, {@code clock}
 * @param method the port method's name
 * @param args a summary of the arguments (paths, unit names, argv), one string each
 * @param mutating whether the call may change the host
 */
public record PortCall(
    long sequence, String port, String method, List<String> args, boolean mutating) {
  public PortCall {
    Objects.requireNonNull(port, "port");
    Objects.requireNonNull(method, "method");
    args = List.copyOf(args);
  }

  /** {@code port.method}, e.g. {@code systemd.restart}. */
  public String name() {
    return port + "." + method;
  }

  /** Whether this is {@code port.method} with exactly these leading arguments. */
  public boolean is(String portDotMethod, String... leadingArgs) {
    if (!name().equals(portDotMethod) || args.size() < leadingArgs.length) {
      return false;
    }
    for (int i = 0; i < leadingArgs.length; i++) {
      if (!args.get(i).equals(leadingArgs[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return name() + "(" + String.join(", ", args) + ")" + (mutating ? " *" : "");
  }
}
