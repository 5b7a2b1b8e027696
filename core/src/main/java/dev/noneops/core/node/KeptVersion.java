package dev.noneops.core.node;

import java.util.List;
import java.util.Objects;

/**
 * An installed version that pruning kept, and every reason it was kept (the active version, a
 * process executing from it, a containerd task pointing at its shim, ...).
 */
public record KeptVersion(String version, List<String> reasons) {
  public KeptVersion {
    Objects.requireNonNull(version, "version");
    reasons = List.copyOf(reasons);
    if (reasons.isEmpty()) {
      throw new IllegalArgumentException("a kept version needs a reason: " + version);
    }
  }
}
