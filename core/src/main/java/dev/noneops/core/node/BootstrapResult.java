package dev.noneops.core.node;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Node#bootstrap(boolean)} left: the active version, which families of configuration
 * it wrote, whether the stack is up, and the preflight checks that warned (bootstrap went on
 * past them, but the operator should know).
 */
public record BootstrapResult(
    String version,
    ConfigureResult changed,
    boolean running,
    List<PreflightReport.Check> warnings) {
  public BootstrapResult {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(changed, "changed");
    warnings = List.copyOf(warnings);
  }

  /** A bootstrap whose preflight raised no warning. */
  public BootstrapResult(String version, ConfigureResult changed, boolean running) {
    this(version, changed, running, List.of());
  }
}
