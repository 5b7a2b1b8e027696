package dev.noneops.ports.machine;

import java.util.Map;
import java.util.Objects;

/**
 * {@code spec.agent}: the agent's image ({@code ""} when unset) and where the node's artifacts come
 * from ({@code downloads}, one {@link DownloadSource} per artifact the spec names).
 */
public record AgentSpec(String image, Map<MachineArtifact, DownloadSource> downloads) {

  /** Nothing set. */
  public static final AgentSpec EMPTY = new AgentSpec("", Map.of());

  public AgentSpec {
    Objects.requireNonNull(image, "image");
    downloads = Map.copyOf(downloads);
  }
}
