package dev.noneops.core.node;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What {@link Node#apply()} did: the active version it reconfigured, whether the whole stack was
 * running before, which families of files changed, whether the whole stack runs now, the units
 * it restarted (running with a changed configuration, or kubelet after containerd) and the units
 * it started (they were not running), each in the stack's order, and the
 * shared paths it found replaced by something else and stopped owning (left as they are; said
 * once, here).
 */
public record ApplyResult(
    String version,
    boolean wasRunning,
    ConfigureResult changes,
    boolean running,
    List<String> restarted,
    List<String> started,
    List<Path> disowned) {
  public ApplyResult {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(changes, "changes");
    restarted = List.copyOf(restarted);
    started = List.copyOf(started);
    disowned = List.copyOf(disowned);
  }
}
