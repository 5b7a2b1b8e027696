package dev.noneops.testkit.gate;

import java.nio.file.Path;
import java.util.Set;
import java.util.function.Predicate;

/** Ready-made matchers of {@link PortCall}s for fault rules and journal queries. */
public final class Calls {
  private Calls() {}

  /** Every call. */
  public static Predicate<PortCall> any() {
    return call -> true;
  }

  /** Calls of {@code port.method}, e.g. {@code files.writeDurably}. */
  public static Predicate<PortCall> to(String portDotMethod) {
    return call -> call.name().equals(portDotMethod);
  }

  /** Calls of any of the given {@code port.method}s. */
  public static Predicate<PortCall> toAnyOf(String... portDotMethods) {
    Set<String> names = Set.of(portDotMethods);
    return call -> names.contains(call.name());
  }

  /** Every call of one port ({@code files}, {@code systemd}, ...). */
  public static Predicate<PortCall> port(String port) {
    return call -> call.port().equals(port);
  }

  /** Calls that may change the host. */
  public static Predicate<PortCall> mutating() {
    return PortCall::mutating;
  }

  /** Calls with an argument equal to {@code value} (a path, a unit name, ...). */
  public static Predicate<PortCall> withArg(String value) {
    return call -> call.args().contains(value);
  }

  /** Calls with a path argument at or below {@code dir}. */
  public static Predicate<PortCall> under(Path dir) {
    String prefix = dir.toString();
    return call -> call.args().stream()
        .anyMatch(
            a -> a.equals(prefix) || a.startsWith(prefix.endsWith("/") ? prefix : prefix + "/"));
  }
}
