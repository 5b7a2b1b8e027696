package dev.noneops.core.node;

import java.util.Objects;

/**
 * What {@link Node#apply()} did: the active version it reconfigured, whether the stack was running
 * before, which families of files changed, and whether the stack runs now.
 */
public record ApplyResult(
    String version, boolean wasRunning, ConfigureResult changes, boolean running) {
  public ApplyResult {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(changes, "changes");
  }
}
