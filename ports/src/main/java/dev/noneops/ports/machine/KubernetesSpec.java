package dev.noneops.ports.machine;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code spec.kubernetes}: the Kubernetes version the node runs ({@code ""} when the spec does not
 * say), the labels and taints kubelet registers the node with (taints as {@code key=value:Effect},
 * as the agent's configuration writes them), and the name of the bootstrap token Secret ({@code
 * bootstrapTokenRef.name}, {@code ""} when unset).
 */
public record KubernetesSpec(
    String version,
    Map<String, String> nodeLabels,
    List<String> registerWithTaints,
    String bootstrapTokenRef) {

  /** Nothing set. */
  public static final KubernetesSpec EMPTY = new KubernetesSpec("", Map.of(), List.of(), "");

  public KubernetesSpec {
    Objects.requireNonNull(version, "version");
    nodeLabels = Map.copyOf(nodeLabels);
    registerWithTaints = List.copyOf(registerWithTaints);
    Objects.requireNonNull(bootstrapTokenRef, "bootstrapTokenRef");
  }

  public KubernetesSpec withVersion(String value) {
    return new KubernetesSpec(value, nodeLabels, registerWithTaints, bootstrapTokenRef);
  }
}
