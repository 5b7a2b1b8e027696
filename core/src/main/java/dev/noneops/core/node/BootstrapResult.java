package dev.noneops.core.node;

import java.util.Objects;

/**
 * What {@link Node#bootstrap(boolean)} left: the active version, which families of configuration
 * it wrote, and whether the stack is up.
 */
public record BootstrapResult(String version, ConfigureResult changed, boolean running) {
  public BootstrapResult {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(changed, "changed");
  }
}
