package dev.noneops.core.node;

import java.util.List;
import java.util.Map;

/**
 * What {@link VersionPruner} did: the versions removed, the versions kept with their reasons, and
 * for a version whose removal could not finish (a mount inside it, say) what was left behind.
 */
public record PruneReport(
    List<String> removed, List<KeptVersion> kept, Map<String, List<String>> leftBehind) {
  public PruneReport {
    removed = List.copyOf(removed);
    kept = List.copyOf(kept);
    leftBehind = Map.copyOf(leftBehind);
  }

  /** The reasons {@code version} was kept; empty when it was not kept. */
  public List<String> reasonsKept(String version) {
    return kept.stream()
        .filter(k -> k.version().equals(version))
        .findFirst()
        .map(KeptVersion::reasons)
        .orElse(List.of());
  }
}
