package dev.noneops.core.node;

import dev.noneops.core.node.internal.upgrade.PruneOutcome;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link VersionPruner} did: the versions removed, the versions kept with their reasons, and
 * for a version whose removal could not finish (a mount inside it, say) what was left behind.
 */
public record PruneResult(
    List<String> removed, List<KeptVersion> kept, Map<String, List<String>> leftBehind) {
  public PruneResult {
    removed = List.copyOf(removed);
    kept = List.copyOf(kept);
    leftBehind = Map.copyOf(leftBehind);
  }

  /** The reasons {@code version} was kept; empty when it was not kept. */
  static PruneResult of(PruneOutcome outcome) {
    return new PruneResult(
        outcome.removed(),
        outcome.kept().entrySet().stream()
            .map(e -> new KeptVersion(e.getKey(), e.getValue()))
            .toList(),
        outcome.leftBehind());
  }

  public List<String> reasonsKept(String version) {
    return kept.stream()
        .filter(k -> k.version().equals(version))
        .findFirst()
        .map(KeptVersion::reasons)
        .orElse(List.of());
  }

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
}
